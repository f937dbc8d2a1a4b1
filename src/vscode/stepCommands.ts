import { tellUndo } from './undoAnyway';
import * as vscode from 'vscode';
import { keptChangesOf } from '../core/engine/keptChanges';
import { resultsKeptFrom } from '../core/plan/downstreamSteps';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { PlanTreeNode } from '../core/view/planTreeModel';
import { previewValue } from '../core/view/stepStatusView';
import { loadRuntime } from './loadRuntime';
import { markManualStep } from './manualStepPrompts';
import type { ApprovalQueue } from './approvalQueue';
import type { PendingPrompt, PendingPrompts, PromptKey } from './pendingPrompts';
import type { PlanTreeProvider } from './planTreeProvider';
import { closeProposalDiffs, promptKeyOf } from './proposalDocuments';
import { askFeedback } from './vscodeInteraction';
import { showError, showInformation, showWarning } from './notifications';
import { tellRunInProgress } from './runInProgress';
import { shownLine } from './shownText';
import type { FolderRun, RunController } from './runController';
import { errorMessage } from '../shared/errorMessage';
import { capText } from '../core/text/capText';
import { visibleDirection } from '../core/text/visibleDirection';

/** What the step commands act on (wired in `activate`). */
export interface StepCommandDeps {
  tree: PlanTreeProvider;
  pending: PendingPrompts;
  /** The approval presented (`current`: its diff opened, maybe behind another tab since) and the one on screen (`visible`). */
  approvals: Pick<ApprovalQueue, 'current' | 'visible'>;
  /** The Plan view's selected row, if any (what its key bindings act on). */
  selectedRow: () => PlanTreeNode | undefined;
  runs: RunController;
  log: vscode.LogOutputChannel;
}

/** Where a step command's prompt comes from: the prompt it names, else the step it names (and why no prompt matched). */
interface Aim {
  stepId: string | undefined;
  prompt: PendingPrompt | undefined;
  /** The request the argument named (a diff tab's, the status bar's, the panel's), when it named one. */
  shown?: PromptKey;
  /** Several runs wait on the step and the argument did not say which. */
  ambiguous?: boolean;
  /**
   * The prompt was picked for an argument that shows nothing of it (a tree row shows a step's title, the palette nothing)
   * while another or none is on screen: Approve shows its question instead of answering what the user has not seen.
   */
  unseen?: boolean;
}

/**
 * The step actions of the Plan tree's context menu, the diff editor's title and the
 * status bar: Approve, Reject, Reject with feedback… (an optional second argument is the feedback, else an input box asks), Answer, Mark Done / Mark Failed (a
 * step that is yours to do;
 * an optional second argument is the note or reason, else an input box asks), reopen a
 * dismissed prompt, Retry / Run from here, Undo from here (Run from here and Undo from here also the
 * plan panel's, which names its run with a `PromptKey`), Skip, Open result, and Cancel run. Each takes a
 * tree node (the step of the run the Plan tree shows), a proposal diff's URI or a
 * `PromptKey` (that request of that run), a step id (the current folder's run's request of
 * that step, else the only one), or nothing (then the request of the active proposal diff,
 * or the only waiting one). An answer reaches only the request and run it names: never
 * another run's request of the same step id. A step's run (its result, its changes, the results Run from here
 * keeps) is the run the Plan tree shows, or the one a `PromptKey` names: never the folder's latest run instead.
 */
