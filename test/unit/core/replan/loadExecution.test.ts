import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import type { ReplanRecord } from '../../../../src/core/engine/replanRecord';
import { loadExecution } from '../../../../src/core/replan/loadExecution';
import { reduceExecutionEvent } from '../../../../src/core/replan/reduceExecutionEvent';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import type { JournalEntry } from '../../../../src/core/runStorePorts';
import { failedRunEvents } from '../../../support/failedRunEvents';
import { numberedEvents } from '../../../support/numberedEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';
import { executeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import { ExecutionFold } from '../../../../src/core/replan/executionFold';
import { runView } from '../../../../src/core/view/runViewModel';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';

const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] })]);
const repair = makePlan([makeStep('A'), makeStep('C', { dependsOn: ['A'] })], { id: plan.id, version: 2 });
const record: ReplanRecord = {
  replan: 1, failedRunId: 'run-7', stepIds: ['B'], reason: 'B failed', startedAt: 2_000, endedAt: 2_500,
  keptStepIds: ['A'], newStepIds: ['C'], repaired: false, planVersion: 2, trials: [],
};
/** The repair run of run-7: A restored, C run; with `model` spending a call of 100 tokens. */
const repairEvents = (model: boolean): RunEvent[] => numberedEvents('run-7-replan-1', [
  { type: 'run_started', plan: repair, replanHistory: [record] },
  { type: 'step_completed', stepId: 'A', result: 'contents of a', restored: true },
  { type: 'step_started', stepId: 'C', attempt: 1 },
  ...(model ? [{ type: 'model_called' as const, stepId: 'C', model: 'm', promptTokens: 60, completionTokens: 40, costUsd: 0.001 }] : []),
  { type: 'file_changed', stepId: 'C', path: 'c.txt', operation: 'write' },
  { type: 'step_completed', stepId: 'C', result: 'c' },
  { type: 'run_completed' },
], 1, 60_000);

async function storeWith(...runs: RunEvent[][]) {
  const store = createMemoryRunStore();
  for (const events of runs) await store.append(events[0]!.runId, events as unknown as JournalEntry[]);
  return store;
}

