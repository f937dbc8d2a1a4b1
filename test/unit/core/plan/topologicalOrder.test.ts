import assert from 'node:assert/strict';
import { topologicalOrder } from '../../../../src/core/plan/topologicalOrder';
import { makeStep } from '../../../support/randomPlans';

describe('topologicalOrder', () => {
  it('puts every dependency first, ties in plan order, and gives each step its known dependencies as positions', () => {
    const steps = [makeStep('c', { dependsOn: ['a', 'ghost'] }), makeStep('a'), makeStep('b')];
    assert.deepEqual(topologicalOrder(steps), { ok: true, order: [1, 2, 0], depIndexes: [[1], [], []] });
  });

  it('resolves a repeated id to its first step', () => {
    // Were "a" the last step, b and the second a would depend on each other.
    const steps = [makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('a', { dependsOn: ['b'] })];
    assert.deepEqual(topologicalOrder(steps), { ok: true, order: [0, 1, 2], depIndexes: [[], [0], [1]] });
  });

  it('names exactly the steps a cycle keeps from being placed: the cycle and what depends on it', () => {
    const steps = [makeStep('a'), makeStep('b', { dependsOn: ['c'] }), makeStep('c', { dependsOn: ['b'] }), makeStep('d', { dependsOn: ['b'] }), makeStep('e', { dependsOn: ['a'] })];
    assert.deepEqual(topologicalOrder(steps), { ok: false, unplaced: ['b', 'c', 'd'] });
  });
});
