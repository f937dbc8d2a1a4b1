import assert from 'node:assert/strict';
import fc from 'fast-check';
import { planLevels } from '../../../../src/core/plan/planLevels';
import { dagPlanArbitrary, makePlan, makeStep, randomDagPlan } from '../../../support/randomPlans';

describe('planLevels', () => {
  it('groups steps by dependency depth, in plan order inside a level', () => {
    const plan = makePlan([makeStep('d', { dependsOn: ['b', 'c'] }), makeStep('b', { dependsOn: ['a'] }), makeStep('a'), makeStep('c'), makeStep('e', { dependsOn: ['a'] })]);
    assert.deepEqual(planLevels(plan), { ok: true, levels: [['a', 'c'], ['b', 'e'], ['d']] });
  });

  it('puts a step one level after its deepest dependency', () => {
    const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['a', 'b'] })]);
    assert.deepEqual(planLevels(plan), { ok: true, levels: [['a'], ['b'], ['c']] });
  });

  it('ignores unknown dependencies', () => {
    assert.deepEqual(planLevels(makePlan([makeStep('a', { dependsOn: ['ghost'] })])), { ok: true, levels: [['a']] });
  });

  it('returns the cycle instead of looping', () => {
    const plan = makePlan([makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] })]);
    assert.deepEqual(planLevels(plan), { ok: false, cycle: ['a', 'b'] });
  });

  it('returns a self-dependency as a cycle of one', () => {
    assert.deepEqual(planLevels(makePlan([makeStep('a', { dependsOn: ['a'] })])), { ok: false, cycle: ['a'] });
  });

  it('handles a chain of 20,000 steps without overflowing the stack', () => {
    const steps = Array.from({ length: 20_000 }, (_, index) => makeStep(`S${index}`, { dependsOn: index === 0 ? [] : [`S${index - 1}`] }));
    const result = planLevels(makePlan(steps.reverse()));
    assert.ok(result.ok);
    assert.equal(result.levels.length, 20_000);
  });

  it('levels a large random DAG', () => {
    const result = planLevels(randomDagPlan(2_000));
    assert.ok(result.ok);
    assert.equal(result.levels.flat().length, 2_000);
  });

  it('puts every dependency in an earlier level, for random DAGs', () => {
    fc.assert(fc.property(dagPlanArbitrary, (plan) => {
      const result = planLevels(plan);
      assert.ok(result.ok);
      const levelOf = new Map(result.levels.flatMap((ids, level) => ids.map((id) => [id, level] as const)));
      assert.equal(levelOf.size, plan.steps.length);
      for (const step of plan.steps) {
        const level = levelOf.get(step.id)!;
        for (const dep of step.dependsOn) assert.ok(levelOf.get(dep)! < level, `${dep} must come before ${step.id}`);
        if (step.dependsOn.length > 0) assert.equal(level, 1 + Math.max(...step.dependsOn.map((dep) => levelOf.get(dep)!)));
        else assert.equal(level, 0);
      }
    }), { numRuns: 300 });
  });
});
