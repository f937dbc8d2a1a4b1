import { trustedAnswers, sealAnswers } from './answerSeals';
import { bindAnswers } from './bindAnswers';
import { replayJournal } from './replayJournal';
import { executeRun } from './runEngine';
import { toResult } from './runOutcome';
import { createRunHandle } from './runHandle';
import type { ResumeOptions, RunHandle, RunResult } from './runOptions';
import type { EngineSetup, RunControl } from './runEngine';
import { resolveRunOptions } from './resolveRunOptions';
import { finalRunStatuses, terminalStepStatuses, type RunEvent, type RunState } from './runEvents';
import { interruptedAgents } from './interruptedAgents';
import { keptChangesOf } from './keptChanges';
import { runChain } from './replanRecord';
import { journaledSpending } from './journaledSpending';
import type { Checkpoint, CheckpointStore, RunStore } from '../runStorePorts';
import { recoverInterruptedChanges } from '../tools/recordedChange';

/**
 * Continues a run from its journal in `options.store` (docs/architecture.md §4): completed steps keep
 * their results and are not re-run, steps that were running or waiting start again, and
 * the given approvals, answers, reviews and manual answers (keyed by request id, or by step id for that
 * step's pending request) answer only the exact requests they were given for: a restarted
 * step that asks anything else is asked again (see `bindAnswers`); unused answers are
 * reported in `metadata.warnings`. Changes that were under way when the process died are
 * judged by what is on disk before any step runs (`recoverInterruptedChanges`): one that
 * landed is reported and not made again. An agent step whose attempt was interrupted continues its conversation from
 * the journal (`interruptedAgents`): its journaled tool results are not run again. A torn last journal line is skipped and reported as a
 * warning; any other damage or inconsistency rejects with a `JournalError` naming the
 * line. A run that already ended for good (completed, partial or failed) resolves to its recorded result without
 * running anything.
 */
export function resumeRun(runId: string, options: ResumeOptions): RunHandle {
  const store = options.store;
  if (!store) throw new Error(`resumeRun(${runId}) needs options.store: the store the run was journaled to.`);
  return createRunHandle(runId, options.signal, async (control) => {
    // Two resumes of one run at once in one process (a double click, two tool calls) both ran its unfinished steps and
    // wrote the same seqs into its journal: the run lock (`lockRun`) is per process, so the second is refused here.
    const live = resuming.get(store) ?? new Set<string>();
    resuming.set(store, live);
    if (live.has(runId)) throw new Error(`Run "${runId}" is being resumed already; wait for that resume to end, or cancel it.`);
    live.add(runId);
    try {
      return await resumeFromJournal(runId, options, store, control);
    } finally {
      live.delete(runId);
    }
  });
}

/** The runs of each store being resumed in this process. */
const resuming = new WeakMap<RunStore, Set<string>>();

