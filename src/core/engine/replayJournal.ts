import type { LoadedJournal } from '../runStorePorts';
import { applyRunEvent, cloneRunState, initialRunState } from './reduceRunEvent';
import { runEventProblem } from './runEventSchema';
import { finalRunStatuses, resumableRunStatuses, startedStepStatuses, terminalStepStatuses, type RunEvent, type RunState } from './runEvents';

/** A journal that is not a consistent history of its run; the message names the line and what is wrong. */
export class JournalError extends Error {
  override readonly name = 'JournalError';
}

/**
 * Folds a loaded journal into the run's state (from its snapshot when there is one, then
 * the later entries), after checking that it is a history the engine could have written:
 * every entry has the shape of a run event of this run, `seq` runs 1, 2, 3… without a
 * repeat or a gap, the first event starts the run, the snapshot is not ahead of the
 * entries, and each event after the snapshot fits the state before it (see
 * `inconsistency`). A snapshot whose state is not this run's at its event is ignored
 * (replay starts from the first event); one of the right shape is trusted as the run's state at its event, so the store
 * gives only one it wrote (the file store's seal). Anything else throws a `JournalError` naming the first bad line (or
 * event, for a store without lines). This catches damage and careless edits; it cannot
 * catch a consistent history written by someone else (docs/architecture.md, Safety).
 */
export function replayJournal(runId: string, journal: LoadedJournal): RunState {
  const entries = journal.entries;
  const where = (index: number): string => (journal.lines?.[index] === undefined ? `event ${index + 1}` : `line ${journal.lines[index]}`);
  const fail = (index: number, problem: string): never => {
    throw new JournalError(
      `The journal of run "${runId}" cannot be trusted: ${where(index)}: ${problem}. Resuming from it could skip or repeat work; delete the run to discard it.`,
    );
  };
  entries.forEach((entry, index) => {
    const problem = runEventProblem(entry);
    if (problem !== undefined) fail(index, `not a run event (${problem})`);
    if (entry.runId !== runId) fail(index, `the event belongs to run "${entry.runId}"`);
    const expected = index + 1;
    if (entry.seq < expected) fail(index, `it repeats event ${entry.seq} (a duplicated or reordered line)`);
    if (entry.seq > expected) {
      fail(index, `event ${expected}${entry.seq > expected + 1 ? ` to ${entry.seq - 1}` : ''} ${entry.seq > expected + 1 ? 'are' : 'is'} missing before it`);
    }
    if (index === 0 && entry.type !== 'run_started') fail(index, `the first event must be run_started, not ${entry.type}`);
  });
  const events = entries as unknown as RunEvent[];
  const stored = journal.snapshot;
  if (stored && stored.seq > events.length) {
    throw new JournalError(
      `The journal of run "${runId}" cannot be trusted: it ends at event ${events.length} but its snapshot is at event ${stored.seq}, so lines are missing at its end. Delete the run to discard it.`,
    );
  }
  const snapshot = stored && isStateOf(runId, stored.seq, stored.state) ? stored : undefined;
  const draft = snapshot ? cloneRunState(snapshot.state as RunState) : initialRunState(runId);
  events.forEach((event, index) => {
    if (event.seq <= (snapshot?.seq ?? 0)) return;
    const problem = inconsistency(draft, event, events[index - 1]);
    if (problem !== undefined) fail(index, problem);
    applyRunEvent(draft, event);
  });
  return draft;
}

/**
 * Whether a snapshot's `state` has the shape of this run's state at event `seq`. A snapshot
 * that does not is ignored: the journal has every event, so it only costs replay time.
 */
function isStateOf(runId: string, seq: number, state: unknown): boolean {
  const isRecord = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isRecord(state)) return false;
  const candidate = state as Partial<Record<keyof RunState, unknown>>;
  const sameRun = candidate.runId === runId && candidate.lastSeq === seq;
  return sameRun && isRecord(candidate.steps) && isRecord(candidate.results) && Array.isArray(candidate.warnings);
}

/**
 * Why `event` cannot follow `state` in a run the engine wrote, or `undefined`: nothing but a
 * resume after the run ended, no second start, only steps of the plan, no step finishing
 * twice or completing without having started (a `restored` result only right at the start).
 */
function inconsistency(state: RunState, event: RunEvent, previous: RunEvent | undefined): string | undefined {
  if (event.type === 'run_started') return previous === undefined ? undefined : 'a second run_started';
  // Why no repair plan came for a failed run's step (executeWithReplanning), journaled after the run's end.
  if (event.type === 'replan_failed' && state.status === 'failed' && state.steps[event.stepId]?.replanRequested === true) return undefined;
  const ended = finalRunStatuses.has(state.status) || (resumableRunStatuses.has(state.status) && event.type !== 'run_resumed');
  if (ended) return `${event.type} comes after the run ended (${state.status})`;
  if (!('stepId' in event)) return undefined;
  const step = state.steps[event.stepId];
  if (!step) return `${event.type} names step "${event.stepId}", which is not in the plan`;
  const finishes = event.type === 'step_completed' || event.type === 'step_failed' || event.type === 'step_skipped' || event.type === 'step_started';
  if (finishes && terminalStepStatuses.has(step.status)) return `${event.type} for step "${event.stepId}", which is already ${step.status}`;
  if (event.type !== 'step_completed') return undefined;
  if (event.restored === true) {
    const atStart =
      previous?.type === 'run_started' || previous?.type === 'plan_generated' || (previous?.type === 'step_completed' && previous.restored === true);
    return atStart ? undefined : `step "${event.stepId}" has a result restored after the run had begun`;
  }
  const started = startedStepStatuses.has(step.status);
  return started ? undefined : `step "${event.stepId}" completed but was never started`;
}
