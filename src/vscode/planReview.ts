import * as vscode from 'vscode';
import type { Critique } from '../core/plan/critiquePlan';
import type { Plan } from '../core/plan/planSchema';
import { stepRunnerLabel } from '../core/view/stepRunnerLabel';
import { shownSuggestion } from './shownText';

/**
 * Where the user reviews a plan before it runs: resolves to the plan to start (possibly
 * edited) or `undefined` to cancel. The QuickPick below is the default; the plan panel
 * (webview) can replace it with a richer review.
 */
export type PlanReview = (plan: Plan, critique: Critique, warnings: readonly string[]) => Promise<Plan | undefined>;

/** An item of the review: a step or a finding is information; Start and Cancel act. */
export type ReviewItem = vscode.QuickPickItem & { action?: 'start' | 'cancel' };

/**
 * The default review: a QuickPick with Start / Cancel, the critic's score and findings, and
 * the steps. A plan with a validation error (a blocking finding) offers no Start: the run
 * would refuse it, and the errors are listed first.
 */
export const quickPickPlanReview: PlanReview = async (plan, critique, warnings) => {
  const picker = vscode.window.createQuickPick<ReviewItem>();
  const one = plan.steps.length === 1;
  picker.title = vscode.l10n.t('Task Planner: review the plan (critic score {0}/10)', critique.score);
  picker.placeholder = one
    ? vscode.l10n.t('1 step. {0} Choose Start to run it.', critique.summary)
    : vscode.l10n.t('{0} steps. {1} Choose Start to run it.', plan.steps.length, critique.summary);
  picker.ignoreFocusOut = true;
  picker.matchOnDescription = true;
  picker.items = reviewItems(plan, critique, warnings);
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

/**
 * The review's items: Start (or why it cannot start) and Cancel, then the steps and the critic's findings, the plan's
 * words shown as typed (controls visible, no `$(icon)` of theirs rendered: a plan's title is a model's or a file's).
 */
export function reviewItems(plan: Plan, critique: Critique, warnings: readonly string[]): ReviewItem[] {
  const errors = critique.issues.filter((issue) => issue.blocking);
  const one = plan.steps.length === 1;
  return [
    errors.length === 0
      ? {
          label: vscode.l10n.t('$(play) Start'),
          description: one ? vscode.l10n.t('run 1 step against the workspace') : vscode.l10n.t('run {0} steps against the workspace', plan.steps.length),
          action: 'start',
        }
      : {
          label:
            errors.length === 1
              ? vscode.l10n.t('$(error) Cannot start: an error to fix')
              : vscode.l10n.t('$(error) Cannot start: {0} errors to fix', errors.length),
          description: vscode.l10n.t('to edit the plan, set Task Planner › Review to "panel"; or plan again'),
        },
    { label: vscode.l10n.t('$(close) Cancel'), description: vscode.l10n.t('discard this plan'), action: 'cancel' },
    { label: vscode.l10n.t('Steps'), kind: vscode.QuickPickItemKind.Separator },
    ...plan.steps.map((step, index) => ({
      label: shownSuggestion(`${index + 1}. ${step.title}`),
      description: shownSuggestion(stepRunnerLabel(step)),
      detail: step.dependsOn.length > 0 ? shownSuggestion(vscode.l10n.t('after {0}', step.dependsOn.join(', '))) : undefined,
    })),
    ...(critique.issues.length + warnings.length > 0 ? [{ label: vscode.l10n.t('Critic findings'), kind: vscode.QuickPickItemKind.Separator }] : []),
    ...critique.issues.map((issue) => ({
      label: `$(${issue.severity === 'critical' ? 'error' : issue.severity === 'warning' ? 'warning' : 'info'}) ${shownSuggestion(`${issue.name}: ${issue.message}`, 400)}`,
      detail: issue.recommendation === undefined ? undefined : shownSuggestion(issue.recommendation, 400),
    })),
    ...warnings.map((warning) => ({ label: `$(warning) ${shownSuggestion(warning, 400)}` })),
  ];
}
