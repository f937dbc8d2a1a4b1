import * as vscode from 'vscode';
import type { PlanFileDocument, PlanFileUi } from './planFileCommands';
import { errorMessage } from '../shared/errorMessage';
import { showError, showInformation } from './notifications';

/** The editor's own dialogs, files and notifications for the plan-file commands. */
export const vscodePlanFileUi: PlanFileUi = {
  saveLocation: async (fileName, planFolder) => {
    const folder = planFolder ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    return await vscode.window.showSaveDialog({
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
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
 * The `*.plan.json` document an editor-title command was clicked on (`uri`: read from its editor when open, unsaved
 * edits included, else from disk), or the active editor's when no file was clicked (the command palette); says what
 * to open, or why the file cannot be read, and returns `undefined` when there is none. `uri` is the file read (its
 * workspace folder is where its run goes).
 */
export async function planFileDocument(uri: vscode.Uri | undefined): Promise<(PlanFileDocument & { uri: vscode.Uri }) | undefined> {
  let document = vscode.window.activeTextEditor?.document;
  if (uri) {
    // The clicked file, never the active editor instead: the extension host may learn of the editor just opened after
    // the click reaches it, and the active editor it knows then is the file shown before (an e2e run ran that one).
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (error) {
      const name = vscode.workspace.asRelativePath(uri);
      vscodePlanFileUi.error(vscode.l10n.t('Task Planner: could not open {0} to read the plan: {1}', name, errorMessage(error)));
      return undefined;
    }
  }
  if (!document || !/\.plan\.json$/i.test(document.fileName)) {
    vscodePlanFileUi.info(vscode.l10n.t('Task Planner: open a *.plan.json file first ("Save plan as file" writes one).'));
    return undefined;
  }
  return { name: vscode.workspace.asRelativePath(document.uri), text: document.getText(), uri: document.uri };
}
