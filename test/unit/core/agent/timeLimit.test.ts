import assert from 'node:assert/strict';
import { withTimeLimit } from '../../../../src/core/agent/timeLimit';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import { flushAsync, ManualClock } from '../../../fakes/manualClock';

/** Work that waits until its signal aborts, then rejects with the reason. */
const untilAborted = (seen: AbortSignal[]) => (signal: AbortSignal): Promise<never> => {
  seen.push(signal);
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
};

describe('withTimeLimit', () => {
  it('stops the work when the limit passes on the clock, with a retryable failure that says what to change', async () => {
    const clock = new ManualClock(0);
    const seen: AbortSignal[] = [];
    const outcome = withTimeLimit(clock, new AbortController().signal, 100, 'Step S1\'s agent', untilAborted(seen)).then(() => undefined, (error: unknown) => error);
    await flushAsync();
    await clock.advance(99);
    assert.equal(seen[0]?.aborted, false);
    await clock.advance(1);
    const error = await outcome;
    assert.ok(seen[0]?.reason instanceof StepFailure);
    assert.equal((seen[0].reason).message, "Step S1's agent timed out after 100 ms.");
    assert.equal((seen[0].reason).retryable, true);
    assert.ok(error instanceof StepFailure);
    assert.equal(error.message, "Step S1's agent timed out after 100 ms; raise agentLimits.timeoutMs or split the step.");
    assert.equal(error.retryable, true);
  });

  it('passes a cancellation to the work and rethrows it as it is', async () => {
    const clock = new ManualClock(0);
    const run = new AbortController();
    const seen: AbortSignal[] = [];
    const outcome = withTimeLimit(clock, run.signal, 100, 'Gate G1', untilAborted(seen)).then(() => undefined, (error: unknown) => error);
    await flushAsync();
    const reason = new Error('cancelled by the user');
    run.abort(reason);
    assert.equal(await outcome, reason);
    assert.equal(seen[0]?.reason, reason);
  });

  it('refuses to start once cancelled, and sets no timer for an unlimited time or after the work ended', async () => {
    const clock = new ManualClock(0);
    const cancelled = new AbortController();
    cancelled.abort(new Error('gone'));
    await assert.rejects(withTimeLimit(clock, cancelled.signal, 100, 'x', async () => 'never'), /gone/);

    const run = new AbortController();
    assert.equal(await withTimeLimit(clock, run.signal, Number.POSITIVE_INFINITY, 'x', async (signal) => (signal === run.signal ? 'same signal' : 'other')), 'same signal');
    assert.equal(clock.pendingCount, 0);

    assert.equal(await withTimeLimit(clock, run.signal, 100, 'x', async () => 'fast'), 'fast');
    await flushAsync();
    assert.equal(clock.pendingCount, 0, 'the timer is cleared when the work ends');
  });

  it('rethrows the work\'s own error when the limit did not stop it', async () => {
    const error = new StepFailure('tool broke', false);
    await assert.rejects(withTimeLimit(new ManualClock(0), new AbortController().signal, 100, 'x', async () => {
      throw error;
    }), (caught: unknown) => caught === error);
  });
});
