import { resolve } from 'node:path';
import { awaitsRepair } from '../core/engine/awaitsRepair';
import { replayJournal } from '../core/engine/replayJournal';
import { createFileRunStore } from '../node/fileRunStore';
import { type CliIo, noRunStart, runsDirectory } from './cliIo';
import { errorMessage } from '../shared/errorMessage';
import { oneLine } from '../core/text/oneLine';
import { runHolder } from '../node/runLock';
import { createCheckpointFolder } from '../node/checkpointFolder';
import { undoneChanges } from '../core/tools/undoneChanges';
import { repairNumber, replacedByRepair } from '../core/engine/replanRecord';
import type { RunState } from '../core/engine/runEvents';
import { shellWord } from './shellWord';
import { undoneLabels } from '../shared/runStatusLabels';
import { planName } from '../core/plan/planName';

/** Longest objective (or reason a journal is unreadable) in a row of the listing, in characters, on one line. */
const maxObjectiveLength = 120;
/** Longest reason an unreadable journal is said in below the listing, in characters, on one line. */
const maxReasonLength = 2000;

/** One listed run; `repair` is the number of the repair it is, when it is one. */
interface RunRow {
  runId: string;
  status: string;
  objective: string;
  completed: number;
  steps: number;
  updatedAt: string;
  undone: boolean;
  /** Undo took back some of its changes and left others (a file changed since, left alone). */
  undoneInPart?: true;
  repair?: number;
}

/**
 * `runs`: the workspace's journaled runs, newest first, with status and progress. A run journaled as running whose
 * lock no living process holds was cut off (killed, or the machine stopped): it is listed as `interrupted`; one whose
 * changes Undo took back says so (`undone`), and a repair and the run it replaced say which repair (`repair`, `replacedBy`).
 * Only the command line's runs: the editor keeps its own (its Runs view), which an empty listing says.
 */
export async function runsCommand(workspace: string, json: boolean, io: CliIo): Promise<number> {
  const directory = runsDirectory(workspace);
  const store = createFileRunStore(directory);
  const checkpoints = createCheckpointFolder(directory);
  const rows: RunRow[] = [];
  const states: RunState[] = [];
  const names = new Map<string, string>();
  for (const listing of await store.list()) {
    try {
      const journal = await store.load(listing.runId);
      if (!journal) continue;
      const state = replayJournal(listing.runId, journal);
      // Nothing to resume or trace: listed as unreadable, not as a run cut off (a garbled file offered "resume").
      if (state.plan === undefined) throw new Error(noRunStart);
      const steps = Object.values(state.steps);
      // As the editor's Runs view says it: Undo took back its changes (all of a step's, for some step).
      const changes = await checkpoints.list(listing.runId).then(undoneChanges, () => undefined);
      const undone = (changes?.steps.size ?? 0) > 0;
      states.push(state);
      // The table names an imported file's run by its title, as the editor does; the JSON keeps the whole objective.
      if (state.plan) names.set(listing.runId, planName(state.plan));
      const repair = repairNumber(state);
      rows.push({
        ...(repair === undefined ? {} : { repair }),
        runId: listing.runId,
        status: state.status === 'running' && (await runHolder(directory, listing.runId)) === undefined ? 'interrupted' : state.status,
        objective: state.plan?.objective ?? '',
        completed: steps.filter((step) => step.status === 'completed').length,
        steps: steps.length,
        updatedAt: new Date(listing.updatedAt).toISOString(),
        undone,
        ...(undone && changes?.anyLeft === true ? { undoneInPart: true } : {}),
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
  const replacedBy = replacedByRepair(states);
  // A run whose repair a stop cut off (no repair run of it listed) is not over: resume asks for the repair.
  const awaiting = new Set(states.filter((state) => awaitsRepair(state) && !replacedBy.has(state.runId)).map((state) => state.runId));
  const listed = rows.map((row) => {
    if (replacedBy.has(row.runId)) return { ...row, replacedBy: replacedBy.get(row.runId) };
    return awaiting.has(row.runId) ? { ...row, status: 'interrupted' } : row;
  });
  if (json) io.out(JSON.stringify(listed, null, 2));
  else if (rows.length === 0) {
    // A newcomer looked here for the runs they had started in the editor.
    io.out(`No runs in ${directory}. Runs started in the editor are kept by the editor (its Runs view), not here.`);
  }
  else {
    const statuses = listed.map((row) => {
      const replaced = 'replacedBy' in row ? `, replaced by repair ${row.replacedBy}` : '';
      const undone = row.undone ? `, ${undoneLabels[row.undoneInPart ? 'some' : 'all']}` : '';
      return `${row.status}${row.repair === undefined ? '' : `, repair ${row.repair}`}${replaced}${undone}`;
    });
    // Columns under their names (a newcomer could not tell the counts from the times), each as wide as its longest cell.
    // The time is the journal's last write, when the run last ran (started, went on, was answered), as the editor's Runs
    // view orders and shows it: an Undo is said in the status, not here. "Updated", unchanged after an Undo, read as stale (a trial).
    const header = ['Run', 'Status', 'Done', 'Last ran (UTC)', 'Objective'];
    const table = [
      header,
      ...listed.map((row, index) => {
        const done = `${row.completed}/${row.steps}`;
        return [row.runId, statuses[index] ?? '', done, row.updatedAt, oneLine(names.get(row.runId) ?? row.objective, maxObjectiveLength)];
      }),
    ];
    const widths = header.map((_, column) => Math.max(...table.map((cells) => cells[column]?.length ?? 0)));
    const last = header.length - 1;
    for (const cells of table) io.out(cells.map((cell, column) => (column === last ? cell : cell.padEnd(widths[column] ?? 0))).join('  '));
    // A reason cut to fit its row is said in full below (up to a bound): it is what the user has to act on.
    for (const row of listed.filter((listedRow) => listedRow.status === 'unreadable' && listedRow.objective.length > maxObjectiveLength)) {
      io.out(`\n${row.runId} cannot be read: ${oneLine(row.objective, maxReasonLength)}`);
    }
    const cutOff = listed.find((row) => row.status === 'interrupted');
    // With the workspace: pasted from another folder, "task-planner resume RUN" found no run there.
    if (cutOff) {
      io.out(
        `\nAn interrupted run goes on from where it stopped, finished steps not redone: task-planner resume ${shellWord(cutOff.runId)} --workspace ${shellWord(resolve(workspace))}`,
      );
    }
  }
  return 0;
}
