import assert from 'node:assert/strict';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { RunState, StepState } from '../../../../src/core/engine/runEvents';
import { runInterruption } from '../../../../src/core/engine/runInterruption';
import { runOutcome, toResult } from '../../../../src/core/engine/runOutcome';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** A running run of steps a, b, c in the given states (absent: never started). */
function running(steps: Record<string, Partial<StepState>>): RunState {
  const state = initialRunState('run-1');
  state.status = 'running';
  state.plan = makePlan(['a', 'b', 'c'].map((id) => makeStep(id)));
  for (const [id, patch] of Object.entries(steps)) state.steps[id] = { id, status: 'completed', attempts: 1, ...patch };
  return state;
}

const approval = { id: 'b@1', fingerprint: 'f', stepId: 'b', kind: 'approval' as const, prompt: 'May I?' };

describe('runOutcome', () => {
  it('completes a run whose steps all completed or were skipped', () => {
    assert.deepEqual(runOutcome(running({ a: {}, b: { status: 'skipped' }, c: {} }), {}), { type: 'run_completed' });
  });

  it('says nothing for a run that has ended already', () => {
    const ended = running({});
    ended.status = 'failed';
    assert.equal(runOutcome(ended, { halted: 'Critical step a failed' }), undefined);
  });

  it('fails a halted run with the halt, before anything else', () => {
    const state = running({ a: { status: 'failed' }, b: { status: 'awaiting_approval', deferred: true, pending: approval } });
    assert.deepEqual(runOutcome(state, { halted: 'Critical step a failed: boom', cancelled: { reason: new Error('Stop.') } }), { type: 'run_failed', reason: 'Critical step a failed: boom' });
  });

  it('cancels a run with unfinished steps, marking an interruption, but completes one that had nothing left', () => {
    const state = running({ a: {}, b: { status: 'running' } });
    assert.deepEqual(runOutcome(state, { cancelled: { reason: new Error('Stop.') } }), { type: 'run_cancelled', reason: 'Stop.' });
    assert.deepEqual(runOutcome(state, { cancelled: { reason: runInterruption('The window reloaded.') } }), { type: 'run_cancelled', reason: 'The window reloaded.', interrupted: true });
    assert.deepEqual(runOutcome(state, { cancelled: { reason: 'plain text' } }), { type: 'run_cancelled', reason: 'plain text' });
    assert.deepEqual(runOutcome(running({ a: {}, b: {}, c: {} }), { cancelled: { reason: new Error('Stop.') } }), { type: 'run_completed' });
  });

  it('leaves a run waiting on the requests of deferred steps, even when others failed', () => {
    const state = running({ a: { status: 'failed' }, b: { status: 'awaiting_approval', deferred: true, pending: approval }, c: { status: 'awaiting_approval', pending: { ...approval, stepId: 'c' } } });
    assert.deepEqual(runOutcome(state, {}), { type: 'run_waiting', pending: [approval] });
  });

  it('fails a run naming its failed steps and those that asked for a repair plan', () => {
    assert.deepEqual(runOutcome(running({ a: { status: 'failed' }, b: {}, c: {} }), {}), { type: 'run_failed', reason: 'Step a failed.' });
    assert.deepEqual(runOutcome(running({ a: { status: 'failed', replanRequested: true }, b: { status: 'failed' }, c: {} }), {}), {
      type: 'run_failed',
      reason: 'Steps a, b failed; a asked for a repair plan.',
    });
    assert.deepEqual(runOutcome(running({ a: { status: 'failed', replanRequested: true }, b: { status: 'failed', replanRequested: true }, c: {} }), {}), {
      type: 'run_failed',
      reason: 'Steps a, b failed and asked for a repair plan.',
    });
  });

  it('completes a run without a plan, which has nothing to run', () => {
    const state = initialRunState('run-1');
    state.status = 'running';
    assert.deepEqual(runOutcome(state, { cancelled: { reason: new Error('Stop.') } }), { type: 'run_completed' });
  });

  it('fails a run whose steps could not start', () => {
    assert.deepEqual(runOutcome(running({ a: {}, b: { status: 'blocked' } }), {}), { type: 'run_failed', reason: 'Steps b, c could not start.' });
  });
});

describe('toResult', () => {
  it('reports a run still marked running as failed, with its pending requests only when waiting, and a journal failure as a warning', () => {
    const state = running({ a: { attempts: 2 }, b: { status: 'awaiting_approval', deferred: true, pending: approval } });
    state.startedAt = 100;
    state.endedAt = 350;
    state.warnings.push('a: a placeholder stayed verbatim');
    const result = toResult(state, 'The journal could not be written.');
    assert.equal(result.status, 'failed');
    assert.equal(result.pending, undefined);
    assert.equal(result.metadata.totalDurationMs, 250);
    assert.equal(result.metadata.executionAttempts, 3);
    assert.deepEqual(result.metadata.warnings, ['a: a placeholder stayed verbatim', 'The journal could not be written.']);
    assert.deepEqual(result.metadata.replanHistory, []);
    assert.equal('reason' in result.metadata, false, 'no reason when the run has none');
    state.status = 'waiting';
    state.reason = 'Waiting on you.';
    state.steps.c = { id: 'c', status: 'awaiting_approval', attempts: 1, pending: { ...approval, stepId: 'c' } };
    assert.deepEqual(toResult(state).pending, [approval], 'only requests the step deferred, not one it is still asking');
    assert.deepEqual(toResult(state).metadata.warnings, ['a: a placeholder stayed verbatim']);
    assert.equal(toResult(state).metadata.reason, 'Waiting on you.');
  });

  it('counts no duration for a run that has not both started and ended', () => {
    const state = running({});
    state.startedAt = 100;
    assert.equal(toResult(state).metadata.totalDurationMs, 0);
    state.startedAt = undefined;
    state.endedAt = 350;
    assert.equal(toResult(state).metadata.totalDurationMs, 0);
  });
});
