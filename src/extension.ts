import * as vscode from 'vscode';
import { createSessionPlanner } from './core/session/createSessionPlanner';
import { ApiKeyStore, type ApiKeyPrompts } from './vscode/apiKeyStore';
import { registerLanguageModelTools } from './vscode/languageModelTools';
import { watchContributedTools } from './vscode/contributedTools';
import { createToolOffer } from './vscode/offeredTools';
import { PendingPrompts } from './vscode/pendingPrompts';
import { quickPickPlanReview, type PlanReview } from './vscode/planReview';
import { planTask, planTaskArgument, planTaskFromEditor, regeneratePlan } from './vscode/planTaskCommand';
import type { PlanTaskDeps } from './vscode/planTaskDeps';
import { PlanTreeProvider } from './vscode/planTreeProvider';
import { ProposalDocuments, proposalScheme } from './vscode/proposalDocuments';
import { SnapshotDocuments, snapshotScheme } from './vscode/snapshotDocuments';
import { registerUndoAnyway } from './vscode/undoAnyway';
import { registerRunChangeDiff } from './vscode/runChangeDiff';
import { RequestEditors } from './vscode/requestEditor';
import { RunController } from './vscode/runController';
import { RunsTreeProvider, registerRunsCommands } from './vscode/runsView';
import { WalkthroughProgress } from './vscode/walkthroughProgress';
import { estimateSetupFor, runSetupFor } from './vscode/runSetup';
import { RunStatusBar } from './vscode/runStatusBar';
import { PlanViewWelcome } from './vscode/planViewWelcome';
import { readSettings } from './vscode/settings';
import { registerStepCommands } from './vscode/stepCommands';
import { notifyRunFinished, notifyRunInterrupted, type RunEndNotice } from './vscode/runNotifications';
import { registerViewCommands } from './vscode/viewCommands';
import { registerPlanFileCommands } from './vscode/registerPlanFileCommands';
import { registerTaskFileCommands } from './vscode/registerTaskFileCommands';
import { createVscodeInteraction } from './vscode/vscodeInteraction';
import type { announceManualStep } from './vscode/manualStepPrompts';
import { ApprovalQueue } from './vscode/approvalQueue';
import { registerApproveRest } from './vscode/approveRestCommand';
import { RememberedToolCalls } from './vscode/rememberedToolCalls';
import { createVscodeTrustGate } from './vscode/vscodeTrustGate';
import { lazy } from './vscode/lazy';
import { registerCommandAllowRules, type EditorCommandRules } from './vscode/registerCommandAllowRules';
import { loadRuntime } from './vscode/loadRuntime';
import { McpHost } from './vscode/mcpHost';
import type { PanelTraffic, PlanPanel } from './vscode/planPanel';
import type { PlanPanelController } from './vscode/planPanelController';
import { ModelStatus, regenerateNeedsModel } from './vscode/modelStatus';
import type { ModelSetupOutcome, ModelSetupUi } from './vscode/modelSetupFlow';
import { setUpModel } from './vscode/setUpModelCommand';
import { registerChatParticipant } from './vscode/chat/registerChatParticipant';
import { registerOpenAiChatProvider } from './vscode/openAiChatProvider';
import { errorMessage } from './shared/errorMessage';
import { shownLogChannel } from './vscode/channelLogger';
import type { PlanTreeNode } from './core/view/planTreeModel';
import type { ConfirmUndo } from './vscode/confirmUndo';
import { undoneExtent, type UndoneChanges } from './core/tools/undoneChanges';

/** What a build may put in place of the defaults (the test build answers reviews and watches the panel's messages). */
export interface ExtensionSeams {
  /** The review "Plan task" hands its plan to while this returns one, instead of the one `taskPlanner.review.show` chooses. */
  review?: () => PlanReview | undefined;
  /** Wraps what each plan panel reports of its messages; default: the log alone. */
  panelTraffic?: (logged: PanelTraffic) => PanelTraffic;
  /** Answers the question before Undo instead of the modal dialog (see `RunControllerDeps`). */
  confirmUndo?: ConfirmUndo;
  /** Answers the Start-time question about a plan's check commands instead of the modal dialog (see `RunControllerDeps`). */
  confirmCheckCommands?: (question: string, offerWorkspace: boolean) => Promise<boolean | 'workspace' | undefined>;
  /** Whether the workspace is trusted, as the command allow rules read it; default `vscode.workspace.isTrusted`. */
  workspaceTrusted?: () => boolean;
  /** Answers the API key store's questions (send the key elsewhere? which key?) instead of the modal and the input box. */
  keyPrompts?: ApiKeyPrompts;
  /** Tells the user a step is theirs to do instead of the notification (see `createVscodeInteraction`). */
  manualStepNotice?: typeof announceManualStep;
  /** Shows how a run ended instead of the notification, and answers it (see `notifyRunFinished`). */
  runEndNotice?: RunEndNotice;
}

