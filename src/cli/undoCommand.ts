import { resolve } from 'node:path';
import { replayJournal } from '../core/engine/replayJournal';
import { commandsNotUndone, journaledChanges } from '../core/engine/commandsNotUndone';
import { describeUndo, foundNothing, undoLines } from '../core/tools/describeUndo';
import { undoRunChain } from '../core/tools/undoRun';
import { runChain } from '../core/engine/replanRecord';
import { undoScope } from '../core/plan/undoScope';
import { createCheckpointFolder } from '../node/checkpointFolder';
import { createFileRunStore } from '../node/fileRunStore';
import { createNodeWorkspace } from '../node/nodeWorkspace';
import { type CliIo, loadListedJournal, lockListedRun, runsDirectory, UsageError } from './cliIo';
import { terminalSafe } from './terminalSafe';
import { errorMessage } from '../shared/errorMessage';
import type { RunState } from '../core/engine/runEvents';

/** Options of `undo`. */
export interface UndoOptions {
  workspace: string;
  /** `--from STEP`: undo that step and what came after it on the same files or depends on it, not the whole run. */
  from: string | undefined;
  json: boolean;
  allowHardLinks: boolean;
}

/**
 * `undo <runId> [--from STEP]`: puts back the files the run changed, newest change first,
 * from the checkpoints kept beside its journal, leaving alone (and naming) every file
 * changed since; a second undo does nothing. A journal that cannot be read (damaged) does not stop a whole-run undo,
 * which needs only the checkpoints: it is said, and the undo goes on. Exit code 1 when a file was left alone.
 */
export async function undoCommand(runId: string, options: UndoOptions, io: CliIo): Promise<number> {
  const root = resolve(options.workspace);
  let state: RunState | undefined;
  const store = createFileRunStore(runsDirectory(root));
  // Never without the lock: whatever keeps it from being taken stops the undo (another process may resume the run).
  await lockListedRun(store, runId, options.workspace);
  try {
    state = replayJournal(runId, await loadListedJournal(store, runId));
  } catch (error) {
    // The checkpoints hold all a whole-run undo needs: a damaged journal (two writers, an edit by hand) does not stop it.
    if (error instanceof UsageError || options.from !== undefined) throw error;
    io.err(terminalSafe(`The journal of run ${runId} cannot be read (${errorMessage(error)}). Undoing from its checkpoints alone.`));
  }
  if (state?.status === 'running') {
    io.err(`Run ${runId} has no recorded end: if it is still running elsewhere, stop it first. Undoing what its journal and checkpoints hold.`);
  }
  const checkpoints = createCheckpointFolder(runsDirectory(root));
  // A run after repairs is all its runs, newest first (each repair is a run of its own): the one the end of the run names
  // holds only the last repair's changes, and a step a repair kept made its changes in an earlier run.
  const chain = state === undefined ? [runId] : runChain(state);
  let steps: Set<string> | undefined;
  if (options.from !== undefined) {
    const ids = state?.plan?.steps.map((step) => step.id) ?? [];
    if (!ids.includes(options.from)) throw new UsageError(`Run ${runId} has no step "${options.from}". Its steps: ${ids.join(', ') || 'none'}.`);
    const all = (await Promise.all(chain.map((id) => checkpoints.list(id)))).flat();
    steps = undoScope(state?.plan ?? { steps: [] }, all, options.from);
  }
  const workspace = createNodeWorkspace(root, { allowHardLinks: options.allowHardLinks });
  const journaled = state === undefined ? undefined : journaledChanges(state, steps);
  const report = await undoRunChain(chain, { workspace, checkpoints, ...(steps ? { steps } : {}), ...(journaled ? { journaled } : {}) });
  const commands = state === undefined ? undefined : commandsNotUndone(state, steps);
  const nothingLeft = foundNothing(report);
  if (options.json) {
    io.out(JSON.stringify({ ...report, ...(steps ? { steps: [...steps] } : {}), ...(commands === undefined ? {} : { commandsNotUndone: commands }) }, null, 2));
  } else {
    if (nothingLeft) {
      // Which it is: undone by an earlier Undo, or no file changed.
      io.out(terminalSafe(`Run ${runId}${steps ? ` from step ${options.from ?? ''}` : ''}: ${describeUndo(report)}`));
    } else {
      if (steps) io.out(terminalSafe(`Undoing step${steps.size === 1 ? '' : 's'} ${[...steps].join(', ')} of run ${runId}.`));
      for (const line of undoLines(report, commands)) io.out(terminalSafe(line));
    }
  }
  return report.refused.length > 0 ? 1 : 0;
}
