import { replayJournal } from '../core/engine/replayJournal';
import { keptChangesOf } from '../core/engine/keptChanges';
import { finalRunStatuses } from '../core/engine/runEvents';
import { downstreamSteps, resultsKeptFrom } from '../core/plan/downstreamSteps';
import { validatePlan } from '../core/plan/validatePlan';
import { executeWithReplanning } from '../core/replan/executeWithReplanning';
import { checkCommandsConsent } from './checkCommandsConsent';
import { requireTickApprovals, withTickConsent } from './taskFileCommands';
import { cliCapabilities } from './cliCapabilities';
import { type CliIo, loadLockedRun, runsDirectory, UsageError } from './cliIo';
import { followExecution, reportRunResult, resumeFlags } from './executeCliRun';
import { sendRunTraces } from './traceCommand';
import { type CliRunOptions, engineOptions, newCliRunId, requireAttachments } from './runCommand';
import { terminalSafe } from './terminalSafe';
import { createCheckpointFolder } from '../node/checkpointFolder';
import { undoneChanges } from '../core/tools/undoneChanges';

/**
 * `rerun <runId> --from STEP`: Run from here for a journaled run. Starts a new run (its own
 * id and journal) of that run's plan, keeping the results of the steps that do not depend
 * on STEP (`resultsKeptFrom`, as the editor's Run from here), so STEP and every step
 * downstream of it run again, with the options of `run`. An unknown run or step, or a run
 * that has not ended (waiting, interrupted, cancelled, running), is bad input: nothing starts. The run is read under
 * its lock (`loadLockedRun`), held until this process ends: one another process holds is refused.
 */
export async function rerunCommand(runId: string, from: string | undefined, options: CliRunOptions, io: CliIo): Promise<number> {
  if (from === undefined || from === '') {
    throw new UsageError(`rerun needs the step to run again from: task-planner rerun ${runId} --from STEP`);
  }
  const capabilities = await cliCapabilities(options, io);
  const engine = engineOptions(options, io, capabilities);
  // Read under the run's lock, held to the end: an undo of it in another process meanwhile took back changes of steps
  // whose results this run kept, and it went on from files that were no longer there.
  const journal = await loadLockedRun(engine.store, runId, options.workspace);
  const state = replayJournal(runId, journal);
  const plan = state.plan;
  if (!plan) throw new UsageError(`The journal of run "${runId}" has no plan; it cannot be run again.`);
  const ids = plan.steps.map((step) => step.id);
  if (!ids.includes(from)) throw new UsageError(`Run ${runId} has no step "${from}". Its steps: ${ids.join(', ') || 'none'}.`);
  if (!finalRunStatuses.has(state.status)) {
    throw new UsageError(
      `Run ${runId} is ${state.status}, not ended; nothing was started. Resume it first (task-planner resume ${runId}), ` +
        `or undo it (task-planner undo ${runId} [--from ${from}]) and start its plan again with task-planner run.`,
    );
  }
  const errors = validatePlan(plan, { tools: engine.tools, skills: capabilities.skills.map((skill) => skill.name) }).filter(
    (diagnostic) => diagnostic.severity === 'error',
  );
  if (errors.length > 0) {
    const problems = errors.map((error) => `  - ${error.stepId && !error.message.includes(error.stepId) ? `${error.stepId}: ` : ''}${error.message}`);
    throw new UsageError(`The plan of run ${runId} is invalid here (a tool or skill it uses is missing?); nothing was started:\n${problems.join('\n')}`);
  }
  await requireAttachments(plan, engine.workspace, `run a corrected plan file with task-planner run`);
  // As run and resume: a rerun of a --tick run without a terminal dropped every tick and said "completed" (attack).
  requireTickApprovals(plan, io, options);
  const carried = withTickConsent(options, plan);
  const undone = undoneChanges(await createCheckpointFolder(runsDirectory(options.workspace)).list(runId)).steps;
  const initialResults = resultsKeptFrom(plan, from, state.results, undone);
  const downstream = downstreamSteps(plan, from);
  const again = ids.filter((id) => downstream.has(id) || (state.results[id] !== undefined && !(id in initialResults)));
  // Steps before STEP run again too when Undo took back their changes: said why (a newcomer read "no completed step kept" as a bug).
  const byUndo = again.filter((id) => !downstream.has(id));
  const why = byUndo.length === 0 ? '' : ` (${byUndo.join(', ')} because Undo took back what ${ids.filter((id) => undone.has(id)).join(', ')} changed)`;
  io.err(
    terminalSafe(
      `Running run ${runId}'s plan again from step ${from} as a new run: ${again.join(', ')} run again${why}; ` +
        `${keptText(Object.keys(initialResults))}.`,
    ),
  );
  const hasAllowRules = engine.allowedCommands.rules().length > 0;
  const checkCommands = await checkCommandsConsent(plan, io, options.yes, new AbortController().signal, initialResults, engine.commandRunner, hasAllowRules);
  const { result, state: ended, runIds } = await followExecution(
    (hooks) =>
      executeWithReplanning(plan, plan.objective, {
        ...engine,
        ...hooks,
        idSource: newCliRunId,
        initialResults,
        keptChanges: keptChangesOf(state.steps, Object.keys(initialResults)),
        ...(checkCommands ? { checkCommands } : {}),
      }),
    plan,
    io,
    { json: options.json, resumeFlags: resumeFlags(carried) },
  );
  await sendRunTraces(engine.store, runIds, options, io);
  return reportRunResult(result, ended, carried, io);
}

/** "no completed step kept", "1 completed step kept (read)", "2 completed steps kept (read, api)". */
function keptText(kept: readonly string[]): string {
  if (kept.length === 0) return 'no completed step kept';
  return `${kept.length} completed step${kept.length === 1 ? '' : 's'} kept (${kept.join(', ')})`;
}
