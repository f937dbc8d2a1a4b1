import * as vscode from 'vscode';
import type { Critique } from '../core/plan/critiquePlan';
import type { Plan } from '../core/plan/planSchema';
import { stepRunnerLabel } from '../core/view/stepRunnerLabel';

/**
 * Where the user reviews a plan before it runs: resolves to the plan to start (possibly
 * edited) or `undefined` to cancel. The QuickPick below is the default; the plan panel
 * (webview) can replace it with a richer review.
 */
export type PlanReview = (plan: Plan, critique: Critique, warnings: readonly string[]) => Promise<Plan | undefined>;

type ReviewItem = vscode.QuickPickItem & { action?: 'start' | 'cancel' };

/**
 * The default review: a QuickPick with Start / Cancel, the critic's score and findings, and
 * the steps. A plan with a validation error (a blocking finding) offers no Start: the run
 * would refuse it, and the errors are listed first.
 */
export const quickPickPlanReview: PlanReview = async (plan, critique, warnings) => {
  const errors = critique.issues.filter((issue) => issue.blocking);
  const picker = vscode.window.createQuickPick<ReviewItem>();
  picker.title = `Task Planner: review the plan (critic score ${critique.score}/10)`;
  picker.placeholder = `${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}. ${critique.summary} Choose Start to run it.`;
  picker.ignoreFocusOut = true;
  picker.matchOnDescription = true;
  picker.items = [
    errors.length === 0
      ? { label: '$(play) Start', description: `run ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} against the workspace`, action: 'start' }
      : {
          label: `$(error) Cannot start: ${errors.length === 1 ? 'an error' : `${errors.length} errors`} to fix`,
          description: 'to edit the plan, set Task Planner › Review to "panel"; or plan again',
        },
    { label: '$(close) Cancel', description: 'discard this plan', action: 'cancel' },
    { label: 'Steps', kind: vscode.QuickPickItemKind.Separator },
    ...plan.steps.map((step, index) => ({
      label: `${index + 1}. ${step.title}`,
      description: stepRunnerLabel(step),
      detail: step.dependsOn.length > 0 ? `after ${step.dependsOn.join(', ')}` : undefined,
    })),
    ...(critique.issues.length + warnings.length > 0 ? [{ label: 'Critic findings', kind: vscode.QuickPickItemKind.Separator }] : []),
    ...critique.issues.map((issue) => ({
      label: `$(${issue.severity === 'critical' ? 'error' : issue.severity === 'warning' ? 'warning' : 'info'}) ${issue.name}: ${issue.message}`,
      detail: issue.recommendation,
    })),
    ...warnings.map((warning) => ({ label: `$(warning) ${warning}` })),
  ];
  return new Promise<Plan | undefined>((resolve) => {
    let decided: Plan | undefined;
    picker.onDidAccept(() => {
      const action = picker.selectedItems[0]?.action;
      if (action === undefined) return; // a step or finding: information only
      if (action === 'start') decided = plan;
      picker.hide();
    });
    picker.onDidHide(() => {
      picker.dispose();
      resolve(decided);
    });
    picker.show();
  });
};
