import * as vscode from 'vscode';
import type { EstimateSetup } from '../core/view/panelSession';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import type { Critique } from '../core/plan/critiquePlan';
import type { Plan } from '../core/plan/planSchema';
import type { ApprovalSetting } from '../core/plan/stepApproval';
import type { Tool } from '../core/tools/tool';
import type { PanelTraffic, PlanPanel } from './planPanel';
import type { RunState } from '../core/engine/runEvents';
import { planPanelActions, type PanelActionDeps } from './planPanelActions';
import { PlanPanelController } from './planPanelController';
import type { PlanReview } from './planReview';
import { errorMessage } from '../shared/errorMessage';

/**
 * What may change the workspace's instructions and skills: the catalogue's files, and a skill's
 * or instructions folder (one created together with its files can be reported as the folder alone).
 */
const catalogueFiles = '**/{AGENTS.md,CLAUDE.md,copilot-instructions.md,*.instructions.md,SKILL.md,skills/*,instructions/**}';

/** What the panel's flow works with (wired in `activate`). */
export interface PlanPanelFlowDeps extends Omit<PanelActionDeps, 'decideReview'> {
  extensionUri: vscode.Uri;
  /** The tools runs get now: the review validates against them (read at each snapshot). */
  tools: () => readonly Tool[];
  /** Wraps what each panel reports of its messages; default: the log alone. */
  traffic?: (logged: PanelTraffic) => PanelTraffic;
  /** The approval policy and workspace trust a run would have now: the review marks each step by what it will do. */
  approvalSetting: () => ApprovalSetting;
  /** The model setup a run would have now, `undefined` without a model: the review's estimate. */
  estimateSetup?: () => EstimateSetup | undefined;
}

/** The plan panel joined to the editor's run flow. */
export interface PlanPanelFlow extends vscode.Disposable {
  /** Opens, finds and closes the panel. */
  panels: PlanPanelController;
  /**
   * Opens the panel showing the run `state`: followed when `live`, else as it ended, with the files it changed and what
   * Undo took back of it, read from its checkpoints (a run opened again after Undo showed its files as changed, and Undo).
   */
  showRun(state: RunState, live: boolean): PlanPanel;
  /** `showRun` when the panel is open, neither reviewing a plan nor following a run going on: a run opened in the Runs view shows there too. */
  showRunIfOpen(state: RunState, live: boolean): void;
  /** "Plan task"'s review in the panel: resolves with the plan the user started, or `undefined`. */
  review: PlanReview;
}

/**
 * Joins the plan panel to the same `RunController`, prompts and Plan tree as the rest of
 * the editor: Start runs through the controller (approvals open the diff editor, questions
 * the QuickPick), the panel follows whichever run starts in the current folder (from the
 * panel, the review QuickPick, Retry in the tree or Resume in the Runs view) unless it is
 * reviewing a different plan, and follows that run's execution to its end whichever folder
 * is current meanwhile (its repair runs included, never another folder's run); a pending
 * prompt's button reopens the editor prompt, and Undo restores from the controller's checkpoints.
 */
