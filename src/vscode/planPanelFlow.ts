import * as vscode from 'vscode';
import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { RunResult } from '../core/engine/runOptions';
import type { Critique } from '../core/plan/critiquePlan';
import type { Plan } from '../core/plan/planSchema';
import type { ReplanRecord } from '../core/replan/executeWithReplanning';
import { describeUndo } from '../core/tools/describeUndo';
import type { UndoReport } from '../core/tools/undoRun';
import { markManualStep } from './manualStepPrompts';
import type { PendingPrompts } from './pendingPrompts';
import type { PlanPanelCallbacks } from './planPanelCallbacks';
import type { PlanPanelController } from './planPanelController';
import type { PlanReview } from './planReview';
import type { PlanTreeProvider } from './planTreeProvider';

/** What the panel needs of the editor's runs: the `RunController`, seen by this role. */
export interface PanelRuns {
  /** Runs `plan` with the setup from the settings; resolves when the run ends, rejects when it cannot start. */
  start(plan: Plan): Promise<RunResult>;
  cancel(): void;
  isRunning(): boolean;
  current(): RunState | undefined;
  undo(runId: string): Promise<UndoReport>;
  changedFiles(runId: string): Promise<string[]>;
  readonly onDidRunEvent: vscode.Event<{ event: RunEvent; state: RunState }>;
  readonly onDidFinish: vscode.Event<RunResult>;
}

/** What the panel's flow works with (wired in `activate`). */
export interface PlanPanelFlowDeps {
  panels: PlanPanelController;
  runs: PanelRuns;
  pending: PendingPrompts;
  tree: PlanTreeProvider;
  /** Plans again with the user's feedback (the next version), or `undefined` when cancelled. */
  regenerate: (feedback: string, plan: Plan) => Promise<Plan | undefined>;
  /** Why Regenerate is not offered now (no model), or `undefined`. */
  regenerateBlockedReason: () => string | undefined;
  log: vscode.LogOutputChannel;
}

/** The plan panel joined to the editor's run flow. */
export interface PlanPanelFlow extends vscode.Disposable {
  /** The panel's actions: Start, Cancel, Regenerate, open a prompt, Undo, edits. */
  callbacks: PlanPanelCallbacks;
  /** "Plan task"'s review in the panel: resolves with the plan the user started, or `undefined`. */
  review: PlanReview;
}

/**
 * Joins the plan panel to the same `RunController`, prompts and Plan tree as the rest of
 * the editor: Start runs through the controller (approvals open the diff editor, questions
 * the QuickPick), the panel follows whichever run the controller executes (started from the
 * panel, the review QuickPick, Retry in the tree or Resume in the Runs view) unless it is
 * reviewing a different plan, a pending prompt's button reopens the editor prompt, and
 * Undo restores from the controller's checkpoints.
 */
export function createPlanPanelFlow(deps: PlanPanelFlowDeps): PlanPanelFlow {
  const { panels, runs, pending, tree, log } = deps;
  let reviewing: { resolve: (plan: Plan | undefined) => void } | undefined;
  const decide = (plan: Plan | undefined): boolean => {
    const waiting = reviewing;
    reviewing = undefined;
    waiting?.resolve(plan);
    return waiting !== undefined;
  };

  const callbacks: PlanPanelCallbacks = {
    onStart: async (plan) => {
      tree.setPlan(plan);
      // "Plan task" is waiting for this review: it starts the run itself.
      if (decide(plan)) return;
      // The run goes on after the click: its events reach the panel through the controller.
      runs.start(plan).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`Plan panel: the run did not go through: ${message}`);
        panels.panel()?.notify('error', `The run did not go through: ${message}`);
      });
    },
    onCancel: () => {
      const panel = panels.panel();
      const active = runs.current();
      if (runs.isRunning() && active && panel?.followsRun(active.runId)) return runs.cancel();
      decide(undefined);
      panel?.dispose();
    },
    onRegenerate: (feedback, plan) => deps.regenerate(feedback, plan),
    regenerateBlockedReason: () => deps.regenerateBlockedReason(),
    onOpenApproval: async (stepId) => {
      const prompt = pending.get(stepId);
      if (prompt) return prompt.show();
      await vscode.window.showInformationMessage(`Task Planner: step ${stepId} is not waiting for you now. A run that was interrupted asks again when you resume it from the Runs view.`);
    },
    onMarkManualStep: async (stepId, done) => {
      if (await markManualStep(pending, stepId, done)) log.info(`Step ${stepId} marked ${done ? 'done' : 'failed'} by you in the plan panel`);
    },
    onUndoRun: async (runId) => {
      const report = await runs.undo(runId);
      log.info(`Run ${runId}: ${describeUndo(report)}`);
      return describeUndo(report);
    },
    onPlanEdited: (plan) => tree.setPlan(plan),
  };

  const review = (plan: Plan, _critique: Critique, warnings: readonly string[]): Promise<Plan | undefined> => {
    decide(undefined);
    const panel = panels.show(plan);
    if (warnings.length > 0) panel.notify('info', `The planner warned: ${warnings.join(' ')}`);
    return new Promise<Plan | undefined>((resolve) => {
      reviewing = { resolve };
      const closed = panel.onDidDispose(() => {
        closed.dispose();
        decide(undefined);
      });
    });
  };

  const subscriptions = [
    runs.onDidRunEvent(({ event, state }) => {
      const panel = panels.panel();
      if (!panel) return;
      if (panel.followsRun(event.runId)) return panel.onRunEvent(event);
      if (event.type !== 'run_started' && event.type !== 'run_resumed') return;
      const shown = panel.currentPlan();
      // Leave a review of another plan alone; any other panel follows the new run.
      if (panel.isReviewing() && shown && shown.id !== state.plan?.id) return;
      panel.attachRun(event.runId, state);
    }),
    runs.onDidFinish(async (result) => {
      const panel = panels.panel();
      if (!panel?.followsRun(result.runId)) return;
      try {
        const changedFiles = await runs.changedFiles(result.runId);
        // The engine keeps repairs opaque; executeWithReplanning, which the controller runs, fills them.
        const replans = result.metadata.replanHistory as ReplanRecord[];
        panel.setRunDetails({ changedFiles, replans, ...(result.metadata.llmUsage ? { usage: result.metadata.llmUsage } : {}) });
      } catch (error) {
        log.warn(`Plan panel: could not read what run ${result.runId} changed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  ];

  return {
    callbacks,
    review,
    dispose: () => {
      decide(undefined);
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
