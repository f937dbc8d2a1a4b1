import * as vscode from 'vscode';
import { showWarning } from './notifications';

/** A run could not start: another is going on in its folder, `runId` when it has one yet (it may still be asking before its start). */
export class RunInProgressError extends Error {
  constructor(
    message: string,
    readonly runId: string | undefined,
  ) {
    super(message);
    this.name = 'RunInProgressError';
  }
}

/** Where `tellRunInProgress` says it, and how it acts on the button pressed. */
export interface RunInProgressUi {
  warn(message: string, ...actions: string[]): Thenable<string | undefined>;
  execute(command: 'taskPlanner.openRun' | 'taskPlanner.cancelRun', runId: string): void;
}

const editorUi: RunInProgressUi = {
  warn: (message, ...actions) => showWarning(message, ...actions),
  execute: (command, runId) => void vscode.commands.executeCommand(command, runId),
};

/**
 * Says that `error` kept a run from starting because another goes on, with what the user can do about that one: show it in
 * the Plan view, or cancel it (its journal stays resumable). False, saying nothing, for any other error.
 */
export function tellRunInProgress(error: unknown, ui: RunInProgressUi = editorUi): boolean {
  // By its name, not `instanceof`: the error may come from the class's copy in the other bundle (extension.js, runtime.js).
  if (!(error instanceof Error) || error.name !== 'RunInProgressError') return false;
  const runId = (error as Partial<RunInProgressError>).runId;
  const message = vscode.l10n.t('Task Planner: {0}', error.message);
  if (runId === undefined) {
    void ui.warn(message);
    return true;
  }
  const show = vscode.l10n.t('Show that run');
  const cancel = vscode.l10n.t('Cancel that run');
  void ui.warn(message, show, cancel).then((picked) => {
    if (picked === show) ui.execute('taskPlanner.openRun', runId);
    else if (picked === cancel) ui.execute('taskPlanner.cancelRun', runId);
  });
  return true;
}
