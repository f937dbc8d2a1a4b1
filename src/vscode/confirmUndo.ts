import * as vscode from 'vscode';
import { visibleDirection } from '../core/text/visibleDirection';
import { showWarning } from './notifications';
import { shownLine } from './shownText';

/** What the user is asked before Undo takes back a run's changes: the run by its request, from which step, and the files. */
export interface UndoQuestion {
  /** The run's request. */
  readonly objective: string;
  /** The step Undo starts from (Undo from here); absent for the whole run. */
  readonly fromStep?: string;
  /** The folder-relative paths Undo would put back, in first-change order (at least one). */
  readonly files: readonly string[];
}

/** Asks `question`; `true` when the user chose to undo. */
export type ConfirmUndo = (question: UndoQuestion) => Promise<boolean>;

/** How many of the files the question names before "and N more". */
const namedFiles = 5;

/**
 * Asks in a modal dialog before Undo takes back a run's changes, which Task Planner cannot bring back (a newcomer's click on
 * "Undo run" in a notification undid a run at once). "Keep the changes" comes first, so a stray Enter keeps them.
 */
export const confirmUndoDialog: ConfirmUndo = async ({ objective, fromStep, files }) => {
  const [keep, undo] = [vscode.l10n.t('Keep the changes'), fromStep === undefined ? vscode.l10n.t('Undo run') : vscode.l10n.t('Undo from here')];
  const name = shownLine(objective, 80);
  const question =
    fromStep === undefined
      ? vscode.l10n.t('Undo the run "{0}"?', name)
      : vscode.l10n.t('Undo step {0} of the run "{1}", and the later steps that depend on it or changed the same files?', shownLine(fromStep, 40), name);
  const shown = files.slice(0, namedFiles).map((file) => shownLine(visibleDirection(file), 120));
  const list = files.length > namedFiles ? vscode.l10n.t('{0} and {1} more', shown.join(', '), files.length - namedFiles) : shown.join(', ');
  const detail = [
    files.length === 1
      ? vscode.l10n.t('This file goes back to how it was before the run: {0}.', list)
      : vscode.l10n.t('These files go back to how they were before the run: {0}.', list),
    vscode.l10n.t('A file changed since the run is left as it is. Task Planner cannot redo what Undo takes back.'),
  ].join('\n\n');
  const choice = await showWarning(question, { modal: true, detail }, keep, undo).then(undefined, () => undefined);
  return choice === undo;
};
