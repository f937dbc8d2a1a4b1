import { usageAtLeast } from '../engine/journaledSpending';
import { applyRunEvent, cloneRunState, initialRunState, reduceRunEvent } from '../engine/reduceRunEvent';
import type { RunEvent, RunState } from '../engine/runEvents';

/**
 * The state of one execution after `event`: a run, or a run and the repair runs
 * `executeWithReplanning` starts after it (docs/architecture.md §2). `state` is the state so
 * far, `undefined` before the execution's first event. An event with another run id than
 * `state`'s belongs to a repair run: the state continues under that id, and a repair run's
 * start keeps the steps completed before (with their timing and results, as every view
 * showed them), the steps repairs replaced (`replacedSteps`), the execution's start time and its model use so far, the
 * repair plan's own calls included (`ReplanRecord.usage`). Neither argument is mutated.
 */
export function reduceExecutionEvent(state: RunState | undefined, event: RunEvent): RunState {
  if (!state) return reduceRunEvent(initialRunState(event.runId), event);
  // Stryker disable next-line ConditionalExpression: for an event of the same run the path below gives the same state (clone and apply); its carry-over runs only on a run_started, which a run emits once (replayJournal refuses a second).
  if (event.runId === state.runId) return reduceRunEvent(state, event);
  const draft = cloneRunState(state);
  draft.runId = event.runId;
  applyRunEvent(draft, event);
  // Stryker disable next-line ConditionalExpression: the first event of a run is always its run_started (replayJournal refuses anything else), so no other event reaches here with a new run id.
  if (event.type !== 'run_started') return draft;
  for (const [id, step] of Object.entries(state.steps)) if (step.status === 'completed' && draft.steps[id]) draft.steps[id] = step;
  if (state.replacedSteps) draft.replacedSteps = state.replacedSteps;
  draft.startedAt = state.startedAt ?? draft.startedAt;
  // The repair plan's model calls are in no run's journal, only in what its record says was spent by then: without them
  // a repair run read again after a reload showed 9,600 tokens and 6 requests where it had shown 11,100 and 7 (a trial).
  const spent = event.replanHistory?.at(-1)?.usage;
  if (spent !== undefined) draft.modelUsage = usageAtLeast(draft.modelUsage, spent);
  return draft;
}