async function resumeFromJournal(runId: string, options: ResumeOptions, store: RunStore, control: RunControl): Promise<RunResult> {
  const journal = await store.load(runId);
  if (!journal) throw new Error(`No run "${runId}" in the store; list the stored runs to find its id.`);
  const replayed = replayJournal(runId, journal);
  const resolved = replayed.plan ? resolveRunOptions(replayed.plan, options) : undefined;
  // Only answers this user's Task Planner journaled and sealed: a journal another wrote (a repository that committed
  // one) answers nothing.
  const state = resolved ? { ...replayed, supplied: trustedAnswers(runId, replayed.supplied, resolved.answerSeal) } : replayed;
  control.exposeState(() => state);
  if (!state.plan || !resolved) throw new Error(`The journal of run "${runId}" has no run_started event; it cannot be resumed.`);
  if (finalRunStatuses.has(state.status)) return toResult(state);
  // Everything the journal says was spent, cut-off calls included: a crash or a pause never gives the budget back.
  options.budget?.seed(journaledSpending(state));
  const { supplied, warnings } = bindAnswers(state, options);
  const torn = journal.tornLine;
  const checkpoints = options.checkpoints;
  // Before any step runs, so no other change of the same file can hide what landed.
  const unfinished = new Set(
    Object.entries(state.steps)
      .filter(([, step]) => !terminalStepStatuses.has(step.status))
      .map(([id]) => id),
  );
  const recovered = checkpoints && options.workspace ? await recoverInterruptedChanges(runId, options.workspace, checkpoints, unfinished, control.signal) : [];
  // A change that landed whose report the crash cut from the journal is reported now: the summary folds from what happened.
  const unreported = checkpoints
    ? await landedUnreported(runId, checkpoints, [...(state.changedFiles ?? []), ...recovered.map((checkpoint) => checkpoint.path)])
    : [];
  return executeRun(
    {
      runId,
      state,
      options: resolved,
      ...(await keptFromRepairedRun(state, store)),
      interruptedAgents: interruptedAgents(journal.entries as unknown as RunEvent[], unfinished),
      afterOpening: [...recovered, ...unreported].map((checkpoint) => ({
        type: 'file_changed',
        stepId: checkpoint.stepId,
        path: checkpoint.path,
        operation: checkpoint.operation,
      })),
      opening: {
        type: 'run_resumed',
        supplied: sealAnswers(runId, supplied, resolved.answerSeal),
        ...(warnings.length > 0 ? { warnings } : {}),
        ...(torn ? { journalWarning: `The journal's line ${torn.lineNumber} was cut short (a crash while writing) and was ignored.` } : {}),
      },
    },
    control,
  );
}

/**
 * For a repair run whose journal lacks some of the results its repair kept (`ReplanRecord.keptStepIds`): those results and
 * what their steps changed, from the journal of the run it repairs, so the run restores them instead of running the steps
 * again. Its opening is stored before its restored results (`executeRun`): a crash in between left completed steps to run
 * again, their changes made twice (an attack). Nothing when none is missing, or the earlier journal is gone or no longer
 * holds them completed (the steps then run, as the journal alone says).
 */
async function keptFromRepairedRun(state: RunState, store: RunStore): Promise<Pick<EngineSetup, 'initialResults' | 'keptChanges'>> {
  const record = state.replanHistory?.at(-1);
  const missing = (record?.keptStepIds ?? []).filter((id) => state.plan?.steps.some((step) => step.id === id) && state.steps[id]?.status !== 'completed');
  // The run before it in its own chain (`runChain`), of the same plan: a journal naming another run lends nothing.
  const previous = runChain(state).at(-2);
  if (missing.length === 0 || previous === undefined) return {};
  const journal = await store.load(previous).catch(() => undefined);
  let earlier: RunState;
  try {
    if (journal === undefined) return {};
    earlier = replayJournal(previous, journal);
  } catch {
    return {};
  }
  if (earlier.plan?.id !== state.plan?.id) return {};
  const found = missing.filter((id) => earlier.steps[id]?.status === 'completed' && Object.hasOwn(earlier.results, id));
  if (found.length === 0) return {};
  return { initialResults: Object.fromEntries(found.map((id) => [id, earlier.results[id]])), keptChanges: keptChangesOf(earlier.steps, found) };
}

/** The run's changes of files that landed (`applied`, `recovered`) but whose path the journal never reported, one per path. */
async function landedUnreported(runId: string, checkpoints: CheckpointStore, reported: readonly string[]): Promise<Checkpoint[]> {
  const seen = new Set(reported);
  const unreported: Checkpoint[] = [];
  for (const checkpoint of await checkpoints.list(runId)) {
    // An Undo interrupted while putting a change back may have left it in place.
    const landed = checkpoint.state === 'applied' || checkpoint.state === 'recovered' || checkpoint.state === 'undoing';
    if (!landed || checkpoint.operation === 'createDirectory' || seen.has(checkpoint.path)) continue;
    seen.add(checkpoint.path);
    unreported.push(checkpoint);
  }
  return unreported;
}
