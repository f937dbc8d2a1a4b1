import type * as vscode from 'vscode';
import type { Plan } from '../core/plan/planSchema';
import type { RunController } from './runController';

/** What a plan read from a file needs of the runs: the folder each plan is for, and the folder the views follow. */
type PlanFolders = Pick<RunController, 'planFor' | 'planFolder' | 'useFolder' | 'folder'>;

/**
 * Makes `plan`, read from a file of `folder` (a task file or a plan file), that folder's plan, and `folder` the one the
 * views follow: with two folders open, a plan of the second folder's file was shown and saved as the first folder's.
 * Nothing without a folder (a file outside the workspace).
 */
export function takePlanOfFile(runs: PlanFolders, plan: Plan, folder: vscode.WorkspaceFolder | undefined): void {
  if (folder === undefined) return;
  runs.planFor(plan.id, folder);
  runs.useFolder(folder);
}

/** The folder `plan` is for (`planFolder`), else the one the views follow: where Save and Export propose its file. */
export function planFolderUri(runs: PlanFolders, plan: Plan): vscode.Uri | undefined {
  return (runs.planFolder(plan.id) ?? runs.folder())?.uri;
}
