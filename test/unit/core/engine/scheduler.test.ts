import assert from 'node:assert/strict';
import { buildPlanGraph, comparePriority, dependentsToSkip, failedDependency, unmetDependencies } from '../../../../src/core/engine/scheduler';
import type { StepState } from '../../../../src/core/engine/runEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

const state = (id: string, status: StepState['status']): StepState => ({ id, status, attempts: 0 });

describe('scheduler', () => {
  const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'] }), makeStep('d', { dependsOn: ['a'] }), makeStep('e')]);

  it('gives each step the length of its longest remaining path', () => {
    const graph = buildPlanGraph(plan);
    assert.deepEqual(Object.fromEntries(graph.priority), { a: 3, b: 2, c: 1, d: 1, e: 1 });
    assert.deepEqual(buildPlanGraph(plan, (id) => (id === 'd' ? 10 : 1)).priority.get('a'), 11);
  });

  it('orders by priority, then plan order', () => {
    const graph = buildPlanGraph(plan);
    assert.deepEqual(['e', 'd', 'c', 'b', 'a'].sort((x, y) => comparePriority(graph, x, y)), ['a', 'b', 'c', 'd', 'e']);
  });

  it('finds transitive dependents to skip, each with the dependency it was reached through', () => {
    const graph = buildPlanGraph(plan);
    const steps = { a: state('a', 'failed'), b: state('b', 'blocked'), c: state('c', 'blocked'), d: state('d', 'skipped'), e: state('e', 'ready') };
    assert.deepEqual(dependentsToSkip(graph, 'a', steps), [
      { stepId: 'b', via: 'a' },
      { stepId: 'c', via: 'b' },
    ]);
    assert.equal(failedDependency(graph, 'b', steps), 'a');
    assert.equal(unmetDependencies(graph, 'c', steps), 1);
  });

  it('refuses cycles and unknown dependencies with clear messages', () => {
    assert.throws(() => buildPlanGraph(makePlan([makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] })])), /cycle among a, b/);
    assert.throws(() => buildPlanGraph(makePlan([makeStep('a', { dependsOn: ['zz'] })])), /depends on zz, which is not in the plan/);
  });

  it('lists a step reached along two paths once, and counts dependencies the state does not know yet as unmet', () => {
    const diamond = buildPlanGraph(makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['a'] }), makeStep('d', { dependsOn: ['b', 'c'] })]));
    assert.deepEqual(dependentsToSkip(diamond, 'a', {}), [
      { stepId: 'b', via: 'a' },
      { stepId: 'c', via: 'a' },
      { stepId: 'd', via: 'b' },
    ]);
    assert.equal(unmetDependencies(diamond, 'd', {}), 2);
    assert.equal(failedDependency(diamond, 'd', {}), undefined);
    assert.equal(failedDependency(diamond, 'd', { b: state('b', 'completed'), c: state('c', 'skipped') }), 'c');
  });

  it('names only the steps of the cycle, not the steps around it', () => {
    const plan = makePlan([makeStep('free'), makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] }), makeStep('after', { dependsOn: ['a'] })]);
    assert.throws(() => buildPlanGraph(plan), (error: unknown) => error instanceof Error && error.message === 'The plan has a dependency cycle among a, b; break the cycle before running it.');
  });
});
