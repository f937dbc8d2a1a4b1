import * as vscode from 'vscode';
import { visibleDirection } from '../core/text/visibleDirection';
import { textOf } from '../core/tools/fileVersions';
import type { FileVersion } from '../core/runStorePorts';
import type { SnapshotDocuments } from './snapshotDocuments';
import { showInformation } from './notifications';

/** The command that shows what a run changed in one file: `(runId, path)`, the path relative to the run's folder. */
export const showRunChangeCommand = 'taskPlanner.showRunChange';

/** What the diff needs of the runs (the `RunController`): a changed file before the run, and the file now. */
export interface ChangedRuns {
  changeOf(runId: string, path: string): Promise<{ before: FileVersion; now: vscode.Uri | undefined } | undefined>;
}

/**
 * Registers `showRunChangeCommand`: a diff of the file as it was before the run first changed it (left, from the run's
 * checkpoint) and the file now (right, the real file, so it can be edited; empty when it is gone). A path the run
 * did not change opens as the file itself.
 */
export function registerRunChangeDiff(deps: { runs: ChangedRuns; documents: SnapshotDocuments }): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(showRunChangeCommand, async (runId: string, path: string): Promise<void> => {
      const change = await deps.runs.changeOf(runId, path);
      const shown = visibleDirection(path);
      if (!change?.now) return void showInformation(vscode.l10n.t('Task Planner: run {0} did not change {1}.', runId, shown));
      const before = deps.documents.put(path, 'before-the-run', textOf(change.before) ?? '');
      const exists = await vscode.workspace.fs.stat(change.now).then(() => true, () => false);
      const now = exists ? change.now : deps.documents.put(path, 'deleted', '');
      const title = exists
        ? vscode.l10n.t('{0}: before the run ↔ now', shown)
        : vscode.l10n.t('{0}: before the run ↔ deleted', shown);
      await vscode.commands.executeCommand('vscode.diff', before, now, title, { preview: true });
    }),
  ];
}