export function registerStepCommands(deps: StepCommandDeps): vscode.Disposable[] {
  const { pending } = deps;
  /** The only prompt among `candidates`, preferring those of the current folder's run. */
  const onlyOf = (candidates: PendingPrompt[], stepId: string | undefined): Aim => {
    const current = deps.runs.current()?.runId;
    const ofCurrent = candidates.filter((prompt) => current !== undefined && prompt.key.runId === current);
    const chosen = ofCurrent.length === 1 ? ofCurrent : candidates;
    const only = chosen.length === 1 ? chosen[0] : undefined;
    return { stepId: stepId ?? only?.stepId, prompt: only, ambiguous: chosen.length > 1 };
  };
  const ofKey = (key: PromptKey | undefined): Aim =>
    key ? { stepId: key.stepId, prompt: pending.get(key), shown: key } : { stepId: undefined, prompt: undefined };
  const aim = (arg: unknown): Aim => {
    if (typeof arg === 'string') return onlyOf(pending.ofStep(arg), arg);
    if (arg instanceof vscode.Uri) return ofKey(promptKeyOf(arg));
    if (isPromptKey(arg)) return ofKey(arg);
    if (isTreeNode(arg)) {
      const stepId = arg.stepId;
      if (stepId === undefined) return { stepId, prompt: undefined };
      // The run the Plan tree shows, and the request it shows that step waiting on.
      const run = deps.tree.shownRun();
      const requestId = run?.steps[stepId]?.pending?.id;
      const candidates = pending
        .ofStep(stepId)
        .filter((prompt) => run !== undefined && prompt.key.runId === run.runId && (requestId === undefined || prompt.key.requestId === requestId));
      const prompt = candidates.length === 1 ? candidates[0] : undefined;
      return { stepId, prompt, unseen: prompt !== undefined && prompt !== deps.approvals.visible() };
    }
    const shown = promptKeyOf(vscode.window.activeTextEditor?.document.uri) ?? promptKeyOf(activeDiffUri());
    if (shown) return ofKey(shown);
    // Nothing named (the palette, a key binding): the approval on screen, never one still waiting behind it unseen; one
    // presented but covered since (another tab in front of its diff) is shown again first.
    const onScreen = deps.approvals.visible();
    if (onScreen) return { stepId: onScreen.stepId, prompt: onScreen };
    const covered = deps.approvals.current();
    if (covered) return { stepId: covered.stepId, prompt: covered, unseen: true };
    const only = onlyOf(pending.list(), undefined);
    return { ...only, unseen: only.prompt?.kind === 'approval' };
  };
  const target = (arg: unknown): string | undefined => aim(arg).stepId;
  /** What Retry, Run from here and Skip run again: the plan panel's run when it names it, else the Plan tree's plan and run. */
  const rerunSource = async (arg: unknown): Promise<RerunSource> => {
    if (isPromptKey(arg) && arg.runId !== undefined) {
      const run = await deps.runs.stateOf(arg.runId);
      return { plan: run?.plan, run };
    }
    return { plan: deps.tree.currentPlan(), run: deps.tree.shownRun() };
  };
  const stale = async (aimed: Aim): Promise<void> => {
    const { stepId, shown } = aimed;
    if (aimed.ambiguous) {
      return void showWarning(
        stepId === undefined
          ? vscode.l10n.t('Task Planner: several requests are waiting; nothing was answered. Choose one in the Plan tree or in its diff.')
          : vscode.l10n.t(
              'Task Planner: runs of several folders wait on step {0}; nothing was answered. Answer it from its diff, or from the Plan tree of its folder.',
              stepId,
            ),
      );
    }
    // The prompt named (of another kind), else the same run's current request of the step, when the argument named an older one.
    const prompt = aimed.prompt ?? (stepId && shown ? pending.ofStep(stepId).find((candidate) => candidate.key.runId === shown.runId) : undefined);
    if (!prompt) return void showInformation(vscode.l10n.t('Task Planner: no step is waiting for approval.'));
    if (prompt.kind === 'manual') {
      return void showInformation(
        vscode.l10n.t('Task Planner: step {0} is yours to do; nothing was approved. Mark it Done or Failed.', prompt.stepId),
      );
    }
    void showWarning(
      vscode.l10n.t('Task Planner: this diff is not what step {0} asks now; nothing was answered. Its current request is shown.', prompt.stepId),
    );
    await pending.reopen(prompt);
  };
  const manualStale = (aimed: Aim): void => {
    if (aimed.ambiguous) return void stale(aimed);
    void showInformation(vscode.l10n.t('Task Planner: no step is waiting for you to do it.'));
  };
  const markManualTarget = async (aimed: Aim, done: boolean, text: unknown): Promise<void> => {
    const { prompt } = aimed;
    if (prompt?.kind !== 'manual') return manualStale(aimed);
    if (await markManualStep(pending, prompt.key, done, typeof text === 'string' ? text : undefined)) {
      deps.log.info(`Step ${prompt.stepId} marked ${done ? 'done' : 'failed'} by you`);
    }
  };
  return [
    vscode.commands.registerCommand('taskPlanner.approve', async (arg?: unknown) => {
      const aimed = aim(arg);
      const { prompt } = aimed;
      if (prompt?.kind === 'approval' && aimed.unseen === true) {
        // Approved only from what shows it whole (its diff, its dialog): a row or the palette shows it first.
        void showInformation(vscode.l10n.t('Task Planner: step {0} is shown first, so you see what you approve; nothing is approved yet.', prompt.stepId));
        return pending.reopen(prompt);
      }
      if (!prompt || !pending.approve(prompt.key)) return stale(aimed);
      // Answered from away from its diff (the palette, a key, a tree row): say which, since the editor then shows the next one.
      if (prompt.kind === 'approval' && aimed.shown === undefined) {
        const what = loadRuntime().describeApproval(prompt.request).replace(/\?$/, '');
        void showInformation(vscode.l10n.t('Task Planner: approved step {0}: {1}.', prompt.stepId, shownLine(what, 160)));
      }
      deps.log.info(`Step ${prompt.stepId} approved${prompt.key.runId ? ` (run ${prompt.key.runId})` : ''}`);
      await closeProposalDiffs(prompt.key);
    }),
    vscode.commands.registerCommand('taskPlanner.reject', async (arg?: unknown, reason?: string) => {
      const aimed = aim(arg);
      const { prompt } = aimed;
      if (!prompt || !pending.reject(prompt.key, typeof reason === 'string' ? reason : undefined)) return stale(aimed);
      deps.log.info(`Step ${prompt.stepId} rejected${prompt.key.runId ? ` (run ${prompt.key.runId})` : ''}`);
      await closeProposalDiffs(prompt.key);
    }),
    // Ctrl+Alt+Y / Ctrl+Alt+N with the Plan view focused: its selected row, as the row's ✓ and ✗ do (shown first when not on
    // screen); a row that is no step, or none, as the palette (the approval on screen).
    vscode.commands.registerCommand('taskPlanner.approveSelected', () => vscode.commands.executeCommand('taskPlanner.approve', selectedStep(deps))),
    vscode.commands.registerCommand('taskPlanner.rejectSelected', () => vscode.commands.executeCommand('taskPlanner.reject', selectedStep(deps))),
    // Reject with feedback…: the step's agent is told what to do instead and proposes again (a tool step: the words are the
    // rejection's reason); an optional second argument is the feedback.
    vscode.commands.registerCommand('taskPlanner.rejectWithFeedback', async (arg?: unknown, given?: string) => {
      const aimed = aim(arg);
      const { prompt } = aimed;
      if (prompt?.kind !== 'approval') return stale(aimed);
      const feedback = typeof given === 'string' && given.trim() !== '' ? given : await askFeedback(prompt.request);
      if (feedback === undefined) return;
      if (!pending.reject(prompt.key, 'rejected with feedback', feedback)) return stale(aimed);
      deps.log.info(`Step ${prompt.stepId} rejected with feedback${prompt.key.runId ? ` (run ${prompt.key.runId})` : ''}`);
      await closeProposalDiffs(prompt.key);
    }),
    vscode.commands.registerCommand('taskPlanner.answer', async (arg?: unknown, text?: string) => {
      const aimed = aim(arg);
      const { prompt } = aimed;
      if (!prompt) {
        if (aimed.ambiguous) return stale(aimed);
        return void showInformation(vscode.l10n.t('Task Planner: no step is waiting for an answer.'));
      }
      if (typeof text === 'string') pending.answer(prompt.key, text);
      else await pending.reopen(prompt);
    }),
    vscode.commands.registerCommand('taskPlanner.markStepDone', (arg?: unknown, note?: string) => markManualTarget(aim(arg), true, note)),
    vscode.commands.registerCommand('taskPlanner.markStepFailed', (arg?: unknown, reason?: string) => markManualTarget(aim(arg), false, reason)),
    vscode.commands.registerCommand('taskPlanner.showPending', async (arg?: unknown) => {
      const aimed = aim(arg);
      if (aimed.ambiguous && arg !== undefined) return stale(aimed);
      // Nothing named: the current folder's run's oldest prompt, else the oldest (showing answers nothing).
      const current = deps.runs.current()?.runId;
      const prompt =
        aimed.prompt ?? (arg === undefined ? (pending.list().find((candidate) => candidate.key.runId === current) ?? pending.list()[0]) : undefined);
      if (!prompt) return showNothingPending(deps);
      await pending.reopen(prompt);
    }),
    vscode.commands.registerCommand('taskPlanner.retryStep', async (arg?: unknown) => rerun(deps, target(arg), await rerunSource(arg), false)),
    vscode.commands.registerCommand('taskPlanner.runFromHere', async (arg?: unknown) => rerun(deps, target(arg), await rerunSource(arg), false)),
    vscode.commands.registerCommand('taskPlanner.skipStep', async (arg?: unknown) => rerun(deps, target(arg), await rerunSource(arg), true)),
    vscode.commands.registerCommand('taskPlanner.undoFromHere', async (arg?: unknown) => {
      // The plan panel names its own run; the Plan tree and the palette mean the run the tree shows (none for a plan not run).
      const named = isPromptKey(arg) ? arg.runId : undefined;
      const stepId = isTreeNode(arg) ? arg.stepId : target(arg);
      const run = named === undefined ? deps.tree.shownRun() : await deps.runs.stateOf(named);
      if (!stepId || !run?.plan) {
        return void showInformation(vscode.l10n.t('Task Planner: choose a step of a finished run in the Plan tree.'));
      }
      if (run.status === 'running') return void showWarning(vscode.l10n.t('Task Planner: cancel the run before undoing its steps.'));
      const undo = await deps.runs.changes.undoAsked(run.runId, { stepId, plan: run.plan });
      if (!undo) return undefined;
      const { report, text } = undo;
      deps.log.info(`Run ${run.runId}, undo from step ${stepId}: ${text}`);
      const message = vscode.l10n.t('Task Planner: from step {0}: {1}', stepId, text);
      tellUndo(message, report, { runId: run.runId, fromStep: { stepId, plan: run.plan } });
      return undo;
    }),
    vscode.commands.registerCommand('taskPlanner.openResult', async (arg?: unknown) => {
      const stepId = typeof arg === 'string' ? arg : isTreeNode(arg) ? arg.stepId : target(arg);
      // The run the Plan tree shows (one opened from the Runs view while another goes on), not the folder's latest.
      const state = deps.tree.shownRun();
      if (!stepId || !state || !(stepId in state.results)) {
        return void showInformation(vscode.l10n.t('Task Planner: this step has no result yet.'));
      }
      const result = state.results[stepId];
      const content = previewValue(result, 1_000_000);
      const document = await vscode.workspace.openTextDocument({ content, language: resultLanguage(result, content) });
      await vscode.window.showTextDocument(document, { preview: true });
    }),
    vscode.commands.registerCommand('taskPlanner.cancelRun', async (arg?: unknown) => {
      const running = deps.runs.runningRuns();
      // A run named (the button of "a run is already in progress"): that one, if it still goes on.
      if (typeof arg === 'string') {
        if (!deps.runs.cancel(arg)) void showInformation(vscode.l10n.t('Task Planner: that run has ended already.'));
        return;
      }
      if (running.length === 0) return void showInformation(vscode.l10n.t('Task Planner: no run is in progress.'));
      // The run the Plan view shows, when it is going on (the view's Cancel button is beside it); else the only one, else the one picked.
      const shown = deps.tree.shownRun()?.runId;
      if (shown !== undefined && deps.runs.cancel(shown)) return;
      // The Plan view shows another run (one that ended): the run stopped is named and confirmed first.
      const runId = await runToCancel(running, shown !== undefined);
      if (runId !== undefined) deps.runs.cancel(runId);
    }),
  ];
}

