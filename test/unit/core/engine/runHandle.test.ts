import assert from 'node:assert/strict';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { RunControl } from '../../../../src/core/engine/runEngine';
import { createRunHandle } from '../../../../src/core/engine/runHandle';
import type { RunResult } from '../../../../src/core/engine/runOptions';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';

const done = { runId: 'r', status: 'completed' } as unknown as RunResult;

/** A handle whose run only captures its control, resolving when `finish` is called. */
function captured(signal?: AbortSignal): { handle: ReturnType<typeof createRunHandle>; control: () => RunControl | undefined } {
  let control: RunControl | undefined;
  const handle = createRunHandle('r', signal, async (given) => {
    control = given;
    return done;
  });
  return { handle, control: () => control };
}

describe('createRunHandle', () => {
  it('starts the run on the next microtask, so a caller can subscribe first', async () => {
    const { handle, control } = captured();
    assert.equal(control(), undefined);
    const seen: RunEvent[] = [];
    handle.events.subscribe((event) => seen.push(event));
    assert.equal(await handle.result, done);
    const event = { type: 'step_ready', runId: 'r', seq: 1, time: 1, stepId: 'a' } as RunEvent;
    for (const listener of control()!.listeners) listener(event);
    assert.deepEqual(seen, [event]);
  });

  it('stops telling a listener once it unsubscribes', async () => {
    const { handle, control } = captured();
    const seen: RunEvent[] = [];
    const unsubscribe = handle.events.subscribe((event) => seen.push(event));
    await handle.result;
    unsubscribe();
    for (const listener of control()!.listeners) listener({ type: 'step_ready', runId: 'r', seq: 1, time: 1, stepId: 'a' });
    assert.deepEqual(seen, []);
    assert.equal(control()!.listeners.size, 0);
  });

  it('cancels with the reason given, or says the run was cancelled, and only once', async () => {
    const { handle, control } = captured();
    await handle.result;
    handle.cancel('The user closed the panel.');
    handle.cancel('Later reason.');
    const signal = control()!.signal;
    assert.equal(signal.aborted, true);
    assert.equal((signal.reason as Error).message, 'The user closed the panel.');
    const plain = captured();
    await plain.handle.result;
    plain.handle.cancel();
    assert.equal((plain.control()!.signal.reason as Error).message, 'The run was cancelled.');
  });

  it("is cancelled by the caller's signal, already aborted or aborted later, with its reason", async () => {
    const early = new AbortController();
    early.abort(new Error('too late'));
    const before = captured(early.signal);
    await before.handle.result;
    assert.equal((before.control()!.signal.reason as Error).message, 'too late');
    const later = new AbortController();
    const after = captured(later.signal);
    await after.handle.result;
    assert.equal(after.control()!.signal.aborted, false);
    later.abort(new Error('stop now'));
    assert.equal((after.control()!.signal.reason as Error).message, 'stop now');
  });

  it('shows the initial state until the run exposes its own, and always a copy', async () => {
    const { handle, control } = captured();
    assert.deepEqual(handle.state(), initialRunState('r'));
    await handle.result;
    const live: RunState = { ...initialRunState('r'), lastSeq: 7, warnings: ['w'] };
    control()!.exposeState(() => live);
    const shown = handle.state();
    assert.equal(shown.lastSeq, 7);
    shown.warnings.push('changed by a viewer');
    assert.deepEqual(live.warnings, ['w']);
    assert.equal(handle.runId, 'r');
  });
});
