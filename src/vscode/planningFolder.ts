// Which workspace folder a planning works in: of the files chosen, else of the active editor, else the user's pick.
import * as vscode from 'vscode';
import { chooseFolder } from './folderChoice';
import { showError } from './notifications';
import type { PlanTaskDeps } from './planTaskDeps';
import { displayedFolderName, pickWorkspaceFolder } from './workspaceFolders';

/**
 * The folder a planning works in (see `chooseFolder`): of the given `files`, else of the active editor,
 * else picked by the user. `outcome` ends "Plan task" there: the pick was cancelled (nothing happens)
 * or the files lie in several folders (an error says so). `folder` is `undefined` when no folder is open.
 */
export async function planningFolder(
  deps: Pick<PlanTaskDeps, 'pickFolder'>,
  files: readonly vscode.Uri[],
): Promise<{ folder: vscode.WorkspaceFolder | undefined } | { outcome: { readonly error?: string } }> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const choice = chooseFolder(vscode.workspace.workspaceFolders ?? [], {
    files: files.map((file) => vscode.workspace.getWorkspaceFolder(file)),
    editor: active && vscode.workspace.getWorkspaceFolder(active),
  });
  switch (choice.kind) {
    case 'none':
      return { folder: undefined };
    case 'folder':
      return { folder: choice.folder };
    case 'spread': {
      const error = vscode.l10n.t(
        'The files are in more than one workspace folder ({0}); a plan works in one folder. Choose files of one folder.',
        choice.names.map((name) => `"${displayedFolderName(name)}"`).join(', '),
      );
      void showError(vscode.l10n.t('Task Planner: {0}', error));
      return { outcome: { error } };
    }
    case 'ask': {
      const picked = await (deps.pickFolder ?? askFolder)(choice.folders);
      return picked ? { folder: picked } : { outcome: {} };
    }
  }
}

/** The workspace folder pick of "Plan task". */
function askFolder(folders: readonly vscode.WorkspaceFolder[]): Promise<vscode.WorkspaceFolder | undefined> {
  return pickWorkspaceFolder(vscode.l10n.t('Which workspace folder should the task be planned and run in?'), folders);
}
