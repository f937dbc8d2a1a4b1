import type * as vscode from 'vscode';

/** The run that was executing when the window last went away: its id and objective. */
export interface InterruptedRun {
  runId: string;
  objective: string;
}

/**
 * The runs recorded under `keys` in workspace state (one record per folder, written as each run starts and cleared when it
 * ends), each record cleared as it is read: the runs a reload cut off. A record that is not a run's is skipped and left,
 * and so is the record of a run `journaled` says this window does not journal: workspace state is the workspace's, shared
 * by its windows, while each window journals in storage of its own (see `otherWindowStorages`), so that record is another
 * window's, whose run may still be going on.
 */
export async function takeInterruptedRuns(
  memento: vscode.Memento,
  keys: readonly string[],
  journaled: (runId: string) => Promise<boolean>,
): Promise<InterruptedRun[]> {
  const runs: InterruptedRun[] = [];
  for (const key of new Set(keys)) {
    const record = memento.get<InterruptedRun>(key);
    if (!record || typeof record.runId !== 'string' || !(await journaled(record.runId))) continue;
    await memento.update(key, undefined);
    runs.push({ runId: record.runId, objective: typeof record.objective === 'string' ? record.objective : record.runId });
  }
  return runs;
}
