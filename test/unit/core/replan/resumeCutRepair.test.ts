// A failed run whose repair a stop cut off before it began (executeWithReplanning's run ended `failed` with repair
// requests, and no repair run or `replan_failed` line followed) is repaired when resumed, once, with what it tried.
import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import { executeWithReplanning, resumeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import type { LlmChatRequest } from '../../../../src/core/llm/llmTypes';
import type { JournalEntry, RunStore } from '../../../../src/core/runStorePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';
import { ExecutionFold } from '../../../../src/core/replan/executionFold';
import { loadExecution } from '../../../../src/core/replan/loadExecution';
import { runInterruption } from '../../../../src/core/engine/runInterruption';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';

const plan = makePlan([makeStep('S0'), makeStep('bad1', { dependsOn: ['S0'], onFailure: 'replan' })]);
const repair = JSON.stringify({
  objective: 'test objective',
  steps: [
    { id: 'S0', title: 'Step S0', kind: 'agent' },
    { id: 'fix', title: 'Step fix', kind: 'agent', dependsOn: ['S0'] },
  ],
});

function runner(calls: string[]): StepRunner {
  return async (step, ctx) => {
    calls.push(step.id);
    if (step.id.startsWith('bad')) {
      ctx.output('pytest: 3 failed in test_parse.py');
      throw new Error(`${step.id} broke`);
    }
    return `${step.id} done`;
  };
}

/** The lines of the failed run `X` alone, as a stop while its repair plan was asked leaves them. */
async function failedRunOnly(): Promise<RunStore> {
  const lines: JournalEntry[] = [];
  const store = createMemoryRunStore();
  const recording: RunStore = {
    ...store,
    async append(runId, entries) {
      if (runId === 'X') lines.push(...entries);
    },
  };
  await executeWithReplanning(plan, 'test objective', {
    clock: new ManualClock(0, { autoAdvance: true }),
    store: recording,
    idSource: () => 'X',
    maxConcurrency: 1,
    replanner: scriptedLlm([() => repair]),
    stepRunner: runner([]),
  });
  const cut = createMemoryRunStore();
  await cut.append('X', lines);
  return cut;
}

/** A replanner that must not be asked: its reply fails (and a failed reply would be journaled, which the tests read). */
const unasked = () => scriptedLlm([() => assert.fail('the replanner was asked')]);

describe('resumeWithReplanning: a repair cut off before it began', () => {
  it('asks the replanner once, with the failed attempt\'s output from before the stop, and runs the repair as X-replan-1; S0 is not run again', async () => {
    const store = await failedRunOnly();
    const asked: string[] = [];
    const calls: string[] = [];
    const result = await resumeWithReplanning('X', {
      clock: new ManualClock(1_000, { autoAdvance: true }),
      store,
      maxConcurrency: 1,
      replanner: scriptedLlm([
        (request: LlmChatRequest) => {
          asked.push(request.messages.map((message) => String(message.content)).join('\n'));
          return repair;
        },
      ]),
      stepRunner: runner(calls),
    });
    assert.equal(result.status, 'completed');
    assert.equal(result.runId, 'X-replan-1');
    assert.deepEqual(calls, ['fix']);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /pytest: 3 failed in test_parse\.py/);
    assert.equal(result.metadata.replanCount, 1);
    assert.ok(await store.load('X-replan-1'));
  });

  it('does not make a second repair run when one is stored already (it is resumed by its own id)', async () => {
    const store = await failedRunOnly();
    const options = { clock: new ManualClock(1_000, { autoAdvance: true }), store, maxConcurrency: 1, stepRunner: runner([]) };
    await resumeWithReplanning('X', { ...options, replanner: scriptedLlm([() => repair]) });
    const journal = await store.load('X-replan-1');
    const calls: string[] = [];
    const again = await resumeWithReplanning('X', { ...options, replanner: unasked(), stepRunner: runner(calls) });
    assert.equal(again.runId, 'X');
    assert.equal(again.status, 'failed');
    assert.deepEqual(calls, []);
    assert.deepEqual(await store.load('X-replan-1'), journal);
    assert.equal(await store.load('X-replan-2'), undefined);
  });

  it('journals why no repair came when its limit is used up now, and a later resume asks nothing', async () => {
    const store = await failedRunOnly();
    const options = { clock: new ManualClock(1_000, { autoAdvance: true }), store, maxConcurrency: 1, stepRunner: runner([]), maxTotalReplans: 0 };
    const first = await resumeWithReplanning('X', { ...options, replanner: unasked() });
    assert.equal(first.status, 'failed');
    assert.match(first.metadata.reason ?? '', /limit of 0 repair plans/);
    const journal = await store.load('X');
    assert.equal(journal?.entries.at(-1)?.type, 'replan_failed');
    const again = await resumeWithReplanning('X', { ...options, maxTotalReplans: 3, replanner: unasked() });
    assert.equal(again.status, 'failed');
    assert.equal((await store.load('X'))?.entries.length, journal?.entries.length);
  });

  it('a cancel while the replanner is asked journals nothing more, so the run resumes into its repair', async () => {
    const store = createMemoryRunStore();
    const controller = new AbortController();
    const options = { clock: new ManualClock(0, { autoAdvance: true }), store, idSource: () => 'X', maxConcurrency: 1 };
    const cancelled = await executeWithReplanning(plan, 'test objective', {
      ...options,
      signal: controller.signal,
      replanner: scriptedLlm([
        () => {
          controller.abort(new Error('Cancelled by the user.'));
          throw new Error('This operation was aborted');
        },
      ]),
      stepRunner: runner([]),
    });
    assert.equal(cancelled.status, 'cancelled', 'stopped by the user, it is not failed for good');
    assert.match(cancelled.metadata.reason ?? '', /stopped while its repair plan was being made; resume it/);
    assert.notEqual((await store.load('X'))?.entries.at(-1)?.type, 'replan_failed');
    const calls: string[] = [];
    const resumed = await resumeWithReplanning('X', { ...options, replanner: scriptedLlm([() => repair]), stepRunner: runner(calls) });
    assert.equal(resumed.status, 'completed');
    assert.deepEqual(calls, ['fix']);
  });

  // A trial (2026-12-07): while the model was asked for the repair plan, every view said "failed" and offered Resume.
  it('the views see the run going on while the repair plan is asked for, and failed for good only when none comes', async () => {
    const fold = new ExecutionFold();
    let state: RunState | undefined;
    const seen: string[] = [];
    await executeWithReplanning(plan, 'test objective', {
      clock: new ManualClock(0, { autoAdvance: true }),
      idSource: () => 'X',
      maxConcurrency: 1,
      replanner: scriptedLlm([
        () => {
          seen.push(`asked while ${state?.status}`);
          throw new Error('the model is down');
        },
      ]),
      stepRunner: runner([]),
      onEvent: (event: RunEvent) => {
        state = fold.after(state, event);
        if (event.type.startsWith('r')) seen.push(`${event.type}: ${state.status}`);
      },
    });
    assert.deepEqual(seen, ['run_started: running', 'run_failed: failed', 'replan_started: running', 'asked while running', 'replan_failed: failed']);
    assert.equal(state?.endedAt !== undefined, true);
  });

  it('stopped while the replanner is asked: the views see the run cancelled, or interrupted when the window went away', async () => {
    for (const [reason, status] of [[new Error('Cancelled by the user.'), 'cancelled'], [runInterruption('The window was reloaded.'), 'interrupted']] as const) {
      const controller = new AbortController();
      const fold = new ExecutionFold();
      let state: RunState | undefined;
      const result = await executeWithReplanning(plan, 'test objective', {
        clock: new ManualClock(0, { autoAdvance: true }),
        store: createMemoryRunStore(),
        idSource: () => 'X',
        maxConcurrency: 1,
        signal: controller.signal,
        replanner: scriptedLlm([
          () => {
            controller.abort(reason);
            throw new Error('This operation was aborted');
          },
        ]),
        stepRunner: runner([]),
        onEvent: (event: RunEvent) => (state = fold.after(state, event)),
      });
      assert.equal(result.status, status);
      assert.equal(state?.status, status);
      assert.equal(state?.steps['S0']?.status, 'completed');
    }
  });

  it('resumed after the stop, the stop is a pause of the run, live and read again from the journals', async () => {
    const store = await failedRunOnly();
    const failedAt = (await store.load('X'))!.entries.at(-1)!.time;
    const fold = new ExecutionFold();
    let live: RunState | undefined = await loadExecution('X', (id) => store.load(id));
    const resumedAt = failedAt + 3_600_000;
    await resumeWithReplanning('X', {
      clock: new ManualClock(resumedAt, { autoAdvance: true }),
      store,
      maxConcurrency: 1,
      replanner: scriptedLlm([() => repair]),
      stepRunner: runner([]),
      onEvent: (event: RunEvent) => (live = fold.after(live, event)),
    });
    assert.equal(live?.status, 'completed');
    assert.deepEqual(live?.pauses, [{ from: failedAt, to: resumedAt }]);
    const read = await loadExecution('X-replan-1', (id) => store.load(id));
    assert.equal(read?.status, 'completed');
    assert.deepEqual(read?.pauses, [{ from: failedAt, to: resumedAt }]);
  });
});
