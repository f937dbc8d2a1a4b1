import assert from 'node:assert/strict';
import { DeferredError, isDeferredError } from '../../../../src/core/tools/deferral';

describe('DeferredError', () => {
  it('says what the step waits for and how to give it', () => {
    assert.equal(new DeferredError('manual', 'S2').message, 'Step S2 waits for you to do it and mark it done or failed; resume the run to give it.');
    assert.equal(new DeferredError('approval', 'S1').message, 'Step S1 waits for an approval; resume the run to give it.');
  });

  it('cannot be made for a budget pause, which no step asks (a BudgetExceededError says it)', () => {
    // @ts-expect-error a budget pause is not a request a step defers
    const made = new DeferredError('budget', 'S1');
    assert.equal(isDeferredError(made), true, 'made anyway (bypassing the compiler), it is still the class');
  });

  it('recognises a deferral from another copy of the engine by name and shape, only for a kind a step asks', () => {
    const foreign = (kind: string) => Object.assign(new Error('waits'), { name: 'DeferredError', kind, stepId: 'S1' });
    assert.equal(isDeferredError(foreign('clarification')), true);
    assert.equal(isDeferredError(foreign('review')), true);
    assert.equal(isDeferredError(foreign('budget')), false);
    assert.equal(isDeferredError(foreign('toString')), false);
    assert.equal(isDeferredError(Object.assign(new Error('waits'), { name: 'DeferredError', kind: 'approval' })), false, 'no step id');
    assert.equal(isDeferredError(Object.assign(new Error('waits'), { name: 'Error', kind: 'approval', stepId: 'S1' })), false, 'another name');
    assert.equal(isDeferredError({ name: 'DeferredError', kind: 'approval', stepId: 'S1', message: 'not an Error' }), false);
  });
});
