import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { foldedPath } from '../core/workspace/changeKey';
import type { ChangeOptions, WorkspaceFs } from '../core/workspacePorts';
import { WorkspaceError } from '../core/workspace/workspaceError';
import { showWarning } from './notifications';
import { shownLine, shownPath } from './shownText';

/** What the user answers when a step would change a file they have unsaved changes in. */
export type UnsavedChoice = 'save' | 'keep';

/**
 * Asks the user what to do about the unsaved changes of `document` (`relative`: its workspace path) that `by`
 * (a step; `undefined`: Undo) wants to change.
 */
export type AskAboutUnsaved = (document: vscode.TextDocument, relative: string, by: ChangeOptions['by']) => Promise<UnsavedChoice>;

/**
 * The editor's question: a modal whose first (focused) button keeps the user's changes, so
 * Enter or Escape never lets a step write over them. Keep is not marked as the close
 * affordance: the workbench would then focus the first other button (Save); Escape and the
 * Cancel the workbench adds answer Keep as well.
 */
export const askAboutUnsaved: AskAboutUnsaved = async (_document, relative, by) => {
  const keep: vscode.MessageItem = { title: vscode.l10n.t('Keep my changes') };
  const save: vscode.MessageItem = { title: vscode.l10n.t('Save them, then let the step change the file') };
  // Asked as the change is made, which is after its approval: name the step, so the question is not taken for another one.
  const question =
    by === undefined
      ? vscode.l10n.t('{0} has unsaved changes, and Undo wants to change it.', shownPath(relative))
      : vscode.l10n.t(
          '{0} has unsaved changes, and step {1} "{2}" wants to change it now.',
          shownPath(relative),
          shownLine(by.stepId, 80),
          shownLine(by.stepTitle, 80),
        );
  const choice = await showWarning(
    question,
    {
      modal: true,
      detail: vscode.l10n.t(
        'Saved, your changes stay and the step works on them (it asks again where changes are approved). Kept, the step does not touch the file.',
      ),
    },
    keep,
    save,
  );
  return choice === save ? 'save' : 'keep';
};

/**
 * `workspace`, asking before it writes over or deletes a file that is open in an editor with
 * unsaved changes: saved first (then the change, made for the version on disk before, is
 * refused as out of date and computed again on what the user saved), or left alone with a
 * `WorkspaceError` of code `unsaved` that says what to do. The user's typing is never lost
 * to a step. Paths are compared as the editor names the document (under `root`); reads and
 * everything else pass through.
 */
export function guardUnsavedEditors(workspace: WorkspaceFs, root: string, ask: AskAboutUnsaved = askAboutUnsaved): WorkspaceFs {
  const settleUnsaved = async (input: string, by: ChangeOptions['by'], signal: AbortSignal | undefined): Promise<void> => {
    const open = await dirtyDocumentOf(path.resolve(root, input));
    if (open === undefined) return;
    if ((await ask(open, input, by)) === 'keep') {
      throw new WorkspaceError(
        'unsaved',
        input,
        `${input} is open in the editor with unsaved changes, so the step did not write over them. Save or revert the file, then run the step again.`,
      );
    }
    if (await saved(open, signal)) return;
    signal?.throwIfAborted();
    throw new WorkspaceError(
      'unsaved',
      input,
      `${input} could not be saved (the editor says why), so the step did not write over its unsaved changes. Save or revert the file, then run the step again.`,
    );
  };
  return {
    // The confined workspace's methods are closures: spread, they keep working (readTextMany too).
    ...workspace,
    async writeText(input, text, signal, options) {
      await settleUnsaved(input, options?.by, signal);
      return workspace.writeText(input, text, signal, options);
    },
    async delete(input, signal, options) {
      await settleUnsaved(input, options?.by, signal);
      return workspace.delete(input, signal, options);
    },
  };
}

/**
 * The document open with unsaved changes on the file `file` (absolute) names: the one of that name, or one whose name
 * leads to the same file once links are followed (a step writing `alias.md -> notes.md` while `notes.md` is open with
 * unsaved changes wrote over them unasked: an outside attack), in any letter case where the disk ignores it (macOS,
 * Windows).
 */
async function dirtyDocumentOf(file: string): Promise<vscode.TextDocument | undefined> {
  const dirty = vscode.workspace.textDocuments.filter((document) => document.isDirty && document.uri.scheme === 'file');
  const target = vscode.Uri.file(file).toString();
  const named = dirty.find((document) => document.uri.toString() === target);
  if (named !== undefined || dirty.length === 0) return named;
  const place = await placeOf(file);
  for (const document of dirty) if ((await placeOf(document.uri.fsPath)) === place) return document;
  return undefined;
}

/** Where `file` (absolute) is on disk, links followed (as named when it cannot be told), folded where the disk ignores letter case. */
async function placeOf(file: string): Promise<string> {
  const real = await fsp.realpath(file).catch(() => path.resolve(file));
  return process.platform === 'linux' ? real : foldedPath(real);
}

/** How long `saved` waits for a save already under way (an auto save running its save participants), in milliseconds. */
const saveUnderWayMs = 5_000;

/**
 * Saves `document`; true once it has no unsaved changes. A save asked while another one runs its save participants is
 * refused (VS Code answers false): with `files.autoSave` on (the default of VS Code for the Web) one may be under way, so
 * a refused save waits for that one to end, for at most `saveUnderWayMs` each time, and is asked again, three times in
 * all; none again once `signal` is aborted.
 */
async function saved(document: vscode.TextDocument, signal: AbortSignal | undefined): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    if ((await document.save()) || !document.isDirty) return true;
    if (attempt === 3) return false;
    await savedOrTimeout(document, saveUnderWayMs, signal);
    if (signal?.aborted === true) return false;
  }
}

/** Resolves when `document` is saved, after `ms` milliseconds, or when `signal` is aborted, whichever comes first. */
function savedOrTimeout(document: vscode.TextDocument, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const listener = vscode.workspace.onDidSaveTextDocument((savedDocument) => {
      if (savedDocument.uri.toString() === document.uri.toString()) done();
    });
    signal?.addEventListener('abort', done, { once: true });
  });
}
