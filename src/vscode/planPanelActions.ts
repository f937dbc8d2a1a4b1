import * as vscode from 'vscode';
import type { BudgetLimits } from '../core/llm/budget';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import type { RunResult } from '../core/engine/runOptions';
import type { RunEvent } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import { tellUndo } from './undoAnyway';
import { showRunChangeCommand } from './runChangeDiff';
import type { RunUndo } from './runUndo';
import { markManualStep } from './manualStepPrompts';
import { showInformation } from './notifications';
import type { PendingPrompt, PendingPrompts, PromptKey } from './pendingPrompts';
import type { PanelActionHandlers, PanelActionType, PlanPanel } from './planPanel';
import type { PanelSession } from '../core/view/panelSession';
import type { WebviewMessage } from '../shared/panelProtocol';
import type { PlanTreeProvider } from './planTreeProvider';
import type { ExecutionEvent } from './executionEvent';
import { errorMessage } from '../shared/errorMessage';
import type { UndoneChanges } from '../core/tools/undoneChanges';

/** What the panel needs of the editor's runs: the `RunController`, seen by this role. */
export interface PanelRuns {
  /** Runs `plan` with the setup from the settings; resolves when the run ends, rejects when it cannot start. */
  start(plan: Plan): Promise<RunResult>;
  /** The budget of the next run that starts, over the settings' (Start's "Stop at" from the estimate); `undefined` clears it. */
  limitNextRun(limits: BudgetLimits | undefined): void;
  /** Cancels the execution the run `runId` is part of, in whichever folder it goes on; false when it does not execute. */
  cancel(runId: string): boolean;
  /** What its runs changed, Undo of it, and each Undo (the panel's, the Plan tree's, the Runs view's: the panel shows what of its run is undone). */
  readonly changes: {
    /** Undo of the whole run, once the user confirmed it; `undefined` when they kept its changes. */
    undoAsked(runId: string): Promise<RunUndo | undefined>;
    changedFiles(runId: string): Promise<string[]>;
    /** What Undo has taken back of the run so far. */
    undone(runId: string): Promise<UndoneChanges>;
    readonly onDidUndo: vscode.Event<RunUndo>;
  };
  /** The current folder: where a plan reviewed in the panel runs unless it was made for another. */
  folder(): vscode.WorkspaceFolder | undefined;
  /** The run `runId`'s folder, when this window knows the run. */
  runInfo(runId: string): { folder: vscode.WorkspaceFolder | undefined } | undefined;
  /** The stored run `runId`'s step output events, read from its journals (`RunController.storedOutput`). */
  storedOutput(runId: string): Promise<RunEvent[]>;
  /** Every event of every folder's execution, with the one state the runner folded from it and the execution's run ids. */
  readonly onDidExecutionEvent: vscode.Event<ExecutionEvent>;
  readonly onDidFinish: vscode.Event<RunResult>;
  /** The workspace's instructions and skills as last read, for the review; `undefined` before the first reading. */
  knownCapabilities(): CapabilityCatalogue | undefined;
  /** Reads the workspace's instructions and skills again (then `knownCapabilities` holds them). */
  capabilities(): Promise<CapabilityCatalogue>;
}

/** What the panel's actions work with (wired by `createPlanPanelFlow`). */
export interface PanelActionDeps {
  runs: PanelRuns;
  pending: PendingPrompts;
  tree: PlanTreeProvider;
  /** Plans again with the user's feedback (the next version), or `undefined` when cancelled. */
  regenerate: (feedback: string, plan: Plan) => Promise<Plan | undefined>;
  /** Why Regenerate is not offered now (no model), or `undefined`. */
  regenerateBlockedReason: () => string | undefined;
  /** Ends the review "Plan task" waits for, with the plan to start or `undefined`: true when one was waiting. */
  decideReview: (plan: Plan | undefined) => boolean;
  log: vscode.LogOutputChannel;
}

/**
 * What each user action in the plan panel does, in the editor: edits and versions go through
 * the panel's session and the Plan tree follows them; Start runs through the same
 * `RunController` as the rest of the editor (or ends the review "Plan task" waits for);
 * a pending prompt's button reopens the editor prompt; Undo restores from the run's checkpoints.
 */
