import * as vscode from 'vscode';
import type { AttachmentCheckUi } from './attachmentCheck';
import { relativeToFolder } from './workspaceFolders';
import { showWarning } from './notifications';

/** The Start-time question as a modal dialog: Allow, Allow for this workspace (when offered), Don't Allow, or closed (Cancel). */
export async function askCheckCommandsModal(question: string, offerWorkspace: boolean): Promise<boolean | 'workspace' | undefined> {
  const [first, ...rest] = question.split('\n');
  const allow = vscode.l10n.t('Allow');
  const always = vscode.l10n.t('Always Allow in This Workspace');
  // The safe choice first: the workbench's modal focuses its first button, so Enter declines (E2, E3 of issue 27).
  const choices = [vscode.l10n.t("Don't Allow"), allow, ...(offerWorkspace ? [always] : [])];
  // The workbench adds Cancel beside Don't Allow: each does something else, and a newcomer could not tell which.
  const answers = vscode.l10n.t("Don't Allow: those checks fail as not allowed. Cancel: the run does not start.");
  const choice = await showWarning(first ?? question, { modal: true, detail: [...rest, '', answers].join('\n') }, ...choices);
  return choice === undefined ? undefined : choice === always ? 'workspace' : choice === allow;
}

/** The editor's dialogs for a missing attachment: a modal warning with the choices, then the open-file dialog in `folder`. */
export function vscodeAttachmentUi(folder: vscode.WorkspaceFolder | undefined): AttachmentCheckUi {
  return {
    ask: async (message, choices) => {
      const labels = choices.map((choice) => (choice === 'Run without it' ? vscode.l10n.t('Run without it') : vscode.l10n.t('Choose another file…')));
      const picked = await showWarning(vscode.l10n.t('Task Planner: {0}', message), { modal: true }, ...labels);
      return choices[labels.findIndex((label) => label === picked)];
    },
    chooseFile: async (kind) => {
      const picked = await vscode.window.showOpenDialog({
        ...(folder ? { defaultUri: folder.uri } : {}),
        canSelectMany: false,
        openLabel: vscode.l10n.t('Attach'),
        ...(kind === 'image' ? { filters: { [vscode.l10n.t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] } } : {}),
      });
      const uri = picked?.[0];
      // A file outside the folder comes back as an absolute path, which the check refuses and asks about again.
      return uri ? relativeToFolder(folder, uri) : undefined;
    },
  };
}