/** The parts `activate` wires together (a build that adds to the extension, such as the test build, reads them). */
export interface ExtensionParts {
  tree: PlanTreeProvider;
  /** The Plan view (its selection is what its key bindings act on). */
  planView: vscode.TreeView<PlanTreeNode>;
  pending: PendingPrompts;
  statusBar: RunStatusBar;
  runs: RunController;
  /** The Runs view: this window's runs, and other windows' of the workspace. */
  runsTree: RunsTreeProvider;
  requests: RequestEditors;
  /** What "Plan task" works with, as its commands use it. */
  planTaskDeps: PlanTaskDeps;
  /** The plan panel's controller (made on first call: it lives in dist/runtime.js). */
  panels: () => PlanPanelController;
  /** The command allow rules (this workspace's, and the setting's). */
  commandRules: EditorCommandRules;
  /** "Set up a model", then the planner status refreshed; `ui` answers its questions (default: QuickPicks and input boxes). */
  setUp(ui?: ModelSetupUi): Promise<ModelSetupOutcome | undefined>;
  /** The `@planner` chat participant's handler. */
  chat: vscode.ChatRequestHandler;
}

/** Activates Task Planner: the commands, views and status bar, wired by `composeExtension`. */
export function activate(context: vscode.ExtensionContext): void {
  composeExtension(context);
}