export function planPanelActions(deps: PanelActionDeps): PanelActionHandlers {
  const { runs, pending, tree, log } = deps;
  // Runs whose Undo (all of it, or from a step) is under way from the panel: a second click does not undo them again meanwhile.
  const undoing = new Set<string>();
  const undoOnce = async (runId: string, panel: PlanPanel, undo: () => Promise<void>): Promise<void> => {
    if (undoing.has(runId)) return panel.notify('info', vscode.l10n.t('Undo of this run is already under way: wait for what it says.'));
    undoing.add(runId);
    try {
      await undo();
    } finally {
      undoing.delete(runId);
    }
  };
  // Runs a Resume or a Run from here of which is starting a new execution (until its command settles): a second click
  // does not start another meanwhile.
  const goingOn = new Set<string>();
  const goOnOnce = (runId: string, panel: PlanPanel, command: string, argument: unknown, sayErrors: boolean): void => {
    if (goingOn.has(runId)) return panel.notify('info', vscode.l10n.t('This run is already being resumed or run again: the panel shows it once it starts.'));
    goingOn.add(runId);
    // Not awaited: the command settles when the run ends, and the panel follows it meanwhile (Resume says its own errors).
    vscode.commands.executeCommand(command, argument).then(
      () => goingOn.delete(runId),
      (error: unknown) => {
        goingOn.delete(runId);
        if (sayErrors) panel.notify('error', errorMessage(error));
      },
    );
  };
  // Each review action names the plan version it was made on, each run action the run: one about what the panel no
  // longer shows (a message sent before a switch, an older page's) is refused before it acts (`refusingMoved`).
  return refusingMoved({
    // A form's edit is answered: the form closes only once it was taken (a newer version alone may be another's change).
    edit: ({ edit, request }, panel) => {
      const answer = (taken: boolean): void => (request === undefined ? undefined : panel.answerEdit(request, taken));
      const before = panel.session.currentPlan()?.steps.map((step) => step.id);
      const result = panel.session.applyEdit(edit);
      if (!result.ok) {
        panel.notify('error', result.error);
        return answer(false);
      }
      tree.setPlan(result.plan);
      panel.refresh();
      answer(true);
      // A dependency on a step listed below moved the step after it (`editPlan`): said, as the list changed under the user.
      const after = result.plan.steps.map((step) => step.id);
      if (edit.type === 'updateStep' && before !== undefined && before.some((id, index) => after[index] !== id)) {
        const text = vscode.l10n.t('Step {0} now comes after the steps it depends on: steps are listed in an order they can run in.', edit.stepId);
        panel.notify('info', text, true);
      }
    },
    regenerate: async ({ feedback }, panel) => {
      const { session } = panel;
      const plan = session.currentPlan();
      // A second Regenerate (a stale page, a forged message) would ask the planner again and race the first.
      if (session.isRegenerating()) return panel.notify('error', vscode.l10n.t('Regenerate is already under way: wait for its plan, then ask again.'));
      session.setRegenerateBlocked(deps.regenerateBlockedReason());
      const blocked = session.regenerateBlockedReason();
      if (!plan || blocked !== undefined) {
        panel.refresh();
        return panel.notify('error', blocked ?? vscode.l10n.t('There is no plan to regenerate.'));
      }
      session.setRegenerating(true);
      panel.refresh();
      try {
        const next = await deps.regenerate(feedback, plan);
        // The panel moved on meanwhile (closed, another plan shown, a run followed): the result would replace what it shows now.
        if (panel.isDisposed || !session.awaitsRegenerated(plan)) return regeneratedTooLate(panel, next !== undefined);
        if (next) {
          const shown = session.setRegenerated(next, feedback);
          tree.setPlan(shown);
          panel.notify(
            'info',
            vscode.l10n.t('Regenerated: version {0} replaces version {1}. Every earlier version stays in the version list.', shown.version, plan.version),
          );
        } else {
          session.setRegenerating(false);
        }
      } catch (error) {
        if (panel.isDisposed || !session.awaitsRegenerated(plan)) return regeneratedTooLate(panel, false);
        session.setRegenerating(false);
        panel.notify('error', vscode.l10n.t('Regenerating failed: {0}', errorMessage(error)));
      }
      panel.refresh();
    },
    restoreVersion: ({ version }, panel) => {
      const result = panel.session.restoreVersion(version);
      if (!result.ok) return panel.notify('error', result.error);
      tree.setPlan(result.plan);
      panel.notify('info', vscode.l10n.t('Version {0} is back, as version {1}.', version, result.plan.version));
      panel.refresh();
    },
    viewVersion: ({ version }, panel) => {
      const result = panel.session.viewVersion(version);
      if (!result.ok) return panel.notify('error', result.error);
      panel.refresh();
    },
    setUpModel: async (_message, panel) => {
      await vscode.commands.executeCommand('taskPlanner.setUpModel');
      // the snapshot re-reads whether a model is available now
      panel.refresh();
    },
    start: (message, panel) => {
      const blocked = panel.session.startBlockedReason();
      const plan = panel.session.currentPlan();
      if (blocked !== undefined || !plan) return panel.notify('error', blocked ?? vscode.l10n.t('There is no plan to start.'));
      // Start approves what the user saw: a plan edited, regenerated or replaced after that snapshot is not started;
      // and starts it once: a second Start from the same snapshot (a double click) starts no second run.
      const taken = panel.session.takeStart(message.version);
      if (!taken.ok && taken.reason === 'pressed') {
        panel.notify('info', vscode.l10n.t('Start was already pressed on this version: its run is starting. If no run shows, press Start again.'));
        // A run that did not go through (its notice says why) may be started again from the snapshot this posts.
        return panel.refresh();
      }
      if (!taken.ok || taken.plan !== plan) {
        return panel.notify(
          'error',
          vscode.l10n.t(
            'The plan changed after you pressed Start; nothing was started. Look over version {0} as shown now, then press Start again.',
            plan.version,
          ),
        );
      }
      runs.limitNextRun(message.stopAtEstimate === true ? panel.session.estimateBudget() : undefined);
      tree.setPlan(plan);
      // "Plan task" is waiting for this review: it starts the run itself.
      if (deps.decideReview(plan)) return;
      // The run goes on after the click: its events reach the panel through the controller.
      runs.start(plan).catch((error: unknown) => {
        log.error(`Plan panel: the run did not go through: ${errorMessage(error)}`);
        panel.notify('error', vscode.l10n.t('The run did not go through: {0}', errorMessage(error)));
        // Start again goes from the snapshot this posts (the one pressed is used up).
        if (!panel.isDisposed) panel.refresh();
      });
    },
    // Cancel of the review closes the panel; never when it shows a run or another plan since (its own Cancel run stops that).
    cancelReview: (_message, panel) => {
      deps.decideReview(undefined);
      panel.dispose();
    },
    // The run the panel follows, in whichever folder it goes on: never the current folder's run, nor a run shown since.
    cancelRun: ({ runId }, panel) => {
      // The run shown, by its id: whichever folder it goes on in this window.
      if (runs.cancel(runId)) return;
      panel.notify(
        'info',
        panel.session.isRunning()
          ? vscode.l10n.t('Nothing was cancelled: this run does not go on in this window.')
          : vscode.l10n.t('The run had already ended; nothing was cancelled.'),
      );
    },
    // The panel's run's request of the step: never another folder's run waiting on a step of the same id.
    openApproval: async ({ stepId }, panel) => {
      const prompt = promptOfPanelRun(pending, stepId, panel.session.runId());
      if (prompt) return pending.reopen(prompt);
      await showInformation(
        vscode.l10n.t(
          'Task Planner: step {0} is not waiting for you now. A run that was interrupted asks again when you resume it from the Runs view.',
          stepId,
        ),
      );
    },
    markManualStep: async ({ stepId, done }, panel) => {
      const prompt = promptOfPanelRun(pending, stepId, panel.session.runId());
      if (!prompt) return void showInformation(vscode.l10n.t('Task Planner: step {0} is not waiting for you to do it.', stepId));
      if (await markManualStep(pending, prompt.key, done)) log.info(`Step ${stepId} marked ${done ? 'done' : 'failed'} by you in the plan panel`);
    },
    openFile: async ({ path }, panel) => {
      // A path of the panel's run is in that run's folder, whichever folder is current.
      const runId = panel.session.runId();
      const folder = (runId === undefined ? undefined : runs.runInfo(runId)?.folder) ?? runs.folder() ?? vscode.workspace.workspaceFolders?.[0];
      if (!folder || path.split(/[\\/]/).includes('..')) return panel.notify('error', vscode.l10n.t('Cannot open {0}: it is not inside the workspace.', path));
      // A file of the run's changed files shows what the run changed in it; any other opens.
      if (runId !== undefined && (await runs.changes.changedFiles(runId)).includes(path)) {
        return void (await vscode.commands.executeCommand(showRunChangeCommand, runId, path));
      }
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, path), { preview: true });
    },
    // The commands act on the panel's plan: the panel is in front while its button is clicked.
    savePlanFile: async () => {
      await vscode.commands.executeCommand('taskPlanner.savePlanAsFile');
    },
    exportMarkdown: async () => {
      await vscode.commands.executeCommand('taskPlanner.exportPlanMarkdown');
    },
    undoRun: async ({ runId }, panel) => {
      if (panel.session.isRunning()) return panel.notify('error', vscode.l10n.t('Only a finished run can be undone.'));
      await undoOnce(runId, panel, async () => {
        // The flow shows the outcome in the run's summary, beside the Undo run that asked for it (`onDidUndo`): a notice
        // at the top said it a second time (a trial).
        const undo = await runs.changes.undoAsked(runId);
        // Kept: the user chose to keep the run's changes, and the panel stays as it was.
        if (!undo) return;
        const { report, text: message } = undo;
        log.info(`Run ${runId}: ${message}`);
        // The files changed since the run can be undone anyway, each after its diff (a question the panel cannot hold).
        if (report.overwritable.length > 0) tellUndo(vscode.l10n.t('Task Planner: {0}', message), report, { runId });
        panel.refresh();
      });
    },
    // The Runs view's command on the panel's run (a newcomer, told "resume it to go on" after a reload, found no button).
    resumeRun: async ({ runId }, panel) => {
      if (panel.session.isRunning()) return panel.notify('error', vscode.l10n.t('Only a run that stopped can be resumed.'));
      goOnOnce(runId, panel, 'taskPlanner.resumeRun', runId, false);
    },
    // The Plan tree's command, aimed at the panel's run: it says what it restored and what it left alone.
    undoFromHere: async ({ runId, stepId }, panel) => {
      if (panel.session.isRunning()) return panel.notify('error', vscode.l10n.t('Only a finished run can be undone.'));
      const key: PromptKey = { runId, stepId, requestId: undefined };
      await undoOnce(runId, panel, async () => void (await vscode.commands.executeCommand('taskPlanner.undoFromHere', key)));
    },
    // The Plan tree's command, aimed at the panel's run: a new run of its plan keeping the results of the steps that do not
    // depend on this one. Not awaited: the command settles when that run ends, and the panel must go on taking messages
    // (its approvals) meanwhile.
    runFromHere: ({ runId, stepId }, panel) => {
      if (panel.session.isRunning()) return panel.notify('error', vscode.l10n.t('Wait for the run to end, or cancel it, before running steps again.'));
      const key: PromptKey = { runId, stepId, requestId: undefined };
      goOnOnce(runId, panel, 'taskPlanner.runFromHere', key, true);
    },
  });
}

