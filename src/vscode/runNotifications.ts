import * as vscode from 'vscode';
import type { RunResult } from '../core/engine/runOptions';
import type { RunState } from '../core/engine/runEvents';
import { describeStepProgress, stepProgress } from '../shared/stepProgress';
import type { InterruptedRun } from './runController';

/**
 * After a window reload (or crash) cut a run off: says so and offers Resume (finished
 * steps are not run again) and the Runs view, where the run shows as interrupted.
 */
export async function notifyRunInterrupted(run: InterruptedRun): Promise<void> {
  const choice = await vscode.window.showWarningMessage(
    `Task Planner: the run "${run.objective.slice(0, 120)}" was interrupted when the window closed or reloaded. Resume it? Finished steps are not run again.`,
    'Resume',
    'Show runs',
  );
  if (choice === 'Resume') await vscode.commands.executeCommand('taskPlanner.resumeRun', run.runId);
  if (choice === 'Show runs') await vscode.commands.executeCommand('taskPlanner.runs.focus');
}

/**
 * Tells the user how a run ended, with "Show plan" (and "Show log" when it did not
 * complete), the files it changed and "Undo run" whenever it changed any (`state` is the
 * run's snapshot, folded from its journal).
 */
export function notifyRunFinished(result: RunResult, log: vscode.LogOutputChannel, state?: RunState): void {
  const steps = Object.values(result.steps);
  const summary = describeStepProgress(stepProgress(steps, steps.length));
  const changed = state?.runId === result.runId ? (state.changedFiles ?? []) : [];
  const changes = changed.length === 0 ? '' : ` Changed ${changed.length === 1 ? changed[0] : `${changed.length} files`}.`;
  const actions = [...(changed.length > 0 ? ['Undo run'] : []), 'Show plan', ...(result.status === 'completed' ? [] : ['Show log'])];
  const message =
    result.status === 'completed'
      ? `Task Planner: run completed (${summary}).${changes}`
      : result.status === 'waiting'
        ? `Task Planner: run paused, waiting for you (${summary}). Resume it from the Runs view.`
        : `Task Planner: run ${result.status} (${summary})${result.metadata.reason ? `: ${result.metadata.reason}` : '.'}${changes}`;
  const show = result.status === 'completed' ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  void show(message, ...actions).then((choice) => {
    if (choice === 'Show plan') void vscode.commands.executeCommand('taskPlanner.plan.focus');
    if (choice === 'Show log') log.show(true);
    if (choice === 'Undo run') void vscode.commands.executeCommand('taskPlanner.undoRun', result.runId);
  });
}
