import * as vscode from 'vscode';
import { resultsKeptFrom } from '../core/plan/downstreamSteps';
import type { Plan } from '../core/plan/planSchema';
import type { PlanTreeNode } from '../core/view/planTreeModel';
import { previewValue } from '../core/view/stepStatusView';
import { loadRuntime } from './loadRuntime';
import { markManualStep } from './manualStepPrompts';
import type { PendingPrompts } from './pendingPrompts';
import type { PlanTreeProvider } from './planTreeProvider';
import { closeProposalDiffs, requestOf, stepOf } from './proposalDocuments';
import type { FolderRun, RunController } from './runController';
import { errorMessage } from '../shared/errorMessage';
import { capText } from '../core/text/capText';
import { visibleDirection } from '../core/plan/visibleDirection';

/** What the step commands act on (wired in `activate`). */
export interface StepCommandDeps {
  tree: PlanTreeProvider;
  pending: PendingPrompts;
  runs: RunController;
  log: vscode.LogOutputChannel;
}

/**
 * The step actions of the Plan tree's context menu, the diff editor's title and the
 * status bar: Approve, Reject, Answer, Mark Done / Mark Failed (a step that is yours to do;
 * an optional second argument is the note or reason, else an input box asks), reopen a
 * dismissed prompt, Retry / Run from here, Skip, Open result, and Cancel run. Each takes a tree node, a step id, or nothing
 * (then the step of the active proposal diff, or the only waiting one).
 */
export function registerStepCommands(deps: StepCommandDeps): vscode.Disposable[] {
  const { pending } = deps;
  const target = (arg: unknown): string | undefined => {
    if (typeof arg === 'string') return arg;
    if (arg && typeof arg === 'object' && 'stepId' in arg) return (arg as PlanTreeNode).stepId;
    if (arg instanceof vscode.Uri) return stepOf(arg);
    const fromEditor = stepOf(vscode.window.activeTextEditor?.document.uri) ?? stepOf(activeDiffUri());
    if (fromEditor) return fromEditor;
    const waiting = pending.list();
    return waiting.length === 1 ? waiting[0]!.stepId : undefined;
  };
  // The request a diff tab was opened for: an Approve from an old tab must not answer a newer request.
  const shownRequest = (arg: unknown): string | undefined =>
    arg instanceof vscode.Uri
      ? requestOf(arg)
      : arg === undefined
        ? (requestOf(vscode.window.activeTextEditor?.document.uri) ?? requestOf(activeDiffUri()))
        : undefined;
  const stale = async (stepId: string | undefined): Promise<void> => {
    const prompt = stepId ? pending.get(stepId) : undefined;
    if (!prompt) return void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: no step is waiting for approval.'));
    if (prompt.kind === 'manual') {
      return void vscode.window.showInformationMessage(
        vscode.l10n.t('Task Planner: step {0} is yours to do; nothing was approved. Mark it Done or Failed.', prompt.stepId),
      );
    }
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Task Planner: this diff is not what step {0} asks now; nothing was answered. Its current request is shown.', prompt.stepId),
    );
    await prompt.show();
  };
  const markManualTarget = async (stepId: string | undefined, done: boolean, text: unknown): Promise<void> => {
    if (!stepId) return void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: no step is waiting for you to do it.'));
    if (await markManualStep(pending, stepId, done, typeof text === 'string' ? text : undefined)) {
      deps.log.info(`Step ${stepId} marked ${done ? 'done' : 'failed'} by you`);
    }
  };
  return [
    vscode.commands.registerCommand('taskPlanner.approve', async (arg?: unknown) => {
      const stepId = target(arg);
      if (!stepId || !pending.approve(stepId, undefined, shownRequest(arg))) return stale(stepId);
      deps.log.info(`Step ${stepId} approved`);
      await closeProposalDiffs(stepId);
    }),
    vscode.commands.registerCommand('taskPlanner.reject', async (arg?: unknown, reason?: string) => {
      const stepId = target(arg);
      if (!stepId || !pending.reject(stepId, typeof reason === 'string' ? reason : undefined, shownRequest(arg))) return stale(stepId);
      deps.log.info(`Step ${stepId} rejected`);
      await closeProposalDiffs(stepId);
    }),
    vscode.commands.registerCommand('taskPlanner.answer', async (arg?: unknown, text?: string) => {
      const stepId = target(arg);
      const prompt = stepId ? pending.get(stepId) : undefined;
      if (!stepId || !prompt) return void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: no step is waiting for an answer.'));
      if (typeof text === 'string') pending.answer(stepId, text);
      else await prompt.show();
    }),
    vscode.commands.registerCommand('taskPlanner.markStepDone', (arg?: unknown, note?: string) => markManualTarget(target(arg), true, note)),
    vscode.commands.registerCommand('taskPlanner.markStepFailed', (arg?: unknown, reason?: string) => markManualTarget(target(arg), false, reason)),
    vscode.commands.registerCommand('taskPlanner.showPending', async (arg?: unknown) => {
      const stepId = target(arg) ?? pending.list()[0]?.stepId;
      const prompt = stepId ? pending.get(stepId) : undefined;
      if (!prompt) return showNothingPending(deps);
      await prompt.show();
    }),
    vscode.commands.registerCommand('taskPlanner.retryStep', (arg?: unknown) => rerun(deps, target(arg), false)),
    vscode.commands.registerCommand('taskPlanner.runFromHere', (arg?: unknown) => rerun(deps, target(arg), false)),
    vscode.commands.registerCommand('taskPlanner.skipStep', (arg?: unknown) => rerun(deps, target(arg), true)),
    vscode.commands.registerCommand('taskPlanner.openResult', async (arg?: unknown) => {
      const stepId = target(arg);
      const state = deps.runs.current();
      if (!stepId || !state || !(stepId in state.results)) {
        return void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: this step has no result yet.'));
      }
      const result = state.results[stepId];
      const document = await vscode.workspace.openTextDocument({
        content: previewValue(result, 1_000_000),
        language: typeof result === 'string' ? 'markdown' : 'json',
      });
      await vscode.window.showTextDocument(document, { preview: true });
    }),
    vscode.commands.registerCommand('taskPlanner.cancelRun', async () => {
      const running = deps.runs.runningRuns();
      if (running.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: no run is in progress.'));
      const runId = await runToCancel(running, deps.runs.folder());
      if (runId !== undefined) deps.runs.cancel(runId);
    }),
  ];
}