/**
 * Why `message`, made on what the webview showed (a plan's version, a run), must not act now: the panel shows something
 * else since (`PanelSession.reviewMoved`, `runMoved`); `undefined` for one that may act, or that names nothing shown.
 */
function movedSince(message: WebviewMessage<PanelActionType>, session: PanelSession): string | undefined {
  if ('runId' in message) return session.runMoved(message.runId);
  if (!('plan' in message)) return undefined;
  if (message.type !== 'cancelReview') return session.reviewMoved(message.plan);
  // Cancel ends the review whichever version of the plan it shows.
  const moved = session.reviewMoved(message.plan, 'review');
  return moved === undefined ? undefined : vscode.l10n.t('Cancel was for the plan you reviewed. {0}', moved);
}

/** `handlers`, each refusing, saying why, a message about what the panel no longer shows (`movedSince`) before it acts. */
function refusingMoved(handlers: PanelActionHandlers): PanelActionHandlers {
  const guard =
    (handler: (message: WebviewMessage<PanelActionType>, panel: PlanPanel) => void | Promise<void>) =>
    (message: WebviewMessage<PanelActionType>, panel: PlanPanel): void | Promise<void> => {
      const moved = movedSince(message, panel.session);
      if (moved === undefined) return handler(message, panel);
      // The form that sent an edit waits for its answer: refused, it keeps what was typed.
      if (message.type === 'edit' && message.request !== undefined) panel.answerEdit(message.request, false);
      panel.notify('error', moved);
    };
  return Object.fromEntries(Object.entries(handlers).map(([type, handler]) => [type, guard(handler as Parameters<typeof guard>[0])])) as PanelActionHandlers;
}

/** A Regenerate that ended after the panel moved on: its plan (`made`) is not shown, and an open panel says so. */
function regeneratedTooLate(panel: PlanPanel, made: boolean): void {
  if (panel.isDisposed) return;
  if (made) panel.notify('info', vscode.l10n.t('The regenerated plan was not shown: the panel shows another plan or a run now.'));
  panel.refresh();
}

/** The prompt the run `runId` (the one the panel shows) waits on for `stepId`: a run waits on one request per step at a time. */
function promptOfPanelRun(pending: PendingPrompts, stepId: string, runId: string | undefined): PendingPrompt | undefined {
  return runId === undefined ? undefined : pending.ofStep(stepId).find((prompt) => prompt.key.runId === runId);
}
