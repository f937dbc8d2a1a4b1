import * as vscode from 'vscode';
import { parsePlan } from '../core/plan/parsePlan';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { PlanPanelFlow } from './planPanelFlow';
import { showError, showInformation, withProgress } from './notifications';

/** What "Show plan" shows when no plan file is the active editor: what the Plan view shows. */
export interface ShownInPlanView {
  /** The plan the Plan view shows. */
  plan: () => Plan | undefined;
  /** The run the Plan view shows (the one opened from the Runs view, else the current folder's), `undefined` while it shows a plan that has not run. */
  run: () => RunState | undefined;
  /** The latest snapshot of the execution the run `runId` is part of while it goes on in the current folder, else `undefined`. */
  executing: (runId: string) => RunState | undefined;
  /**
   * Settles once the Plan view shows what a reload left it (the run the reload cut off) or found there is none. Right after
   * a reload Show plan said "no plan yet" for about three seconds while the run was being shown; it waits for this instead.
   */
  restored?: () => Promise<void>;
  /** Whether runs are kept (the Runs view lists them): with none shown, Show plan points at that view, not "no plan yet". */
  hasRuns?: () => Promise<boolean>;
}

/**
 * "Show plan": opens the plan panel with the plan in the active editor when that is a
 * `*.plan.json` file, else with what the Plan view shows: its run (followed live while it
 * goes on, else as it ended) or its plan; says what to do when there is none.
 */
export async function showPlan(flow: Pick<PlanPanelFlow, 'panels' | 'showRun'>, current: ShownInPlanView, log: vscode.LogOutputChannel): Promise<void> {
  const { panels } = flow;
  const document = vscode.window.activeTextEditor?.document;
  if (document && /\.plan\.json$/i.test(document.fileName)) {
    const parsed = parsePlan(document.getText());
    if (!parsed.ok) {
      void showError(
        vscode.l10n.t('Task Planner: {0} is not a plan: {1}', vscode.workspace.asRelativePath(document.uri), parsed.errors.join(' ')),
      );
      return;
    }
    for (const warning of parsed.warnings) log.warn(`${document.fileName}: ${warning}`);
    panels.show(parsed.plan);
    return;
  }
  if (current.plan() === undefined && !panels.panel() && current.restored) {
    const restored = current.restored;
    await withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Task Planner: loading the last run…') }, () => restored());
  }
  const plan = current.plan();
  const run = current.run();
  if (run?.plan && run.plan.id === plan?.id) {
    const live = current.executing(run.runId);
    // The run opened from the Runs view, not whichever run the panel follows (another of the folder, or of another folder):
    // a run going on is followed from its latest state, a finished one shown as it ended.
    if (live && panels.panel()?.follows(live.runId)) panels.show();
    else flow.showRun(live ?? run, live !== undefined);
    return;
  }
  if (plan || panels.panel()) {
    panels.show(plan === panels.panel()?.currentPlan() ? undefined : plan);
    return;
  }
  const planTask = vscode.l10n.t('Plan task');
  if (await (current.hasRuns?.() ?? Promise.resolve(false)).catch(() => false)) {
    const showRuns = vscode.l10n.t('Show runs');
    const picked = await showInformation(
      vscode.l10n.t('Task Planner: no run or plan is shown. Open one of your runs from the Runs view, or describe a new task to plan it.'),
      showRuns,
      planTask,
    );
    if (picked === showRuns) await vscode.commands.executeCommand('taskPlanner.runs.focus');
    else if (picked === planTask) await vscode.commands.executeCommand('taskPlanner.planTask', { fromNotification: true });
    return;
  }
  const choice = await showInformation(vscode.l10n.t('Task Planner: there is no plan yet. Describe a task to plan it.'), planTask);
  if (choice === planTask) await vscode.commands.executeCommand('taskPlanner.planTask', { fromNotification: true });
}
