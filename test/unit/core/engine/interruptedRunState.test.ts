import assert from 'node:assert/strict';
import { interruptedRunState } from '../../../../src/core/engine/interruptedRunState';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('interruptedRunState', () => {
  const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'] })]);
  const base = { runId: 'r' };
  const approval = { id: 'b@1', fingerprint: 'f1', stepId: 'b', kind: 'approval' as const, prompt: 'Write x?' };
  const cutOff: RunEvent[] = [
    { ...base, seq: 1, time: 10, type: 'run_started', plan },
    { ...base, seq: 2, time: 11, type: 'step_started', stepId: 'a', attempt: 1 },
    { ...base, seq: 3, time: 12, type: 'step_completed', stepId: 'a', result: 'A' },
    { ...base, seq: 4, time: 13, type: 'step_started', stepId: 'b', attempt: 1 },
    { ...base, seq: 5, time: 14, type: 'approval_requested', stepId: 'b', request: approval },
  ];

  it('reads a run the host left running as interrupted: nothing waits for an answer, finished steps kept', () => {
    const running = foldRunEvents(cutOff);
    assert.equal(running.steps['b']?.status, 'awaiting_approval', 'the journal does not leave the step waiting: the test proves nothing');
    const shown = interruptedRunState(running, 'The window was reloaded.', 99);
    assert.equal(shown.status, 'interrupted');
    assert.equal(shown.reason, 'The window was reloaded.');
    assert.equal(shown.endedAt, 14, 'it ended at its last journaled event');
    assert.equal(shown.steps['a']?.status, 'completed');
    assert.deepEqual(shown.results, { a: 'A' });
    assert.equal(shown.steps['b']?.status, 'pending');
    assert.equal(shown.steps['b']?.pending, undefined);
    assert.equal(shown.steps['c']?.status, 'blocked');
    assert.equal(shown.lastSeq, running.lastSeq + 1);
    assert.equal(running.status, 'running', 'the stored snapshot was changed');
  });

  it('reads a run the reload cut off as ending at its last journaled event, not when the notice is built ("interrupted in 47.5 s": a trial)', () => {
    const started = foldRunEvents([
      { ...base, seq: 1, time: 10_000, type: 'run_started', plan },
      { ...base, seq: 2, time: 12_500, type: 'step_started', stepId: 'a', attempt: 1 },
    ]);
    const shown = interruptedRunState(started, 'The window was reloaded.', 57_500);
    assert.equal(shown.endedAt, 12_500);
    assert.equal((shown.endedAt ?? 0) - (shown.startedAt ?? 0), 2_500, 'its time is the time it ran');
    // Resumed later, the stop is counted from that event too: the two agree.
    const resumed = foldRunEvents([{ ...base, seq: 3, time: 60_000, type: 'run_resumed', supplied: {} }], started);
    assert.deepEqual(resumed.pauses, [{ from: 12_500, to: 60_000 }]);
  });

  it('leaves a run that ended (or waits, or was interrupted and journaled so) as it is', () => {
    for (const end of [
      { type: 'run_waiting', pending: [approval] },
      { type: 'run_completed' },
      { type: 'run_cancelled', reason: 'Cancelled by the user.' },
      { type: 'run_cancelled', reason: 'reloaded', interrupted: true },
    ] as const) {
      const state = foldRunEvents([...cutOff, { ...base, seq: 6, time: 20, ...end } as RunEvent]);
      assert.equal(interruptedRunState(state, 'x', 99), state, end.type);
    }
  });

  it('reads a run that failed asking for a repair plan, before the repair began, as interrupted, its steps as they ended', () => {
    const replanning = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'], onFailure: 'replan' })]);
    const failed = foldRunEvents([
      { ...base, seq: 1, time: 10, type: 'run_started', plan: replanning },
      { ...base, seq: 2, time: 11, type: 'step_started', stepId: 'a', attempt: 1 },
      { ...base, seq: 3, time: 12, type: 'step_completed', stepId: 'a', result: 'A' },
      { ...base, seq: 4, time: 13, type: 'step_started', stepId: 'b', attempt: 1 },
      { ...base, seq: 5, time: 14, type: 'step_failed', stepId: 'b', attempt: 1, error: 'broke', disposition: 'fail', replan: true },
      { ...base, seq: 6, time: 15, type: 'run_failed', reason: 'Step b failed and asked for a repair plan.' },
    ]);
    const shown = interruptedRunState(failed, 'Stopped before the repair.', 99);
    assert.equal(shown.status, 'interrupted');
    assert.equal(shown.endedAt, 15, 'it ended when it failed, not when it was read again');
    assert.equal(shown.reason, 'Stopped before the repair.');
    assert.equal(shown.steps['a']?.status, 'completed');
    assert.equal(shown.steps['b']?.status, 'failed');
    const givenUp = foldRunEvents([{ ...base, seq: 7, time: 16, type: 'replan_failed', stepId: 'b', reason: 'No model.' }], failed);
    assert.equal(interruptedRunState(givenUp, 'x', 99), givenUp);
  });
});