/**
 * Which of the `running` runs "Cancel run" stops: the only one; else the run of the active editor's
 * folder, else of the current folder; else the one the user picks (`undefined`: none was picked).
 */
async function runToCancel(running: readonly FolderRun[], current: vscode.WorkspaceFolder | undefined): Promise<string | undefined> {
  const [only] = running;
  if (running.length === 1) return only?.state?.runId;
  const active = vscode.window.activeTextEditor?.document.uri;
  const editorFolder = active && vscode.workspace.getWorkspaceFolder(active);
  for (const folder of [editorFolder, current]) {
    const match = folder && running.find((run) => run.folder?.uri.toString() === folder.uri.toString());
    if (match) return match.state?.runId;
  }
  const picked = await vscode.window.showQuickPick(
    running.map((run) => ({
      label: run.folder?.name ?? '',
      description: visibleDirection(capText(run.state?.plan?.objective ?? run.state?.runId ?? '', 120)),
      runId: run.state?.runId,
    })),
    { title: vscode.l10n.t('Cancel which run?'), placeHolder: vscode.l10n.t('Runs are in progress in several folders') },
  );
  return picked?.runId;
}

function activeDiffUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
}

/**
 * Runs the plan again from `stepId`: completed steps outside its downstream keep their
 * results (not re-run); with `skip`, the step is marked skipped first.
 */
async function rerun(deps: StepCommandDeps, stepId: string | undefined, skip: boolean): Promise<void> {
  let plan: Plan | undefined = deps.tree.currentPlan();
  if (!stepId || !plan) return void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: choose a step of the plan.'));
  if (deps.runs.isRunning()) {
    return void vscode.window.showWarningMessage(vscode.l10n.t('Task Planner: a run is in progress; cancel it first (Task Planner: Cancel run).'));
  }
  if (skip) {
    const edited = loadRuntime().editPlan(plan, { type: 'skipStep', stepId });
    if (!edited.ok) return void vscode.window.showErrorMessage(vscode.l10n.t('Task Planner: {0}', edited.error));
    plan = edited.plan;
  }
  const initialResults = resultsKeptFrom(plan, stepId, deps.runs.current()?.results ?? {});
  deps.log.info(`${skip ? 'Skipping' : 'Running again from'} step ${stepId}; ${Object.keys(initialResults).length} completed step(s) kept`);
  deps.tree.setPlan(plan);
  await deps.runs.start(plan, { initialResults }).catch((error: unknown) => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Task Planner: {0}', errorMessage(error)));
  });
}

/**
 * "Show what the run waits for" with nothing waiting. Without a run but with a plan (a newcomer
 * following the walkthrough before pressing Start), it says how to get there and offers the plan.
 */
async function showNothingPending(deps: StepCommandDeps): Promise<void> {
  if (deps.runs.isRunning() || !deps.tree.currentPlan()) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Task Planner: nothing is waiting for you.'));
    return;
  }
  const show = vscode.l10n.t('Show plan');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Task Planner: nothing is waiting for you: no plan is running. Press Start in the plan panel; its changes and commands ask you then.'),
    show,
  );
  if (choice === show) await vscode.commands.executeCommand('taskPlanner.showPlan');
}
