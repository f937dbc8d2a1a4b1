import assert from 'node:assert/strict';
import { initialRunState, reduceRunEvent } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import { reduceExecutionEvent } from '../../../../src/core/replan/reduceExecutionEvent';
import { failedRunEvents } from '../../../support/failedRunEvents';
import { numberedEvents } from '../../../support/numberedEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] })]);

/** Run run-7 where A completed and B failed, asking for a repair plan. */
const failedFirstRun = (): RunState => fold(failedRunEvents(plan))!;

const fold = (events: readonly RunEvent[], from?: RunState): RunState | undefined => events.reduce<RunState | undefined>(reduceExecutionEvent, from);

describe('reduceExecutionEvent (one execution with its repair runs, folded once for every view)', () => {
  it('folds the events of one run as reduceRunEvent does, from a fresh state on the first event', () => {
    const run = numberedEvents('run-1', [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_completed', stepId: 'A', result: 'a' },
    ]);
    assert.deepEqual(fold(run), run.reduce(reduceRunEvent, initialRunState('run-1')));
  });

  it('never mutates the state it is given', () => {
    const before = fold(numberedEvents('run-1', [{ type: 'run_started', plan }]))!;
    const copy = structuredClone(before);
    reduceExecutionEvent(before, numberedEvents('run-1', [{ type: 'step_started', stepId: 'A', attempt: 1 }], 2)[0]!);
    assert.deepEqual(before, copy);
  });

  it('continues into a repair run: its id, the new plan, the steps completed before with their timing, the first start time', () => {
    const first = failedFirstRun();
    const repair = makePlan([makeStep('A'), makeStep('C', { dependsOn: ['A'] })], { id: plan.id, version: 2 });
    const next = reduceExecutionEvent(first, numberedEvents('run-7-replan-1', [{ type: 'run_started', plan: repair }], 1, 5_000)[0]!);
    assert.equal(next.runId, 'run-7-replan-1');
    assert.equal(next.plan, repair);
    assert.equal(next.status, 'running');
    assert.equal(next.startedAt, first.startedAt, 'the execution started with the first run');
    assert.deepEqual(next.steps.A, first.steps.A, 'a step completed before keeps what the views showed of it');
    assert.deepEqual(next.steps.C, { id: 'C', status: 'blocked', attempts: 0 });
    assert.equal(next.steps.B, undefined, 'a step the repair plan dropped is gone');
    const later = reduceExecutionEvent(next, numberedEvents('run-7-replan-1', [{ type: 'step_started', stepId: 'C', attempt: 1 }], 2, 5_001)[0]!);
    assert.equal(later.steps.C?.status, 'running');
    assert.equal(later.runId, 'run-7-replan-1');
  });

  it('starts a step the repair plan tries again afresh: only steps that completed carry over', () => {
    const first = failedFirstRun();
    const retry = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] })], { id: plan.id, version: 2 });
    const next = reduceExecutionEvent(first, numberedEvents('run-7-replan-1', [{ type: 'run_started', plan: retry }], 1, 5_000)[0]!);
    assert.equal(first.steps.B?.status, 'failed');
    assert.deepEqual(next.steps.B, { id: 'B', status: 'blocked', attempts: 0 }, 'the failed attempt of the first run is not shown as the repair run\'s');
    assert.deepEqual(next.steps.A, first.steps.A);
  });

  it('keeps a step completed before as it completed there when the repair run restores its result (it read 1 min 17 s, a trial)', () => {
    const first = failedFirstRun();
    const repair = makePlan([makeStep('A'), makeStep('C', { dependsOn: ['A'] })], { id: plan.id, version: 2 });
    const events = numberedEvents('run-7-replan-1', [
      { type: 'run_started', plan: repair },
      { type: 'step_completed', stepId: 'A', result: 'contents of a', restored: true, keptChanges: ['a.txt'] },
    ], 1, 77_000);
    const next = fold(events, first)!;
    const { keptChanges, ...asBefore } = next.steps.A!;
    assert.deepEqual(asBefore, first.steps.A, 'its start, end, duration and attempts are the first run\'s');
    assert.deepEqual(keptChanges, ['a.txt']);
    // A repair run's journal read alone (after a reload) has no earlier state: the result is restored as before.
    const alone = fold(events)!;
    assert.deepEqual([alone.steps.A?.status, alone.steps.A?.endedAt, alone.steps.A?.durationMs], ['completed', 77_001, undefined]);
  });
});
