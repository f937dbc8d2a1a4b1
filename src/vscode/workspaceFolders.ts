import { createHash } from 'node:crypto';
import { isAbsolute, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { loadRuntime } from './loadRuntime';

// How the editor tells workspace folders apart for runs: which name the views show, where each folder's runs are
// journaled, and the sentence a refused path of another folder ends with.

/** The folder's name for the views: only in a window of several folders (one folder's users see no change). */
export function shownFolderName(folder: vscode.WorkspaceFolder | undefined): string | undefined {
  return folder && (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? folder.name : undefined;
}

/** A folder's name as the editor shows it: control and direction characters escaped (a `.code-workspace` names folders freely), at most 80 characters. */
export function displayedFolderName(name: string): string {
  return loadRuntime().visibleControls(name.slice(0, 80));
}

/**
 * Asks which workspace folder to use, each named as `displayedFolderName` shows it with its
 * path beside it (VS Code's own folder pick shows a name that reverses its row as it is);
 * `undefined` when dismissed.
 */
export async function pickWorkspaceFolder(placeHolder: string, folders = vscode.workspace.workspaceFolders ?? []): Promise<vscode.WorkspaceFolder | undefined> {
  const picked = await vscode.window.showQuickPick(
    folders.map((folder) => ({ label: displayedFolderName(folder.name), description: loadRuntime().visibleControls(folder.uri.fsPath), folder })),
    { placeHolder, ignoreFocusOut: true },
  );
  return picked?.folder;
}

/** What a refused path's reason ends with in a workspace of several folders: the folder the run is confined to. */
export function folderConfinement(folder: vscode.WorkspaceFolder): string {
  return vscode.l10n.t('this run is confined to the workspace folder "{0}"', loadRuntime().quotableFolderName(folder.name));
}

/** A short stable name for `folder`'s storage (its URI hashed): folder names need not be unique. */
export function folderHash(folder: vscode.WorkspaceFolder | undefined): string {
  return folder ? createHash('sha256').update(folder.uri.toString()).digest('hex').slice(0, 16) : 'none';
}

/**
 * Where `folder`'s runs and checkpoints are journaled under the workspace storage `storageDir`: a window
 * opened on one folder keeps them at the top (where they always were); a workspace of folders (a
 * `.code-workspace`, however many folders it has now) keeps each folder's apart. `undefined`: in memory.
 */
export function folderStorageDir(storageDir: string | undefined, folder: vscode.WorkspaceFolder | undefined): string | undefined {
  if (!storageDir || !folder) return undefined;
  return vscode.workspace.workspaceFile ? join(storageDir, 'folders', folderHash(folder)) : storageDir;
}

/** `uri` relative to `folder` when inside it, else its absolute path (which the attachment check refuses). */
export function relativeToFolder(folder: vscode.WorkspaceFolder | undefined, uri: vscode.Uri): string {
  if (!folder) return vscode.workspace.asRelativePath(uri, false);
  const inside = relative(folder.uri.fsPath, uri.fsPath);
  return inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? uri.fsPath : inside.split(sep).join('/');
}
