import assert from 'node:assert/strict';
import { diffPlans } from '../../../../src/core/view/planDiff';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('diffPlans', () => {
  const before = makePlan([makeStep('a'), makeStep('b'), makeStep('c'), makeStep('d')]);

  it('lists added and removed steps, and for a kept step the fields that changed, in name order', () => {
    const after = { ...before, version: 3, steps: [makeStep('a', { title: 'New title', input: 'other', critical: false }), makeStep('b'), makeStep('c'), makeStep('d'), makeStep('e')] };
    assert.deepEqual(diffPlans(before, after), { fromVersion: 1, toVersion: 3, added: ['e'], removed: [], changed: [{ id: 'a', fields: ['critical', 'input', 'title'] }], objectiveChanged: false });
  });

  it('moves no kept step when a step before them is removed', () => {
    const after = { ...before, version: 2, steps: [makeStep('b'), makeStep('c'), makeStep('d')] };
    assert.deepEqual(diffPlans(before, after), { fromVersion: 1, toVersion: 2, added: [], removed: ['a'], changed: [], objectiveChanged: false });
  });

  it('marks the kept steps whose place among the kept ones changed, also when their fields changed', () => {
    const after = { ...before, version: 2, steps: [makeStep('a'), makeStep('c', { title: 'C' }), makeStep('b'), makeStep('d')] };
    assert.deepEqual(diffPlans(before, after).changed, [{ id: 'c', fields: ['title', 'position'] }, { id: 'b', fields: ['position'] }]);
  });
});
