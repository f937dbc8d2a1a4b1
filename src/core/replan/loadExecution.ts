import { JournalError, replayJournal } from '../engine/replayJournal';
import { runChain } from '../engine/replanRecord';
import type { RunEvent, RunState } from '../engine/runEvents';
import type { LoadedJournal } from '../runStorePorts';
import { ExecutionFold } from './executionFold';

/**
 * The state of the execution `runId` ends, read from the journals `load` gives, as the views showed it live: a run
 * alone as `replayJournal` folds it; a repair run (its `replanHistory` names the runs that failed before it) folded
 * after those runs' journals, in the order they ran, as `reduceExecutionEvent` folds them live. So a repair run read
 * again (after a reload) keeps the steps it only restored as they completed there (their times, attempts and checks),
 * starts when the execution started, and counts every run's model use and changed files. Read alone, its steps had
 * no time and 0 attempts and its tokens were the repair's only (a trial).
 * An earlier journal that is gone or cannot be trusted leaves the repair run read alone; one of `runId` that cannot
 * throws as `replayJournal` does, and so does one that restores a result no run before it completed
 * (`JournalError`). `undefined` when there is no journal of `runId`.
 */
export async function loadExecution(runId: string, load: (runId: string) => Promise<LoadedJournal | undefined>): Promise<RunState | undefined> {
  const journal = await load(runId);
  if (journal === undefined) return undefined;
  const alone = replayJournal(runId, journal);
  // Its own chain only, in the order it ran (`runChain`): a journal naming another of the user's runs lends it nothing.
  const earlierIds = runChain(alone).slice(0, -1);
  if (earlierIds.length === 0) return alone;
  const earlier: { runId: string; journal: LoadedJournal }[] = [];
  for (const id of earlierIds) {
    const found = await load(id).catch(() => undefined);
    if (found === undefined) return alone;
    try {
      // A run of another plan stored under the chain's id is not one this repair run repaired.
      if (replayJournal(id, found).plan?.id !== alone.plan?.id) return alone;
    } catch {
      // Only the views lose the earlier runs' detail; the repair run's own journal is whole.
      return alone;
    }
    earlier.push({ runId: id, journal: found });
  }
  const fold = new ExecutionFold();
  let state: RunState | undefined;
  for (const run of [...earlier, { runId, journal }]) {
    // Checked by `replayJournal` above: entries of run events, numbered from 1, starting with run_started.
    const events = run.journal.entries as unknown as RunEvent[];
    const start = events[0];
    // The repair plan replaced the plan of the run before (`replan_completed`, which the views had live and no journal
    // keeps): the steps it did not keep as they ended stay shown as replaced.
    if (state !== undefined && start?.type === 'run_started') {
      const before = state;
      // A result a repair restores is one a run before it completed: a journal saying otherwise was not written by the engine.
      const made = events.find((event) => event.type === 'step_completed' && event.restored === true && before.steps[event.stepId]?.status !== 'completed');
      if (made !== undefined && 'stepId' in made) {
        throw new JournalError(
          `The journal of run "${run.runId}" cannot be trusted: it restores a result of step "${made.stepId}", which no run before it completed. ` +
            'Delete the run to discard it.',
        );
      }
      // Resumed after a stop cut its repair off (`ReplanRecord.resumedAt`): the stop is a pause, as the views had it live.
      const resumedAt = start.replanHistory?.at(-1)?.resumedAt;
      if (typeof resumedAt === 'number') {
        state = fold.after(state, { type: 'run_resumed', supplied: {}, runId: state.runId, seq: state.lastSeq + 1, time: resumedAt });
      }
      state = fold.after(state, { type: 'replan_completed', plan: start.plan, runId: state.runId, seq: state.lastSeq + 1, time: start.time });
    }
    for (const event of events) state = fold.after(state, event);
  }
  return state ?? alone;
}
