import * as vscode from 'vscode';
import { visibleDirection } from '../core/text/visibleDirection';
import { showInformation, showWarning } from './notifications';
import { shownLine } from './shownText';

/** What the user is asked before Undo takes back a run's changes: the run by its request, from which step, and the files. */
export interface UndoQuestion {
  /** The run's request. */
  readonly objective: string;
  /** The workspace folder the run changed, named in a window of several folders (`shownFolderName`); absent in one of one. */
  readonly folder?: string;
  /** The repair this run is (`repairNumber`: Undo takes back the runs it replaced too); absent for a run no repair led to. */
  readonly repair?: number;
  /** The repair that replaced this run (its execution went on there); absent when none did. */
  readonly replacedBy?: number;
  /** The step Undo starts from (Undo from here); absent for the whole run. */
  readonly fromStep?: string;
  /** The folder-relative paths of the files Undo would put back, in first-change order (at least one file or folder). */
  readonly files: readonly string[];
  /** The folders the run created, which Undo removes when nothing else is in them; absent when none. */
  readonly folders?: readonly string[];
  /** Those of `files` the run created, which Undo removes; absent when none. */
  readonly created?: readonly string[];
  /** Those of `files` changed since the run, which Undo leaves as they are (`filesChangedSince`); absent when none. */
  readonly changedSince?: readonly string[];
}

/** Asks `question`; `true` when the user chose to undo. */
export type ConfirmUndo = (question: UndoQuestion) => Promise<boolean>;

/** How many of the files the question names before "and N more". */
const namedFiles = 5;

/**
 * Asks in a modal dialog before Undo takes back a run's changes, which Task Planner cannot bring back (a newcomer's click on
 * "Undo run" in a notification undid a run at once). "Keep the changes" comes first, so a stray Enter keeps them.
 */
export const confirmUndoDialog: ConfirmUndo = async (asked) => {
  const { objective, folder, repair, replacedBy, fromStep, files, created = [], changedSince = [], folders = [] } = asked;
  // Not "Keep the changes" as the close affordance, to drop the Cancel beside it: the editor puts that button last and
  // focuses the first, so a stray Enter would undo.
  const [keep, undo] = [vscode.l10n.t('Keep the changes'), fromStep === undefined ? vscode.l10n.t('Undo run') : vscode.l10n.t('Undo from here')];
  // A run and its repair run have the same request: the question names which one (a trial could not tell which it undid).
  const which = whichRun(repair, replacedBy);
  const name = shownLine(objective, 80);
  // A file the run created goes back to not being there: "goes back to how it was" told a newcomer it would stay.
  const made = new Set(created);
  const kept = new Set(changedSince);
  const restored = files.filter((file) => !made.has(file) && !kept.has(file));
  const removed = files.filter((file) => made.has(file) && !kept.has(file));
  // A replaced run whose every file changed since (its repair went on from them) has nothing of its own left to take back:
  // said plainly, not asked as if Undo would do something (a trial's dialog offered "Undo run" for it).
  if (replacedBy !== undefined && fromStep === undefined && restored.length + removed.length + folders.length === 0) {
    await showInformation(
      vscode.l10n.t(
        'Task Planner: undoing run "{0}" would take back nothing: every file it changed has changed since ({1}), as its repair run went on from them. To take back the task\'s changes, undo repair {2}: it takes back the runs it replaced too.',
        shownLine(objective, 80),
        fileList(changedSince),
        replacedBy,
      ),
    ).then(undefined, () => undefined);
    return false;
  }
  const step = fromStep === undefined ? undefined : shownLine(fromStep, 40);
  const question =
    step === undefined
      ? which === undefined
        ? vscode.l10n.t('Undo the run "{0}"?', name)
        : vscode.l10n.t('Undo the run "{0}" ({1})?', name, which)
      : which === undefined
        ? vscode.l10n.t('Undo step {0} of the run "{1}", and the later steps that depend on it or changed the same files?', step, name)
        : vscode.l10n.t('Undo step {0} of the run "{1}" ({2}), and the later steps that depend on it or changed the same files?', step, name, which);
  // Named first, as a command's question names it: with two folders open, "docs/api.md will be deleted" did not say whose.
  const lines: string[] = folder === undefined ? [] : [vscode.l10n.t('In the workspace folder "{0}".', shownLine(folder, 80))];
  if (restored.length === 1) lines.push(vscode.l10n.t('This file will go back to how it was before the run: {0}.', fileList(restored)));
  if (restored.length > 1) lines.push(vscode.l10n.t('These files will go back to how they were before the run: {0}.', fileList(restored)));
  if (removed.length === 1) lines.push(vscode.l10n.t('This file, which the run created, will be deleted: {0}.', fileList(removed)));
  if (removed.length > 1) lines.push(vscode.l10n.t('These files, which the run created, will be deleted: {0}.', fileList(removed)));
  const madeFolders = fileList(folders.map(asFolder));
  if (folders.length === 1) lines.push(vscode.l10n.t('This folder, which the run created, will be removed if nothing else is in it: {0}.', madeFolders));
  if (folders.length > 1) lines.push(vscode.l10n.t('These folders, which the run created, will be removed if nothing else is in them: {0}.', madeFolders));
  // Named before the choice: a trial's dialog said README.md went back, and Undo then left it alone (changed since).
  if (kept.size > 0) {
    lines.push(vscode.l10n.t('Left as it is, changed since the run (Undo then offers to show what it would overwrite): {0}.', fileList(changedSince)));
  }
  // Said of the files above alone: a rule of its own beside them read as if some file had changed (an editor trial).
  lines.push(vscode.l10n.t('Task Planner cannot redo what Undo takes back.'));
  const detail = lines.join('\n\n');
  const choice = await showWarning(question, { modal: true, detail }, keep, undo).then(undefined, () => undefined);
  return choice === undo;
};

/**
 * Which of a repaired task's runs this is, for the question: "repair 1, with the run it replaced" (Undo takes back the
 * runs it replaced too), "replaced by repair 1", "repair 1, replaced by repair 2"; `undefined` for a run no repair touched.
 */
function whichRun(repair: number | undefined, replacedBy: number | undefined): string | undefined {
  if (repair !== undefined && replacedBy !== undefined) return vscode.l10n.t('repair {0}, replaced by repair {1}', repair, replacedBy);
  if (replacedBy !== undefined) return vscode.l10n.t('replaced by repair {0}', replacedBy);
  if (repair === 1) return vscode.l10n.t('repair {0}, with the run it replaced', repair);
  if (repair !== undefined) return vscode.l10n.t('repair {0}, with the runs it replaced', repair);
  return undefined;
}

/** `files` named for the dialog, the first few, then "and N more". */
function fileList(files: readonly string[]): string {
  const shown = files.slice(0, namedFiles).map((file) => shownLine(visibleDirection(file), 120));
  return files.length > namedFiles ? vscode.l10n.t('{0} and {1} more', shown.join(', '), files.length - namedFiles) : shown.join(', ');
}

/** "notes/": a folder named as one. */
function asFolder(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}