describe('loadExecution: a run read again from its journals, as the views showed it live', () => {
  it('reads a repair run after the run it repairs: its restored step keeps its time and attempts, the execution its start (a trial after a reload)', async () => {
    const first = failedRunEvents(plan);
    const store = await storeWith(first, repairEvents(false));
    const loaded = (await loadExecution('run-7-replan-1', (id) => store.load(id)))!;
    // Live, the host also had the repair's own events, which no journal keeps (executeWithReplanning's `emit`).
    const replanning = numberedEvents('run-7', [
      { type: 'replan_started', stepId: 'B', reason: 'B failed' },
      { type: 'replan_completed', plan: repair },
    ], first.length + 1, 59_000);
    const live = [...first, ...replanning, ...repairEvents(false)].reduce<RunState | undefined>(reduceExecutionEvent, undefined)!;
    assert.deepEqual(loaded, live, 'read again as it was followed live');
    assert.deepEqual(loaded.replacedSteps?.map((replaced) => [replaced.step.id, replaced.state.status]), [['B', 'failed']], 'the failed step the repair replaced is still shown');
    const alone = replayJournal('run-7-replan-1', (await store.load('run-7-replan-1'))!);
    assert.deepEqual([alone.steps.A?.attempts, alone.steps.A?.startedAt], [0, undefined], 'what the repair journal alone gives');
    assert.deepEqual([loaded.steps.A?.attempts, loaded.steps.A?.startedAt, loaded.steps.A?.durationMs], [1, 1_001, 1]);
    assert.equal(loaded.startedAt, 1_000, 'the execution started with the first run');
    assert.equal(loaded.runId, 'run-7-replan-1');
    assert.equal(loaded.status, 'completed');
  });

  it('counts every run\'s model use and changed files', async () => {
    const first = numberedEvents('run-7', [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'model_called', stepId: 'A', model: 'm', promptTokens: 150, completionTokens: 100, costUsd: 0.005 },
      { type: 'model_called', stepId: 'A', model: 'm', promptTokens: 150, completionTokens: 100, costUsd: 0.005 },
      { type: 'file_changed', stepId: 'A', path: 'a.txt', operation: 'write' },
      { type: 'step_completed', stepId: 'A', result: 'contents of a' },
      { type: 'step_started', stepId: 'B', attempt: 1 },
      { type: 'step_failed', stepId: 'B', attempt: 1, error: 'no', disposition: 'fail', replan: true },
      { type: 'run_failed', reason: 'B failed' },
    ]);
    const store = await storeWith(first, repairEvents(true));
    const loaded = (await loadExecution('run-7-replan-1', (id) => store.load(id)))!;
    assert.deepEqual([loaded.modelUsage?.requests, loaded.modelUsage?.totalTokens], [3, 600]);
    assert.deepEqual(loaded.changedFiles, ['a.txt', 'c.txt']);
  });

  it('reads a repair run alone when the run before it is gone or its journal cannot be trusted, and a run without repairs as replayJournal does', async () => {
    const gone = await storeWith(repairEvents(false));
    const alone = replayJournal('run-7-replan-1', (await gone.load('run-7-replan-1'))!);
    assert.deepEqual(await loadExecution('run-7-replan-1', (id) => gone.load(id)), alone);
    const damaged = await storeWith(failedRunEvents(plan).filter((event) => event.seq !== 3), repairEvents(false));
    assert.deepEqual(await loadExecution('run-7-replan-1', (id) => damaged.load(id)), alone);
    const single = await storeWith(failedRunEvents(plan));
    assert.deepEqual(await loadExecution('run-7', (id) => single.load(id)), replayJournal('run-7', (await single.load('run-7'))!));
    assert.equal(await loadExecution('nothing', (id) => single.load(id)), undefined);
  });

  it('counts the repair plan\'s own model call, as the panel did live (11,100 tokens and 7 requests read 9,600 and 6 after a reload: a trial)', async () => {
    const store = createMemoryRunStore();
    const failing = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'], onFailure: 'replan' })]);
    const repairPlan = JSON.stringify({
      objective: 'x',
      steps: [{ id: 'A', title: 'A', kind: 'agent', dependsOn: [] }, { id: 'C', title: 'C', kind: 'agent', dependsOn: ['A'] }],
    });
    const events: RunEvent[] = [];
    const result = await executeWithReplanning(failing, 'objective', {
      clock: new ManualClock(1_000, { autoAdvance: true }),
      store,
      idSource: () => 'run-9',
      maxConcurrency: 1,
      replanner: scriptedLlm([repairPlan], { tokensPerCall: 750, costPerCall: 0.01 }),
      stepRunner: async (step) => {
        if (step.id === 'B') throw new Error('B broke');
        return `${step.id} done`;
      },
      onEvent: (event) => events.push(event),
    });
    assert.equal(result.status, 'completed', result.metadata.reason);
    const fold = new ExecutionFold();
    const live = events.reduce<RunState | undefined>((state, event) => fold.after(state, event), undefined)!;
    const shownLive = runView({ state: live, now: 90_000, usage: result.metadata.llmUsage!, replans: result.metadata.replanHistory }, live.plan!);
    assert.deepEqual([shownLive.usage?.requests, shownLive.usage?.totalTokens], [1, 1_500], 'live: the replanner\'s call');
    const loaded = (await loadExecution(result.runId, (id) => store.load(id)))!;
    const reopened = runView({ state: loaded, now: 90_000 }, loaded.plan!);
    assert.deepEqual(reopened.usage, shownLive.usage, 'read again, the repair run shows the model use it showed live');
    assert.deepEqual(loaded, live, 'and the same state as the live fold');
  });
});

