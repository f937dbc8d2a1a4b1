import { emptySupplied } from './reduceRunEvent';
import { replayJournal } from './replayJournal';
import { executeRun, toResult } from './runEngine';
import { createRunHandle } from './runHandle';
import type { ResumeOptions, RunHandle } from './runOptions';
import { resolveRunOptions } from './resolveRunOptions';

/**
 * Continues a run from its journal in `options.store` (DESIGN §4): completed steps keep
 * their results and are not re-run, steps that were running or waiting start again, and
 * the given approvals, answers, reviews and manual answers answer the pending requests of
 * their steps.
 * A torn last journal line is skipped and reported as a warning; any other damage or
 * inconsistency rejects with a `JournalError` naming the line. A run that already
 * completed or failed resolves to its recorded result without running anything.
 */
export function resumeRun(runId: string, options: ResumeOptions): RunHandle {
  const store = options.store;
  if (!store) throw new Error(`resumeRun(${runId}) needs options.store: the store the run was journaled to.`);
  return createRunHandle(runId, options.signal, async (control) => {
    const journal = await store.load(runId);
    if (!journal) throw new Error(`No run "${runId}" in the store; list the stored runs to find its id.`);
    const state = replayJournal(runId, journal);
    control.exposeState(() => state);
    if (!state.plan) throw new Error(`The journal of run "${runId}" has no run_started event; it cannot be resumed.`);
    if (state.status === 'completed' || state.status === 'failed') return toResult(state);
    if (state.budgetUsage) options.budget?.seed(state.budgetUsage);
    const supplied = {
      ...emptySupplied(),
      ...(options.approvals ? { approvals: options.approvals } : {}),
      ...(options.answers ? { answers: options.answers } : {}),
      ...(options.reviews ? { reviews: options.reviews } : {}),
      ...(options.manual ? { manual: options.manual } : {}),
    };
    const torn = journal.tornLine;
    return executeRun(
      {
        runId,
        state,
        options: resolveRunOptions(state.plan, options),
        opening: {
          type: 'run_resumed',
          supplied,
          ...(torn ? { journalWarning: `The journal's line ${torn.lineNumber} was cut short (a crash while writing) and was ignored.` } : {}),
        },
      },
      control,
    );
  });
}
