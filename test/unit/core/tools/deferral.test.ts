import assert from 'node:assert/strict';
import { DeferredError, isDeferredError } from '../../../../src/core/tools/deferral';

describe('DeferredError', () => {
  it('tells the user what the step waits for and that resuming the run gives it', () => {
    assert.equal(new DeferredError('approval', 'S1').message, 'Step S1 waits for an approval; resume the run to give it.');
    assert.equal(new DeferredError('clarification', 'S2').message, 'Step S2 waits for an answer; resume the run to give it.');
    assert.equal(new DeferredError('review', 'S3').message, 'Step S3 waits for a review; resume the run to give it.');
  });

  it('is recognised as it is and as a copy from another bundle (same name and shape), and nothing else is', () => {
    const own = new DeferredError('manual', 'S1');
    assert.equal(own.name, 'DeferredError');
    assert.ok(isDeferredError(own));
    const copy = Object.assign(new Error('Step S1 waits'), { name: 'DeferredError', kind: 'manual', stepId: 'S1' });
    assert.ok(isDeferredError(copy));
    assert.ok(!isDeferredError(Object.assign(new Error('x'), { name: 'DeferredError', stepId: 'S1' })), 'no kind');
    assert.ok(!isDeferredError(Object.assign(new Error('x'), { name: 'DeferredError', kind: 'manual' })), 'no step id');
    assert.ok(!isDeferredError(Object.assign(new Error('x'), { kind: 'manual', stepId: 'S1' })), 'another error');
    assert.ok(!isDeferredError({ name: 'DeferredError', kind: 'manual', stepId: 'S1', message: '' }), 'not an Error');
    assert.ok(!isDeferredError(undefined));
  });
});