/**
 * The language a step's result opens in: Markdown for a text (an agent's answer), JSON where the shown text is JSON, and
 * plain text for a tool's result shown as `key: value` lines (marked as a broken JSON file in Problems otherwise).
 */
function resultLanguage(result: unknown, shown: string): string {
  if (typeof result === 'string') return 'markdown';
  try {
    JSON.parse(shown);
    return 'json';
  } catch {
    return 'plaintext';
  }
}

/** The Plan view's selected row when it is a step's, else `undefined`. */
function selectedStep(deps: StepCommandDeps): PlanTreeNode | undefined {
  const row = deps.selectedRow();
  return row?.stepId === undefined ? undefined : row;
}

/** A Plan tree node (what a tree row's menu passes). */
function isTreeNode(arg: unknown): arg is PlanTreeNode {
  return typeof arg === 'object' && arg !== null && 'children' in arg && 'contextValue' in arg;
}

/** A `PromptKey` (what the status bar and the plan panel pass). */
function isPromptKey(arg: unknown): arg is PromptKey {
  if (typeof arg !== 'object' || arg === null || isTreeNode(arg)) return false;
  const { stepId, requestId, runId } = arg as Partial<Record<keyof PromptKey, unknown>>;
  return typeof stepId === 'string' && (requestId === undefined || typeof requestId === 'string') && (runId === undefined || typeof runId === 'string');
}

