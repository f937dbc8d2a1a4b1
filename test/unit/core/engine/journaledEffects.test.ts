import assert from 'node:assert/strict';
import { journaledEffects } from '../../../../src/core/engine/journaledEffects';
import { resolveRunOptions } from '../../../../src/core/engine/resolveRunOptions';
import type { RunEventBody } from '../../../../src/core/engine/runEvents';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const change = { runId: 'run-1', stepId: 'S1', path: 'a.txt', operation: 'write' as const, before: { exists: false as const }, afterSha256: 'abc' };
const plan = makePlan([makeStep('S1')]);

describe('journaledEffects', () => {
  it('journals a change as a file change once it landed, never at its intent, and keeps it in the run\'s store', async () => {
    const events: RunEventBody[] = [];
    const store = createMemoryCheckpointStore();
    const options = journaledEffects(resolveRunOptions(plan, { checkpoints: store, clock: new ManualClock() }), 'S1', (body) => events.push(body));
    const stored = await options.checkpoints?.record(change);
    assert.equal(stored?.seq, 1);
    assert.deepEqual(events, [], 'an intent is not a change: a halt or a failure may still stop it');
    if (stored) await options.checkpoints?.settle(stored, 'applied');
    assert.deepEqual(events, [{ type: 'file_changed', stepId: 'S1', path: 'a.txt', operation: 'write' }]);
    const failed = await options.checkpoints?.record({ ...change, path: 'b.txt' });
    if (failed) await options.checkpoints?.settle(failed, 'abandoned');
    assert.equal(events.length, 1, 'a change that never landed is not journaled as one');
    assert.deepEqual((await options.checkpoints?.list('run-1'))?.map((checkpoint) => [checkpoint.path, checkpoint.state]), [['a.txt', 'applied'], ['b.txt', 'abandoned']]);
  });

  it('journals changes without a checkpoint store too, keeping them nowhere else', async () => {
    const events: RunEventBody[] = [];
    const options = journaledEffects(resolveRunOptions(plan, { clock: new ManualClock() }), 'S1', (body) => events.push(body));
    const stored = await options.checkpoints?.record(change);
    assert.deepEqual(stored, { ...change, seq: 0, state: 'intended' });
    if (stored) await options.checkpoints?.settle(stored, 'applied');
    assert.deepEqual(await options.checkpoints?.list('run-1'), []);
    assert.equal(events.length, 1);
  });

  it('journals every model call with its tokens, and its cost only when known', async () => {
    const events: RunEventBody[] = [];
    const priced = journaledEffects(resolveRunOptions(plan, { llm: scriptedLlm(['hi'], { model: 'm-1', tokensPerCall: 7, costPerCall: 0.5 }), clock: new ManualClock() }), 'S1', (body) => events.push(body));
    const unpriced = journaledEffects(resolveRunOptions(plan, { llm: scriptedLlm(['hi'], { model: 'm-2', tokensPerCall: 3 }), clock: new ManualClock() }), 'S1', (body) => events.push(body));
    assert.equal(priced.llm?.model, 'm-1');
    const request = { messages: [{ role: 'user' as const, content: 'hello' }], signal: new AbortController().signal };
    assert.equal((await priced.llm?.chat(request))?.text, 'hi');
    await unpriced.llm?.chat(request);
    // Each attempt is journaled before it is sent; the call's end says what it spent.
    assert.deepEqual(events, [
      { type: 'model_requested', stepId: 'S1' },
      { type: 'model_called', stepId: 'S1', model: 'm-1', promptTokens: 7, completionTokens: 7, costUsd: 0.5, attempts: 1 },
      { type: 'model_requested', stepId: 'S1' },
      { type: 'model_called', stepId: 'S1', model: 'm-2', promptTokens: 3, completionTokens: 3, attempts: 1 },
    ]);
    assert.equal(journaledEffects(resolveRunOptions(plan, { clock: new ManualClock() }), 'S1', () => undefined).llm, undefined);
  });
});
