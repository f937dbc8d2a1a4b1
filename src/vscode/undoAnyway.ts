import * as vscode from 'vscode';
import type { Plan } from '../core/plan/planSchema';
import { expectedOf, textOf } from '../core/tools/fileVersions';
import type { UndoAnyway, UndoOverwrite, UndoReport } from '../core/tools/undoRun';
import { snapshotScheme, type SnapshotDocuments } from './snapshotDocuments';
import { showInformation, showWarning } from './notifications';
import type { RunUndo } from './runUndo';
import { shownPath } from './shownText';

/** What an Undo acted on: the run, and for Undo from here the step and the plan that scoped it. */
export interface UndoTarget {
  runId: string;
  fromStep?: { stepId: string; plan: Pick<Plan, 'steps'> };
}

/** What Undo anyway needs of the runs (the `RunController`). */
export interface UndoingRuns {
  undo(runId: string, fromStep?: UndoTarget['fromStep'], anyway?: readonly UndoAnyway[]): Promise<RunUndo>;
}

/** The command behind "Show what Undo would overwrite…" (not in the palette: it needs a report). */
export const undoAnywayCommand = 'taskPlanner.undoAnyway';

/**
 * Tells the outcome `message` of an Undo: a warning when it left files alone, which offers, when some of them could
 * be undone anyway, to show each one's diff and ask (`registerUndoAnyway`).
 */
export function tellUndo(message: string, report: UndoReport, target: UndoTarget): void {
  if (report.refused.length === 0) return void showInformation(message);
  const offer = vscode.l10n.t('Show what Undo would overwrite…');
  void showWarning(message, ...(report.overwritable.length > 0 ? [offer] : [])).then((choice) => {
    if (choice === offer) void vscode.commands.executeCommand(undoAnywayCommand, target, report.overwritable);
  });
}

/**
 * Registers "Undo anyway": for each file Undo left alone because it changed after the run, a diff of the file as it
 * was read (left) and as Undo anyway would leave it (right), then a modal question. The consent names both texts by
 * hash, so the file is written only while it is still exactly the left side, and only with the right side.
 */
export function registerUndoAnyway(deps: {
  runs: UndoingRuns;
  documents: SnapshotDocuments;
  log: vscode.LogOutputChannel;
}): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(undoAnywayCommand, async (target: UndoTarget, overwrites: readonly UndoOverwrite[]): Promise<UndoReport | undefined> => {
      const consents: UndoAnyway[] = [];
      for (const overwrite of overwrites) {
        if (consents.some((consent) => consent.path === overwrite.path)) continue;
        if (await askOne(deps.documents, overwrite)) {
          consents.push({ path: overwrite.path, current: expectedOf(overwrite.current), restore: expectedOf(overwrite.restore) });
        }
      }
      if (consents.length === 0) return undefined;
      const { report, text } = await deps.runs.undo(target.runId, target.fromStep, consents);
      deps.log.info(`Run ${target.runId}, undo anyway of ${consents.map((consent) => consent.path).join(', ')}: ${text}`);
      tellUndo(vscode.l10n.t('Task Planner: {0}', text), report, target);
      return report;
    }),
  ];
}

/** Shows the diff of `overwrite` and asks; `true` when the user chose Undo anyway. */
async function askOne(documents: SnapshotDocuments, overwrite: UndoOverwrite): Promise<boolean> {
  // A path may hold characters that hide or break a line (tag characters, a line separator): spelled out, as the approval's tab names it.
  const shown = shownPath(overwrite.path);
  const now = documents.put(overwrite.path, 'now', textOf(overwrite.current) ?? '');
  const after = documents.put(overwrite.path, 'after-undo', textOf(overwrite.restore) ?? '');
  await vscode.commands.executeCommand('vscode.diff', now, after, vscode.l10n.t('{0}: now ↔ after Undo anyway', shown), { preview: false });
  const undo: vscode.MessageItem = { title: vscode.l10n.t('Undo anyway') };
  const question = !overwrite.current.exists
    ? vscode.l10n.t('{0} was deleted after the run. Undo anyway: bring it back as it was before the run (right)?', shown)
    : !overwrite.restore.exists
      ? vscode.l10n.t('The run created {0}, and it was changed after the run. Undo anyway: delete it, with those changes (left)?', shown)
      : vscode.l10n.t('{0} was changed after the run. Undo anyway: put it back as it was before the run (right), losing what is on the left?', shown);
  const detail = vscode.l10n.t(
    'The diff shows the file as it is now (left) and as Undo anyway leaves it (right). If the file changes again before you answer, it is left alone.',
  );
  // The safe answer first, so it is the focused button: a stray Enter keeps the user's changes. Not the close
  // affordance: the workbench would then focus the first other button (Undo anyway); Escape and its Cancel keep too.
  const keep: vscode.MessageItem = { title: vscode.l10n.t('Keep my changes') };
  const choice = await showWarning(question, { modal: true, detail }, keep, undo);
  await closeDiff(now);
  return choice === undo;
}

async function closeDiff(left: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) =>
        tab.input instanceof vscode.TabInputTextDiff && tab.input.original.scheme === snapshotScheme && tab.input.original.toString() === left.toString(),
    );
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => false);
}
