import { bindAnswers } from '../core/engine/bindAnswers';
import { replayJournal } from '../core/engine/replayJournal';
import { finalRunStatuses } from '../core/engine/runEvents';
import { repairCutOff } from '../core/engine/awaitsRepair';
import { runStatusLabel } from '../shared/runStatusLabels';
import { resumeWithReplanning } from '../core/replan/executeWithReplanning';
import type { ResumeOptions } from '../core/engine/runOptions';
import { type CliIo, loadLockedRun, UsageError } from './cliIo';
import { checkCommandsConsent } from './checkCommandsConsent';
import { shellWord } from './shellWord';
import { followExecution, reportRunResult, resumeFlags } from './executeCliRun';
import { sendRunTraces } from './traceCommand';
import { type CliRunOptions, engineOptions } from './runCommand';
import { cliCapabilities } from './cliCapabilities';
import { undoneChanges, undoneSteps } from '../core/tools/undoneChanges';
import { requireTickApprovals, withTickConsent } from './taskFileCommands';

/** Answers given on the command line, by request id or step id. */
export type CliAnswers = Pick<ResumeOptions, 'approvals' | 'answers' | 'reviews' | 'manual'>;

/**
 * `resume <runId>`: continues a journaled run with the given answers, repairing failed
 * steps with the model like `run` (`resumeWithReplanning`). An unknown run, or an
 * answer that matches none of the run's pending requests (a mistyped id, a request that is
 * no longer the one waiting), is bad input: nothing is resumed.
 */
export async function resumeCommand(runId: string, answers: CliAnswers, options: CliRunOptions, io: CliIo): Promise<number> {
  const engine = engineOptions(options, io, await cliCapabilities(options, io));
  const journal = await loadLockedRun(engine.store, runId, options.workspace);
  const state = replayJournal(runId, journal);
  // Ended for good; not one whose repair a stop cut off (resuming it asks for the repair).
  const ended = finalRunStatuses.has(state.status) && !(await repairCutOff(state, (id) => engine.store.load(id)));
  const unused = bindAnswers(state, answers).warnings;
  if (unused.length > 0) {
    // A newcomer's --approve STEP for a run stopped at its question (Ctrl+C) read "pending: none", and nothing said what to do.
    const nothingWaits = Object.values(state.steps).every((step) => step.pending === undefined) && !ended;
    const next = nothingWaits
      ? `\nRun ${runId} stopped with no request left waiting (a question asked on the terminal ends with the run), so there is ` +
        `nothing to answer yet. Resume it without answers: the step asks again (without a terminal the run stops waiting and prints ` +
        `the command that answers it):\n` +
        `  task-planner resume ${shellWord(runId)}${resumeFlags(options)}`
      : '';
    throw new UsageError(`Nothing was resumed:\n${unused.map((warning) => `  - ${warning}`).join('\n')}${next}`);
  }
  if (!state.plan) throw new UsageError(`The journal of run "${runId}" has no plan; it cannot be resumed.`);
  const carried = withTickConsent(options, state.plan);
  // Undo took back what steps of it did: its next steps would start from files that are no longer there.
  const changes = undoneChanges((await engine.checkpoints?.list(runId)) ?? []);
  const undone = ended ? [] : undoneSteps(state.plan, changes);
  if (undone[0] !== undefined) {
    // Said as it stands: "take back the rest" only while Undo has something left (else undo said "Nothing to undo").
    const instead = changes.anyLeft ? `Take back the rest of it (task-planner undo ${runId}) and start` : 'Start';
    throw new UsageError(
      `Run ${runId} cannot go on: Undo took back the changes of step${undone.length === 1 ? '' : 's'} ${undone.join(', ')}, and its next steps would start ` +
        `from files that are no longer there. Nothing was resumed. ${instead} its plan again with task-planner run.`,
    );
  }
  if (ended) {
    // Its summary follows, as it ended; a newcomer read the summary alone as the run done again.
    io.err(
      `Run ${runId} has ended (${runStatusLabel(state.status, Object.values(state.steps))}): there is nothing to resume. To run steps of it again: task-planner rerun ${runId} --from STEP; ` +
        `to take back its file changes: task-planner undo ${runId}.`,
    );
  }
  if (!ended) requireTickApprovals(state.plan, io, options);
  const hasAllowRules = engine.allowedCommands.rules().length > 0;
  const checkCommands = await checkCommandsConsent(
    state.plan,
    io,
    options.yes,
    new AbortController().signal,
    state.results,
    engine.commandRunner,
    hasAllowRules,
  );
  const followed = await followExecution(
    (hooks) => resumeWithReplanning(runId, { ...engine, ...answers, ...hooks, ...(checkCommands ? { checkCommands } : {}) }),
    state.plan,
    io,
    { json: options.json, stored: state, resumeFlags: resumeFlags(carried) },
  );
  await sendRunTraces(engine.store, followed.runIds, options, io);
  return reportRunResult(followed.result, followed.state, carried, io);
}
