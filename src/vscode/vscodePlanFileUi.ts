import * as vscode from 'vscode';
import type { PlanFileDocument, PlanFileUi } from './planFileCommands';
import { showError, showInformation } from './notifications';

/** The editor's own dialogs, files and notifications for the plan-file commands. */
export const vscodePlanFileUi: PlanFileUi = {
  saveLocation: async (fileName) => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return await vscode.window.showSaveDialog({
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder.uri, fileName) } : {}),
      filters: { [vscode.l10n.t('Task Planner plan')]: ['plan.json'], JSON: ['json'] },
      title: vscode.l10n.t('Save plan as file'),
      saveLabel: vscode.l10n.t('Save plan'),
    });
  },
  writeFile: async (uri, text) => {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  },
  openFile: async (uri) => {
    await vscode.window.showTextDocument(uri);
  },
  openMarkdown: async (text) => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content: text }));
  },
  info: (message) => void showInformation(message),
  error: (message) => void showError(message),
};

/**
 * The `*.plan.json` document an editor-title command was clicked on (`uri`, when it is
 * open), else the active editor's, with its current text (unsaved edits included); says
 * what to open and returns `undefined` when there is none.
 */
export function planFileDocument(uri: vscode.Uri | undefined): PlanFileDocument | undefined {
  const clicked = uri ? vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString()) : undefined;
  const document = clicked ?? vscode.window.activeTextEditor?.document;
  if (!document || !/\.plan\.json$/i.test(document.fileName)) {
    vscodePlanFileUi.info(vscode.l10n.t('Task Planner: open a *.plan.json file first ("Save plan as file" writes one).'));
    return undefined;
  }
  return { name: vscode.workspace.asRelativePath(document.uri), text: document.getText() };
}
