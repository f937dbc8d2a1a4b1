import * as vscode from 'vscode';
import { parsePlan } from '../core/plan/parsePlan';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { PlanPanelController } from './planPanelController';

/**
 * "Show plan": opens the plan panel with the plan in the active editor when that is a
 * `*.plan.json` file, else with the current run (live) or plan; says what to do when
 * there is none.
 */
export async function showPlan(
  panels: PlanPanelController,
  current: { plan: () => Plan | undefined; run: () => RunState | undefined; running: () => boolean },
  log: vscode.LogOutputChannel,
): Promise<void> {
  const document = vscode.window.activeTextEditor?.document;
  if (document && /\.plan\.json$/i.test(document.fileName)) {
    const parsed = parsePlan(document.getText());
    if (!parsed.ok) {
      void vscode.window.showErrorMessage(
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
    const panel = panels.show();
    // A run going on is followed from its latest state; a finished one is shown as it ended.
    if (!panel.isFollowingRun()) panel.showRun(run, current.running());
    return;
  }
  if (plan || panels.panel()) {
    panels.show(plan === panels.panel()?.currentPlan() ? undefined : plan);
    return;
  }
  const planTask = vscode.l10n.t('Plan task');
  const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: there is no plan yet. Describe a task to plan it.'), planTask);
  if (choice === planTask) await vscode.commands.executeCommand('taskPlanner.planTask');
}
