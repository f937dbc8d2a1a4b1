import * as vscode from 'vscode';
import { parsePlan } from '../core/plan/parsePlan';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { PlanPanelFlow } from './planPanelFlow';
import { showError, showInformation } from './notifications';

/** What "Show plan" shows when no plan file is the active editor: what the Plan view shows. */
export interface ShownInPlanView {
  /** The plan the Plan view shows. */
  plan: () => Plan | undefined;
  /** The run the Plan view shows (the one opened from the Runs view, else the current folder's), `undefined` while it shows a plan that has not run. */
  run: () => RunState | undefined;
  /** The latest snapshot of the execution the run `runId` is part of while it goes on in the current folder, else `undefined`. */
  executing: (runId: string) => RunState | undefined;
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
  const choice = await showInformation(vscode.l10n.t('Task Planner: there is no plan yet. Describe a task to plan it.'), planTask);
  if (choice === planTask) await vscode.commands.executeCommand('taskPlanner.planTask');
}
