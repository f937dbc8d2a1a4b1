import { applyRunEvent } from '../engine/reduceRunEvent';
import type { RunEvent, RunState } from '../engine/runEvents';
import { reduceExecutionEvent } from './reduceExecutionEvent';

/**
 * Folds an execution's events as a view that follows it live needs them: `reduceExecutionEvent`'s
 * state, without a copy of the step map per event, which made following a run quadratic in its
 * steps (a second of a 1,000-step run, half a minute of a 5,000-step one). A state this fold made
 * itself is updated in place by the next event of its run; any other state (one read from a
 * journal, shown before the run, or of another run) is never changed: the first event on it
 * makes a copy, which the fold owns from then on. Step states are replaced, never changed, so
 * caches keyed by them stay right.
 */
export class ExecutionFold {
  private readonly owned = new WeakSet<RunState>();

  /** The state after `event`: `state` itself, updated, when this fold made it and the event is of its run. */
  after(state: RunState | undefined, event: RunEvent): RunState {
    if (state !== undefined && this.owned.has(state) && state.runId === event.runId) {
      applyRunEvent(state, event);
      return state;
    }
    const next = reduceExecutionEvent(state, event);
    this.owned.add(next);
    return next;
  }
}
