import assert from 'node:assert/strict';
import { findCycles } from '../../../../src/core/plan/findCycles';
import { makeStep } from '../../../support/randomPlans';

describe('findCycles', () => {
  it('finds nothing in a DAG', () => {
    assert.deepEqual(findCycles([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]), []);
  });

  it('returns a cycle where each step depends on the next', () => {
    const steps = [makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['c'] }), makeStep('c', { dependsOn: ['a'] })];
    const [cycle] = findCycles(steps);
    assert.ok(cycle);
    cycle.forEach((id, index) => {
      const next = cycle[(index + 1) % cycle.length]!;
      assert.ok(steps.find((step) => step.id === id)!.dependsOn.includes(next));
    });
  });

  it('finds one cycle per strongly connected component', () => {
    const steps = [makeStep('a', { dependsOn: ['b'] }), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['c'] }), makeStep('d', { dependsOn: ['a'] })];
    assert.deepEqual(findCycles(steps).map((cycle) => [...cycle].sort()), [['a', 'b'], ['c']]);
  });

  it('ignores dependencies on unknown steps', () => {
    assert.deepEqual(findCycles([makeStep('a', { dependsOn: ['zzz'] })]), []);
  });
});
