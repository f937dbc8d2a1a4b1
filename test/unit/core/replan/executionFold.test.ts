import assert from 'node:assert/strict';
import type { RunState } from '../../../../src/core/engine/runEvents';
import { ExecutionFold } from '../../../../src/core/replan/executionFold';
import { reduceExecutionEvent } from '../../../../src/core/replan/reduceExecutionEvent';
import { failedRunEvents } from '../../../support/failedRunEvents';
import { numberedEvents } from '../../../support/numberedEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] })]);
const repair = makePlan([makeStep('A'), makeStep('C', { dependsOn: ['A'] })], { id: plan.id, version: 2 });

/** A run that fails B and asks for a repair, then the repair run that completes C. */
const execution = [
  ...failedRunEvents(plan),
  ...numberedEvents(
    'run-7-replan-1',
    [
      { type: 'run_started', plan: repair },
      { type: 'step_started', stepId: 'C', attempt: 1 },
      { type: 'step_completed', stepId: 'C', result: 'c' },
      { type: 'run_completed' },
    ],
    1,
    5_000,
  ),
];

/** `value` and everything in it frozen: a change to it throws (the tests run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

describe('ExecutionFold: an execution folded for the views without a copy of its steps per event', () => {
  it('gives after every event the state reduceExecutionEvent gives, through a repair run', () => {
    const fold = new ExecutionFold();
    let folded: RunState | undefined;
    let reduced: RunState | undefined;
    for (const event of execution) {
      folded = fold.after(folded, event);
      reduced = reduceExecutionEvent(reduced, event);
      assert.deepEqual(folded, reduced, `after ${event.runId} #${event.seq} ${event.type}`);
    }
  });

  it('updates the state it made in place within a run, and starts a new object for a repair run, leaving the first run as it ended', () => {
    const fold = new ExecutionFold();
    const first = fold.after(undefined, execution[0]!);
    let state = first;
    for (const event of execution.slice(1, 6)) state = fold.after(state, event);
    assert.equal(state, first, 'one object for the run');
    const ended = structuredClone(first);
    const repairing = fold.after(state, execution[6]!);
    assert.notEqual(repairing, first);
    assert.deepEqual(first, ended, 'the first run stays as it ended');
    assert.equal(fold.after(repairing, execution[7]!), repairing);
  });

  it('never changes a state it did not make (read from a journal, or made by another fold): the first event copies it', () => {
    const stored = deepFreeze(execution.slice(0, 3).reduce<RunState | undefined>(reduceExecutionEvent, undefined)!);
    const fold = new ExecutionFold();
    const next = fold.after(stored, execution[3]!);
    assert.notEqual(next, stored);
    assert.equal(next.steps.B?.status, 'running');
    assert.equal(stored.steps.B?.status, 'blocked');
    const other = new ExecutionFold().after(undefined, execution[0]!);
    const copy = structuredClone(other);
    assert.notEqual(fold.after(other, execution[1]!), other);
    assert.deepEqual(other, copy);
  });

  it('replaces a step state an event changes instead of changing it, so what was shown of a step stays as it was', () => {
    const fold = new ExecutionFold();
    let state = fold.after(undefined, execution[0]!);
    state = fold.after(state, execution[1]!);
    const running = deepFreeze(state.steps.A!);
    state = fold.after(state, execution[2]!);
    assert.equal(running.status, 'running');
    assert.equal(state.steps.A?.status, 'completed');
  });
});