export function createPlanPanelFlow(deps: PlanPanelFlowDeps): PlanPanelFlow {
  const { runs, log } = deps;
  let reviewing: { resolve: (plan: Plan | undefined) => void } | undefined;
  const decideReview = (plan: Plan | undefined): boolean => {
    const waiting = reviewing;
    reviewing = undefined;
    waiting?.resolve(plan);
    return waiting !== undefined;
  };
  // A plan file reviewed before any planning or run has no catalogue yet: it is read then, and the panel shown again.
  let reading: Promise<void> | undefined;
  // A change seen while a reading is under way may have come after that reading listed the files: read once more.
  let readAgain = false;
  const readCatalogue = (): Promise<void> => {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = runs
      .capabilities()
      .then(
        () => panels.panel()?.refresh(),
        (error: unknown) => log.warn(`Plan panel: the workspace's instructions and skills could not be read: ${errorMessage(error)}`),
      )
      .finally(() => {
        reading = undefined;
        if (readAgain) {
          readAgain = false;
          void readCatalogue();
        }
      });
    return reading;
  };
  const capabilities = (): CapabilityCatalogue | undefined => {
    const known = runs.knownCapabilities();
    if (known === undefined && reading === undefined) void readCatalogue();
    return known;
  };
  // A skill or instructions file added, changed or removed while a plan is reviewed: the review reads them again.
  const watcher = vscode.workspace.createFileSystemWatcher(catalogueFiles);
  let settle: ReturnType<typeof setTimeout> | undefined;
  const catalogueChanged = (): void => {
    if (!panels.panel()?.isReviewing()) return;
    clearTimeout(settle);
    settle = setTimeout(() => void readCatalogue(), 300);
  };
  const panels = new PlanPanelController({
    extensionUri: deps.extensionUri,
    tools: deps.tools,
    actions: planPanelActions({ ...deps, decideReview }),
    regenerateBlockedReason: deps.regenerateBlockedReason,
    approvalSetting: deps.approvalSetting,
    ...(deps.estimateSetup ? { estimateSetup: deps.estimateSetup } : {}),
    capabilities,
    readCapabilities: () => void readCatalogue(),
    log,
    ...(deps.traffic ? { traffic: deps.traffic } : {}),
  });

  const review = (plan: Plan, critique: Critique, warnings: readonly string[]): Promise<Plan | undefined> => {
    decideReview(undefined);
    // The panel critiques each version itself; the model's findings are the part it cannot make.
    const panel = panels.show(plan, critique.issues.filter((issue) => issue.check === 'llm_review'));
    // About the answer as read: an edit of the plan makes it history (a fixed dependency's error stayed on top).
    if (warnings.length > 0) panel.notify('info', vscode.l10n.t('Reading the plan: {0}', warnings.join(' ')), true);
    return new Promise<Plan | undefined>((resolve) => {
      reviewing = { resolve };
      const closed = panel.onDidDispose(() => {
        closed.dispose();
        decideReview(undefined);
      });
    });
  };

  const subscriptions = [
    watcher,
    watcher.onDidCreate(catalogueChanged),
    watcher.onDidChange(catalogueChanged),
    watcher.onDidDelete(catalogueChanged),
    runs.onDidExecutionEvent(({ event, state, execution, inCurrentFolder }) => {
      const panel = panels.panel();
      if (!panel) return;
      // The execution the panel follows, by its run ids: the current folder may have become another meanwhile.
      const followed = panel.isFollowingRun() ? panel.session.runId() : undefined;
      if (followed !== undefined && execution.has(followed)) return panel.onRunEvent(event, state);
      if (!inCurrentFolder || (event.type !== 'run_started' && event.type !== 'run_resumed')) return;
      const shown = panel.currentPlan();
      // Leave a review of another plan alone; any other panel follows the new run.
      if (panel.isReviewing() && shown && shown.id !== state.plan?.id) return;
      panel.showRun(state, true);
    }),
    // Whichever view undid it, a panel showing the run shows which steps' changes are gone and what is still changed.
    runs.changes.onDidUndo(({ runId, text: message, fromStep, undone }) => {
      panels.panel()?.setRunDetails(runId, { undone, undoMessage: fromStep === undefined ? message : `From step ${fromStep}: ${message}` });
    }),
    runs.onDidFinish(async (result) => {
      const panel = panels.panel();
      // The run the panel follows ended, in whichever folder: any other run's end leaves the panel alone.
      if (!panel?.follows(result.runId)) return;
      panel.endRun();
      try {
        const changedFiles = await runs.changes.changedFiles(result.runId);
        const replans = result.metadata.replanHistory;
        panel.setRunDetails(result.runId, { changedFiles, replans, ...(result.metadata.llmUsage ? { usage: result.metadata.llmUsage } : {}) });
      } catch (error) {
        log.warn(`Plan panel: could not read what run ${result.runId} changed: ${errorMessage(error)}`);
      }
    }),
  ];

  const showRun = (state: RunState, live: boolean): PlanPanel => {
    const panel = panels.show();
    panel.showRun(state, live);
    if (!live) {
      const { runId } = state;
      Promise.all([runs.changes.changedFiles(runId), runs.changes.undone(runId)]).then(
        ([changedFiles, undone]) => panel.setRunDetails(runId, { changedFiles, ...(undone.steps.size > 0 || undone.paths.size > 0 ? { undone } : {}) }),
        (error: unknown) => log.warn(`Plan panel: could not read what run ${runId} changed: ${errorMessage(error)}`),
      );
      runs.storedOutput(runId).then(
        (events) => panel.showStoredOutput(runId, events),
        (error: unknown) => log.warn(`Plan panel: could not read the output of run ${runId}: ${errorMessage(error)}`),
      );
    }
    return panel;
  };

  return {
    panels,
    review,
    showRun,
    showRunIfOpen: (state, live) => {
      const panel = panels.panel();
      // A review and a run the panel follows as it goes on stay: its buttons act on that run until it ends.
      if (panel && !panel.isReviewing() && !panel.isFollowingRun()) showRun(state, live);
    },
    dispose: () => {
      clearTimeout(settle);
      decideReview(undefined);
      for (const subscription of subscriptions) subscription.dispose();
      panels.dispose();
    },
  };
}