/** Composition root: wires the core to VS Code. Keep logic out of here. */
export function composeExtension(context: vscode.ExtensionContext, seams: ExtensionSeams = {}): ExtensionParts {
  const log = shownLogChannel(vscode.window.createOutputChannel('Task Planner', { log: true }));
  const settings = readSettings();
  const tree = new PlanTreeProvider(settings.planTreeLayout);
  // Each key is bound to the address it was entered for; one stored before that, to the user's own base URL.
  const keys = new ApiKeyStore(context.secrets, context.globalState, () => readSettings().userBaseUrl, ...(seams.keyPrompts ? [seams.keyPrompts] : []));
  const pending = new PendingPrompts();
  const modelStatus = new ModelStatus(keys, context.globalState, log);
  const walkthrough = new WalkthroughProgress(context.globalState, context.extension.id);
  const documents = new ProposalDocuments();
  const snapshots = new SnapshotDocuments();
  const sessionPlanner = createSessionPlanner();
  // The engine, tools and plan panel live in dist/runtime.js, loaded on first use.
  const trustGate = lazy(() => createVscodeTrustGate(log));
  const builtins = lazy(() => {
    const { builtinTools, editorTools, gateByWorkspaceTrust } = loadRuntime();
    return gateByWorkspaceTrust([...builtinTools({ sessionPlanner }), ...editorTools()], trustGate());
  });
  const contributed = watchContributedTools(log, () => readSettings().extensionTools);
  const rememberedToolCalls = new RememberedToolCalls(context.workspaceState);
  const mcp = new McpHost(context, () => new Set(builtins().map((tool) => tool.name)), rememberedToolCalls);
  // Other extensions' tools and the MCP servers' come and go: read (and gated) at each use.
  const tools = createToolOffer(
    {
      builtins,
      mcp: () => loadRuntime().gateByWorkspaceTrust(mcp.tools(), trustGate()),
      extension: () => loadRuntime().gateByWorkspaceTrust(contributed.tools(), trustGate()),
      contextTokens: () => readSettings().contextTokens,
    },
    log,
  );
  // A step that is yours to do is announced by a notification unless the plan panel already shows it with Done and Failed:
  // the panel follows its run live (not merely some run, maybe another folder's).
  let panelsMade = false;
  const panelFollows = (runId: string | undefined): boolean => runId !== undefined && panelsMade && panels().panels.panel()?.follows(runId) === true;
  const allowRules = registerCommandAllowRules(context.workspaceState, seams.workspaceTrusted ?? (() => vscode.workspace.isTrusted));
  // Approvals take turns in plan order (item 4 of issue 28); `runs` is made below and read only once a run asks.
  const queue = new ApprovalQueue(pending, (key) => {
    const steps = key.runId === undefined ? undefined : runs.runInfo(key.runId)?.state?.plan?.steps;
    const index = steps?.findIndex((step) => step.id === key.stepId) ?? -1;
    return index < 0 ? Number.MAX_SAFE_INTEGER : index;
  });
  const interaction = createVscodeInteraction(pending, documents, {
    announceManualStep: (runId) => !panelFollows(runId),
    ...(seams.manualStepNotice ? { manualStepNotice: seams.manualStepNotice } : {}),
    commandRules: allowRules.rules,
    toolCalls: rememberedToolCalls,
    queue,
    folderOf: (runId) => ((vscode.workspace.workspaceFolders?.length ?? 0) > 1 && runId !== undefined ? runs.runInfo(runId)?.folder?.name : undefined),
  });
  const runs = new RunController({
    tools,
    interaction,
    interactionFor: (runId) => interaction.forRun(runId),
    log,
    storageDir: context.storageUri?.fsPath,
    memento: context.workspaceState,
    setup: () => runSetupFor(readSettings(), keys, log),
    holdTools: () => mcp.hold(),
    ...(seams.confirmCheckCommands ? { confirmCheckCommands: seams.confirmCheckCommands } : {}),
    ...(seams.confirmUndo ? { confirmUndo: seams.confirmUndo } : {}),
    commandRules: allowRules.rules,
  });
  const statusBar = new RunStatusBar(pending, queue);
  // From the folders' listings: the run store (runtime.js) is not loaded at activation.
  const hasRuns = (): Promise<boolean> => runs.hasStoredRuns();
  const welcome = new PlanViewWelcome(() => tree.getChildren().length === 0, hasRuns);
  // Settles once the Plan view shows what the reload left it (below): Show plan waits for it.
  let viewRestored: () => void = () => undefined;
  const restored = new Promise<void>((resolve) => (viewRestored = resolve));
  /** What Undo took back of a run, in the Plan view and the status bar (each says so while it shows that run). */
  const showUndone = (runId: string, undone: Pick<UndoneChanges, 'steps' | 'anyLeft'>): void => {
    tree.setUndone(runId, undone);
    statusBar.setUndone(runId, undoneExtent(undone));
  };
  const planView = vscode.window.createTreeView('taskPlanner.plan', { treeDataProvider: tree });
  const runsTree = new RunsTreeProvider(runs, context.storageUri?.fsPath, log);
  const runsView = vscode.window.createTreeView('taskPlanner.runs', { treeDataProvider: runsTree });
  // The plan panel and its flow live in dist/runtime.js: made when first shown.
  const panels = lazy(() => {
    const flow = loadRuntime().createPlanPanelFlow({
      extensionUri: context.extensionUri,
      // Read at each snapshot, so tools another extension contributes later are known to the review.
      tools,
      runs,
      pending,
      tree,
      regenerate: (feedback, plan) => regeneratePlan(deps, feedback, plan),
      regenerateBlockedReason: () => (modelStatus.current() === 'heuristic' ? regenerateNeedsModel() : undefined),
      approvalSetting: () => ({ policy: readSettings().approvalPolicy, trusted: vscode.workspace.isTrusted }),
      estimateSetup: () => estimateSetupFor(readSettings(), modelStatus.current()),
      log,
      ...(seams.panelTraffic ? { traffic: seams.panelTraffic } : {}),
    });
    context.subscriptions.push(flow);
    panelsMade = true;
    return flow;
  });
  // A model set up (or removed) while a plan is reviewed: the review says at once what Regenerate and the estimate can do now.
  context.subscriptions.push(modelStatus.onDidChange(() => (panelsMade ? panels().panels.panel()?.refresh() : undefined)));
  const openPanel = (): { plan: ReturnType<PlanPanel['currentPlan']>; runId: string | undefined; active: boolean } | undefined => {
    const panel = panelsMade ? panels().panels.panel() : undefined;
    return panel && { plan: panel.currentPlan(), runId: panel.session.runId(), active: panel.isActive() };
  };
  const chosenReview = (): PlanReview => seams.review?.() ?? (readSettings().review === 'panel' ? panels().review : quickPickPlanReview);
  // A review that ends without a run (Cancel, the panel closed) leaves the Plan view as it was before it, not on its plan.
  const review = (): PlanReview => {
    const chosen = chosenReview();
    return async (plan, critique, warnings) => {
      const accepted = await chosen(plan, critique, warnings);
      if (!accepted) tree.reviewEnded(plan.id);
      return accepted;
    };
  };
  const requests = new RequestEditors();
  const setUp = async (ui?: ModelSetupUi): Promise<ModelSetupOutcome | undefined> => {
    const outcome = await setUpModel(keys, log, ui, () => tools().reduce((sum, tool) => sum + loadRuntime().toolTokens(tool), 0));
    await modelStatus.refresh();
    return outcome;
  };
  const deps: PlanTaskDeps = { tree, log, keys, tools, runs, review, requests, holdTools: () => mcp.hold() };
  const chat = registerChatParticipant(context.extensionUri, deps, interaction);
  context.subscriptions.push(
    vscode.commands.registerCommand('taskPlanner.showPlan', () =>
      loadRuntime().showPlan(
        panels(),
        { plan: () => tree.currentPlan(), run: () => tree.shownRun(), executing: (runId) => runs.executing(runId), restored: () => restored, hasRuns },
        log,
      ),
    ),
    log,
    mcp,
    vscode.commands.registerCommand('taskPlanner.mcpServers', () => mcp.showServers()),
    requests,
    tree,
    pending,
    documents,
    runs,
    statusBar,
    runsTree,
    vscode.workspace.registerTextDocumentContentProvider(proposalScheme, documents),
    snapshots,
    vscode.workspace.registerTextDocumentContentProvider(snapshotScheme, snapshots),
    ...registerUndoAnyway({ runs: runs.changes, documents: snapshots, log }),
    // The walkthrough's steps tick on the work itself, whichever view or button did it (`WalkthroughProgress`).
    runs.onDidExecutionEvent(({ event }) => walkthrough.markRunEvent(event)),
    runs.changes.onDidUndo(() => walkthrough.mark('undone')),
    tree.onDidChangeTreeData(() => (tree.currentPlan() ? walkthrough.mark('planned') : undefined)),
    modelStatus.onDidChange((choice) => walkthrough.markPlanner(choice)),
    ...registerRunChangeDiff({ runs: runs.changes, documents: snapshots }),
    planView,
    runsView,
    runsTree.watchOtherWindows(runsView),
    // `{ "withoutModel": true }` (the walkthrough's "Plan without a model"): the heuristic planner, whatever model is set up.
    vscode.commands.registerCommand('taskPlanner.planTask', (arg?: unknown) => planTask(deps, planTaskArgument(arg))),
    vscode.commands.registerCommand('taskPlanner.planTaskFromEditor', () => planTaskFromEditor(deps)),
    vscode.commands.registerCommand('taskPlanner.planTaskWithFiles', (uri?: vscode.Uri, uris?: vscode.Uri[]) =>
      planTask(deps, { files: uris ?? (uri ? [uri] : []) }),
    ),
    vscode.commands.registerCommand('taskPlanner.setUpModel', () => setUp()),
    vscode.commands.registerCommand('taskPlanner.setApiKey', () => {
      const current = readSettings();
      return keys.set(current.baseUrl, current.baseUrlFrom);
    }),
    modelStatus,
    vscode.commands.registerCommand('taskPlanner.clearApiKey', () => keys.clear()),
    ...registerStepCommands({ tree, pending, approvals: queue, selectedRow: () => planView.selection[0], runs, log }),
    queue,
    registerApproveRest({ pending, queue, runs, tools: () => loadRuntime().createToolRegistry([...tools()]), log }),
    ...registerViewCommands(tree, log),
    ...registerRunsCommands({ runs, runsTree, tree, log, showInPanel: (state, live) => (panelsMade ? panels().showRunIfOpen(state, live) : undefined) }),
    ...registerPlanFileCommands({ tree, runs, tools, review, log, panel: () => openPanel(), holdTools: () => mcp.hold() }),
    ...registerTaskFileCommands({
      tree,
      runs,
      tools,
      review,
      log,
      plan: () => {
        const panel = openPanel();
        return (panel?.active ? panel.plan : undefined) ?? tree.currentPlan() ?? panel?.plan;
      },
      // The run of the same view as the plan above (the export ticks only a run of that very plan).
      run: async () => {
        const panel = openPanel();
        const fromPanel = panel !== undefined && ((panel.active && panel.plan !== undefined) || tree.currentPlan() === undefined);
        if (!fromPanel) return tree.shownRun();
        return panel.runId === undefined ? undefined : runs.stateOf(panel.runId);
      },
      model: () => modelStatus.current() !== 'heuristic',
    }),
    ...registerLanguageModelTools(sessionPlanner, log),
    // The configured OpenAI-compatible endpoint as a VS Code chat model: the Chat view (and @planner) without Copilot.
    ...registerOpenAiChatProvider(keys, context.secrets.onDidChange, log),
    contributed,
    ...allowRules.disposables,
    runs.onDidStartExecution(() => tree.release()),
    // The view's title names what it shows (the plan panel may show another run).
    tree.onDidChangeTreeData(() => {
      welcome.changed();
      planView.description = tree.shownDescription();
      statusBar.reviewing(tree.currentPlan() !== undefined && tree.shownRun() === undefined);
    }),
    runs.onDidChangeState((state) => {
      if (state) tree.follow(state);
      statusBar.update(state);
      // A finished run shown (after it ended, or opened from the Runs view) shows what an earlier Undo took back.
      if (state && state.status !== 'running' && tree.undoneKnownFor() !== state.runId) {
        runs.changes.undone(state.runId).then(
          (undone) => showUndone(state.runId, undone),
          (error: unknown) => log.warn(`Could not read what Undo took back of run ${state.runId}: ${errorMessage(error)}`),
        );
      }
    }),
    runs.changes.onDidUndo(({ runId, undone }) => showUndone(runId, undone)),
    runs.onDidFinish((result) => {
      runsTree.refresh();
      const run = runs.runInfo(result.runId);
      notifyRunFinished(result, log, run?.state, seams.runEndNotice);
    }),
    runs.onDidChangeFolder((name) => tree.setFolder(name)),
    pending.onDidChange(() => statusBar.render()),
    queue.onDidChange(() => statusBar.render()),
    { dispose: sessionPlanner.onChange((plan) => tree.setSessionPlan(plan)) },
    chat.registration,
  );
  // After activation: asks VS Code for its chat models, which must not delay activate().
  void modelStatus
    .refresh()
    .then((choice) => {
      walkthrough.markPlanner(choice);
      return modelStatus.welcomeOnce();
    })
    .catch((error: unknown) => log.warn(`Could not tell which planner is active: ${errorMessage(error)}`));
  void runs.takeInterruptedRuns().then(async (interrupted) => {
    for (const run of interrupted) {
      const stored = await runs.stateOf(run.runId).catch(() => undefined);
      void notifyRunInterrupted(run, stored !== undefined && (await runs.awaitsItsRepair(stored)));
    }
    // The run the reload cut off is shown where it was followed, the Plan view and the plan panel, not empty views.
    const shown = interrupted[0] && (await runs.showInterrupted(interrupted[0].runId));
    if (shown && !(panelsMade && panels().panels.panel())) panels().showRun(shown, false);
  }).catch((error: unknown) => log.warn(`Could not show the run the reload interrupted: ${errorMessage(error)}`))
    .finally(() => {
      welcome.restored();
      viewRestored();
    });
  return {
    tree,
    planView,
    pending,
    statusBar,
    runs,
    runsTree,
    requests,
    planTaskDeps: deps,
    panels: () => panels().panels,
    setUp,
    chat: chat.handler,
    commandRules: allowRules.rules,
  };
}

/** Nothing to release beyond `context.subscriptions`. */
export function deactivate(): void {}
