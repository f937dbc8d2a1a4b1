import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dependencyOrder } from '../../../../src/core/plan/dependencyOrder';
import { dagPlanArbitrary, makeStep } from '../../../support/randomPlans';

const ids = (steps: readonly { id: string }[]): string[] => steps.map((step) => step.id);

describe('dependencyOrder', () => {
  it('keeps an order where every step already comes after what it depends on, as the same list', () => {
    const steps = [makeStep('S1'), makeStep('S2', { dependsOn: ['S1'] }), makeStep('S3'), makeStep('S4', { dependsOn: ['S2'] })];
    assert.equal(dependencyOrder(steps), steps);
  });

  it('moves a step down to just after a dependency listed below it, with what depends on it, and no other step', () => {
    const steps = [
      makeStep('S1'),
      makeStep('S2', { dependsOn: ['S5'] }),
      makeStep('S3', { dependsOn: ['S2'] }),
      makeStep('S4'),
      makeStep('S5'),
      makeStep('S6'),
    ];
    assert.deepEqual(ids(dependencyOrder(steps)!), ['S1', 'S4', 'S5', 'S2', 'S3', 'S6']);
  });

  it('gives no order for a cycle, and ignores dependencies on steps the plan does not have', () => {
    assert.equal(dependencyOrder([makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] })]), undefined);
    const steps = [makeStep('a', { dependsOn: ['gone'] }), makeStep('b')];
    assert.equal(dependencyOrder(steps), steps);
  });

  it('orders any acyclic plan so dependencies come first, and leaves a plan already so as it is (property)', () => {
    fc.assert(
      // The plans come in a shuffled order.
      fc.property(dagPlanArbitrary, (plan) => {
        const ordered = dependencyOrder(plan.steps)!;
        const at = new Map(ordered.map((step, index) => [step.id, index]));
        for (const step of ordered) for (const dep of step.dependsOn) assert.ok(at.get(dep)! < at.get(step.id)!, `${dep} before ${step.id}`);
        assert.deepEqual([...ids(ordered)].sort(), [...ids(plan.steps)].sort());
        assert.equal(dependencyOrder(ordered), ordered);
      }),
    );
  });
});