/**
 * Which of the `running` runs "Cancel run" stops when the Plan view shows none of them: the only one (asked first when
 * `showsAnother`: the view shows a run that ended, and the one stopped is not in sight), else the one the user picks
 * (`undefined`: none).
 */
async function runToCancel(running: readonly FolderRun[], showsAnother: boolean): Promise<string | undefined> {
  const [only] = running;
  const named = (run: FolderRun | undefined): string => visibleDirection(capText(run?.state?.plan?.objective ?? run?.state?.runId ?? '', 120));
  if (running.length === 1 && !showsAnother) return only?.state?.runId;
  if (running.length === 1) {
    const [keep, stop] = [vscode.l10n.t('Keep it running'), vscode.l10n.t('Stop it')];
    // A dialog that cannot show (the editor's tests refuse them) answers nothing: the run goes on.
    const choice = await showWarning(
      vscode.l10n.t('Stop the run "{0}"?', named(only)),
      { modal: true, detail: vscode.l10n.t('The Plan view shows another run, which has ended. The run stopped can be resumed from the Runs view.') },
      keep,
      stop,
    ).then(undefined, () => undefined);
    return choice === stop ? only?.state?.runId : undefined;
  }
  const picked = await vscode.window.showQuickPick(
    running.map((run) => ({ label: run.folder?.name ?? '', description: named(run), runId: run.state?.runId })),
    { title: vscode.l10n.t('Cancel which run?'), placeHolder: vscode.l10n.t('Runs are in progress in several folders') },
  );
  return picked?.runId;
}

function activeDiffUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
}

/** The plan a step command runs again and the run whose results it keeps (`undefined`: a plan that has not run). */
interface RerunSource {
  plan: Plan | undefined;
  run: RunState | undefined;
}

/**
 * Runs `source`'s plan again from `stepId`, in the folder its run ran in: completed steps of that run outside
 * its downstream keep their results (not re-run); with `skip`, the step is marked skipped first.
 */
async function rerun(deps: StepCommandDeps, stepId: string | undefined, source: RerunSource, skip: boolean): Promise<void> {
  let plan = source.plan;
  if (!stepId || !plan) return void showInformation(vscode.l10n.t('Task Planner: choose a step of the plan.'));
  const folder = source.run && deps.runs.runInfo(source.run.runId)?.folder;
  const busy = folder ? deps.runs.runningRuns().some((running) => running.folder?.uri.toString() === folder.uri.toString()) : deps.runs.isRunning();
  if (busy) {
    return void showWarning(vscode.l10n.t('Task Planner: a run is in progress; cancel it first (Task Planner: Cancel run).'));
  }
  if (skip) {
    const edited = loadRuntime().editPlan(plan, { type: 'skipStep', stepId });
    if (!edited.ok) return void showError(vscode.l10n.t('Task Planner: {0}', edited.error));
    plan = edited.plan;
  }
  // Steps whose changes Undo took back run again: their results tell of files no longer there.
  const undone = source.run ? (await deps.runs.changes.undone(source.run.runId).catch(() => undefined))?.steps : undefined;
  const initialResults = resultsKeptFrom(plan, stepId, source.run?.results ?? {}, undone ?? new Set());
  deps.log.info(`${skip ? 'Skipping' : 'Running again from'} step ${stepId}; ${Object.keys(initialResults).length} completed step(s) kept`);
  deps.tree.setPlan(plan);
  const keptChanges = keptChangesOf(source.run?.steps ?? {}, Object.keys(initialResults));
  await deps.runs.start(plan, { initialResults, keptChanges, ...(folder ? { folder } : {}) }).catch((error: unknown) => {
    if (!tellRunInProgress(error)) void showError(vscode.l10n.t('Task Planner: {0}', errorMessage(error)));
  });
}

/**
 * "Show what the run waits for" with nothing waiting. Without a run but with a plan (a newcomer
 * following the walkthrough before pressing Start), it says how to get there and offers the plan.
 */
async function showNothingPending(deps: StepCommandDeps): Promise<void> {
  // A run that ended waiting for a higher budget asks nothing on screen: what it waits for is said here.
  const budget = Object.values(deps.tree.shownRun()?.steps ?? {}).find((step) => step.pending?.kind === 'budget')?.pending;
  if (budget !== undefined && !deps.runs.isRunning()) {
    void showWarning(vscode.l10n.t('Task Planner: the run waits: {0} Then resume it from the Runs view.', budget.prompt));
    return;
  }
  // A run shown (ended) has no Start to press: only a plan shown before it runs is waiting for one.
  if (deps.runs.isRunning() || !deps.tree.currentPlan() || deps.tree.shownRun() !== undefined) {
    void showInformation(vscode.l10n.t('Task Planner: nothing is waiting for you.'));
    return;
  }
  const show = vscode.l10n.t('Show plan');
  const choice = await showInformation(
    vscode.l10n.t('Task Planner: nothing is waiting for you: no plan is running. Press Start in the plan panel; its changes and commands ask you then.'),
    show,
  );
  if (choice === show) await vscode.commands.executeCommand('taskPlanner.showPlan');
}
