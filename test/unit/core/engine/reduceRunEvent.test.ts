import assert from 'node:assert/strict';
import { foldRunEvents, initialRunState, reduceRunEvent } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('reduceRunEvent', () => {
  const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] })]);
  const base = { runId: 'r' };
  const events: RunEvent[] = [
    { ...base, seq: 1, time: 10, type: 'run_started', plan },
    { ...base, seq: 2, time: 10, type: 'step_ready', stepId: 'a' },
    { ...base, seq: 3, time: 11, type: 'step_started', stepId: 'a', attempt: 1, input: 'do a' },
    { ...base, seq: 4, time: 15, type: 'step_completed', stepId: 'a', result: 'A' },
    { ...base, seq: 5, time: 15, type: 'step_ready', stepId: 'b' },
    { ...base, seq: 6, time: 16, type: 'step_started', stepId: 'b', attempt: 1 },
    { ...base, seq: 7, time: 17, type: 'clarification_requested', stepId: 'b', request: { id: 'b@1', fingerprint: 'f1', stepId: 'b', kind: 'clarification', prompt: '?' } },
    { ...base, seq: 8, time: 17, type: 'step_deferred', stepId: 'b' },
    { ...base, seq: 9, time: 18, type: 'run_waiting', pending: [{ id: 'b@1', fingerprint: 'f1', stepId: 'b', kind: 'clarification', prompt: '?' }] },
  ];

  it('keeps when a retried step first started; its latest attempt has its own start and duration', () => {
    const retried = foldRunEvents([
      ...events.slice(0, 3),
      { ...base, seq: 4, time: 15, type: 'step_failed', stepId: 'a', attempt: 1, error: 'broke', disposition: 'retry' },
      { ...base, seq: 5, time: 20, type: 'step_started', stepId: 'a', attempt: 2 },
      { ...base, seq: 6, time: 26, type: 'step_completed', stepId: 'a', result: 'A' },
    ]);
    const a = retried.steps['a'];
    assert.deepEqual([a?.firstStartedAt, a?.startedAt, a?.endedAt, a?.durationMs], [11, 20, 26, 6]);
  });

  it('folds a run into statuses, results and durations', () => {
    const state = foldRunEvents(events);
    assert.equal(state.status, 'waiting');
    assert.deepEqual(state.steps['a'], { id: 'a', status: 'completed', attempts: 1, firstStartedAt: 11, startedAt: 11, endedAt: 15, durationMs: 4, result: 'A', deferred: false });
    assert.equal(state.steps['b']?.status, 'awaiting_clarification');
    assert.equal(state.lastSeq, 9);
  });

  it('never mutates its input and equals the fold step by step', () => {
    let state = initialRunState('r');
    for (const event of events) {
      const before = JSON.stringify(state);
      const next = reduceRunEvent(state, event);
      assert.equal(JSON.stringify(state), before);
      state = next;
    }
    assert.deepEqual(state, foldRunEvents(events));
  });

  it('on resume puts unfinished steps back and remembers the bound answers until the step ends', () => {
    const answer = { stepId: 'b', fingerprint: 'f1', kind: 'clarification', answer: 'yes' } as const;
    const resumed = foldRunEvents([...events, { ...base, seq: 10, time: 20, type: 'run_resumed', supplied: { 'b@1': answer } }]);
    assert.equal(resumed.status, 'running');
    assert.equal(resumed.steps['b']?.status, 'pending');
    assert.deepEqual(resumed.supplied, { 'b@1': answer });
    const ended = reduceRunEvent(resumed, { ...base, seq: 11, time: 21, type: 'step_completed', stepId: 'b', result: 'yes' });
    assert.deepEqual(ended.supplied, {});
  });

  it('drops answers by step id from journals written before answers were bound to requests', () => {
    const old = { approvals: { b: true }, answers: { b: 'yes' }, reviews: {} } as unknown as RunState['supplied'];
    const resumed = foldRunEvents([...events, { ...base, seq: 10, time: 20, type: 'run_resumed', supplied: old }]);
    assert.deepEqual(resumed.supplied, {});
  });
});
