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
});
