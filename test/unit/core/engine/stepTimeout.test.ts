import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { RunStop } from '../../../../src/core/engine/runStop';
import { withinStepTimeout } from '../../../../src/core/engine/stepTimeout';
import { ManualClock } from '../../../fakes/manualClock';

describe('withinStepTimeout with a time limit', () => {
  it('passes the attempt\'s own error on, not a timeout', async () => {
    const stop = new RunStop();
    await assert.rejects(
      withinStepTimeout({ id: 'S1', timeoutMs: 1_000 }, stop, new ManualClock(0), () => Promise.reject(new Error('boom'))),
      /^Error: boom$/,
    );
  });

  it('leaves no listener on the run\'s signal once attempts end, however many ran', async () => {
    const stop = new RunStop();
    const before = getEventListeners(stop.signal, 'abort').length;
    for (let attempt = 0; attempt < 5; attempt++) {
      assert.equal(await withinStepTimeout({ id: 'S1', timeoutMs: 1_000 }, stop, new ManualClock(0), () => Promise.resolve(attempt)), attempt);
      await assert.rejects(withinStepTimeout({ id: 'S1', timeoutMs: 1_000 }, stop, new ManualClock(0), () => Promise.reject(new Error('no'))));
    }
    assert.equal(getEventListeners(stop.signal, 'abort').length, before);
  });
});
