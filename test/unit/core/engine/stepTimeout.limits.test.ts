import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { RunStop } from '../../../../src/core/engine/runStop';
import { withinStepTimeout } from '../../../../src/core/engine/stepTimeout';
import { flushAsync, ManualClock } from '../../../fakes/manualClock';

/** What `promise` settled with after a few turns of the event loop, or 'pending'. */
async function settledWith(promise: Promise<unknown>): Promise<string> {
  let outcome = 'pending';
  promise.then(
    (value) => (outcome = `resolved ${String(value)}`),
    (error: unknown) => (outcome = `rejected ${(error as Error).message}`),
  );
  for (let turn = 0; turn < 5; turn++) await flushAsync();
  return outcome;
}

describe('withinStepTimeout', () => {
  it('settles with the attempt\'s own failure at once, long before the limit, and clears the timeout', async () => {
    const clock = new ManualClock(0);
    const stop = new RunStop();
    const outcome = await settledWith(withinStepTimeout({ id: 'a', timeoutMs: 1_000 }, stop, clock, () => Promise.reject(new Error('boom'))));
    assert.equal(outcome, 'rejected boom');
    assert.equal(clock.pendingCount, 0);
  });

  it('leaves no listener on the run\'s signal once an attempt with a limit ends, however it ends', async () => {
    const clock = new ManualClock(0);
    const stop = new RunStop();
    for (let step = 0; step < 5; step++) {
      assert.equal(await settledWith(withinStepTimeout({ id: `ok${step}`, timeoutMs: 50 }, stop, clock, async () => 'done')), 'resolved done');
      assert.equal(await settledWith(withinStepTimeout({ id: `bad${step}`, timeoutMs: 50 }, stop, clock, () => Promise.reject(new Error('boom')))), 'rejected boom');
    }
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  });
});
