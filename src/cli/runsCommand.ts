import { replayJournal } from '../core/engine/replayJournal';
import { createFileRunStore } from '../node/fileRunStore';
import { type CliIo, runsDirectory } from './cliIo';
import { errorMessage } from '../shared/errorMessage';
import { oneLine } from '../core/text/oneLine';
import { runHolder } from '../node/runLock';
import { createCheckpointFolder } from '../node/checkpointFolder';
import { undoneChanges } from '../core/tools/undoneChanges';

/** Longest objective (or reason a journal is unreadable) in a row of the listing, in characters, on one line. */
const maxObjectiveLength = 120;

/**
 * `runs`: the workspace's journaled runs, newest first, with status and progress. A run journaled as running whose
 * lock no living process holds was cut off (killed, or the machine stopped): it is listed as `interrupted`; one whose
 * changes Undo took back says so (`undone`).
 */
export async function runsCommand(workspace: string, json: boolean, io: CliIo): Promise<number> {
  const directory = runsDirectory(workspace);
  const store = createFileRunStore(directory);
  const checkpoints = createCheckpointFolder(directory);
  const rows = [];
  for (const listing of await store.list()) {
    try {
      const journal = await store.load(listing.runId);
      if (!journal) continue;
      const state = replayJournal(listing.runId, journal);
      const steps = Object.values(state.steps);
      // As the editor's Runs view says it: Undo took back its changes (all of a step's, for some step).
      const undone = await checkpoints.list(listing.runId).then((list) => undoneChanges(list).steps.size > 0, () => false);
      rows.push({
        runId: listing.runId,
        status: state.status === 'running' && (await runHolder(directory, listing.runId)) === undefined ? 'interrupted' : state.status,
        objective: state.plan?.objective ?? '',
        completed: steps.filter((step) => step.status === 'completed').length,
        steps: steps.length,
        updatedAt: new Date(listing.updatedAt).toISOString(),
        undone,
      });
    } catch (error) {
      rows.push({
        runId: listing.runId,
        status: 'unreadable',
        objective: errorMessage(error),
        completed: 0,
        steps: 0,
        updatedAt: new Date(listing.updatedAt).toISOString(),
        undone: false,
      });
    }
  }
  if (json) io.out(JSON.stringify(rows, null, 2));
  else if (rows.length === 0) io.out(`No runs in ${directory}.`);
  else {
    for (const row of rows) {
      const status = `${row.status}${row.undone ? ', changes undone' : ''}`;
      io.out(`${row.runId}  ${status.padEnd(11)} ${row.completed}/${row.steps}  ${row.updatedAt}  ${oneLine(row.objective, maxObjectiveLength)}`);
    }
    const cutOff = rows.find((row) => row.status === 'interrupted');
    if (cutOff) io.out(`\nAn interrupted run goes on from where it stopped, finished steps not redone: task-planner resume ${cutOff.runId}`);
  }
  return 0;
}
