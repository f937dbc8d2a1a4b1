import * as vscode from 'vscode';
import type { RunResult } from './core/engine/runOptions';
import { createSessionPlanner } from './core/session/createSessionPlanner';
import { ApiKeyStore } from './vscode/apiKeyStore';
import { registerLanguageModelTools } from './vscode/languageModelTools';
import { PendingPrompts } from './vscode/pendingPrompts';
import { quickPickPlanReview, type PlanReview } from './vscode/planReview';
import { planTask, planTaskFromEditor, regeneratePlan, type PlanTaskOptions, type PlanTaskOutcome } from './vscode/planTaskCommand';
import { PlanTreeProvider } from './vscode/planTreeProvider';
import { ProposalDocuments, proposalScheme } from './vscode/proposalDocuments';
import { RequestEditors } from './vscode/requestEditor';
import { RunController } from './vscode/runController';
import { RunsTreeProvider, registerRunsCommands } from './vscode/runsView';
import { runSetupFor } from './vscode/runSetup';
import { RunStatusBar } from './vscode/runStatusBar';
import { readSettings } from './vscode/settings';
import { registerStepCommands } from './vscode/stepCommands';
import { notifyRunFinished, notifyRunInterrupted } from './vscode/runNotifications';
import { registerViewCommands } from './vscode/viewCommands';
import { createVscodeInteraction } from './vscode/vscodeInteraction';
import { createVscodeTrustGate } from './vscode/vscodeTrustGate';
import { lazy } from './vscode/lazy';
import { loadRuntime } from './vscode/loadRuntime';
import type { PlanPanelProbe } from './vscode/planPanelProbe';
import { ModelStatus, regenerateNeedsModel } from './vscode/modelStatus';
import type { ModelSetupOutcome, ModelSetupUi } from './vscode/modelSetupFlow';
import { setUpModel } from './vscode/setUpModelCommand';

/** What `activate` returns: a small API for the integration tests and other extensions. */
export interface TaskPlannerApi {
  /** Runs "Plan task" with `request` instead of asking for it; `accept` skips the review. */
  planTask(request: string, options?: Omit<PlanTaskOptions, 'request'>): Promise<PlanTaskOutcome>;
  /** Labels of the Plan tree's top-level items, in order. */
  planTreeLabels(): string[];
  /** Every Plan tree node as shown (label, description, icon, contextValue…), depth first. */
  planTreeNodes(): ReturnType<PlanTreeProvider['allNodes']>;
  /** Steps waiting for the user, with what they wait for. */
  pendingPrompts(): { stepId: string; kind: string }[];
  /** Resolves when the next prompt is waiting (at once when one already is). */
  nextPrompt(): Promise<{ stepId: string; kind: string }>;
  /** The status bar item's text. */
  statusBarText(): string;
  /** Runs in the Runs view, newest first. */
  runIds(): Promise<string[]>;
  /** Resumes a stored run, as the Runs view's "Resume" does. */
  resumeRun(runId: string): Promise<RunResult>;
  /** Replaces the plan review chosen by `taskPlanner.review` (tests and other extensions); `undefined` restores it. */
  setPlanReview(review: PlanReview | undefined): void;
  /** The plan panel: open it with a plan, exchange messages with it. */
  planPanel: PlanPanelProbe;
  /** Opens a request editor holding `text`, as the Plan task input box's button does. */
  openRequestEditor(text: string): Promise<vscode.TextEditor>;
  /** Runs "Set up a model" with `ui` answering its questions (tests); the outcome, or `undefined` when dismissed. */
  setUpModel(ui: ModelSetupUi): Promise<ModelSetupOutcome | undefined>;
  /** How long `activate` itself took, in milliseconds (the integration suite prints it). */
  activationMs: number;
}

/** Composition root: wires the core to VS Code. Keep logic out of here. */
export function activate(context: vscode.ExtensionContext): TaskPlannerApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Task Planner', { log: true });
  const settings = readSettings();
  const tree = new PlanTreeProvider(settings.planTreeLayout);
  const keys = new ApiKeyStore(context.secrets);
  const pending = new PendingPrompts();
  const modelStatus = new ModelStatus(keys, context.globalState, log);
  const documents = new ProposalDocuments();
  const sessionPlanner = createSessionPlanner();
  // The engine, tools and plan panel live in dist/runtime.js, loaded on first use.
  const tools = lazy(() => {
    const { builtinTools, gateByWorkspaceTrust } = loadRuntime();
    return gateByWorkspaceTrust(builtinTools({ sessionPlanner }), createVscodeTrustGate(log));
  });
  const runs = new RunController({ tools, interaction: createVscodeInteraction(pending, documents), log, storageDir: context.storageUri?.fsPath, memento: context.workspaceState, setup: () => runSetupFor(readSettings(), keys, log) });
  const statusBar = new RunStatusBar(pending);
  const runsTree = new RunsTreeProvider(runs);
  let reviewOverride: PlanReview | undefined;
  // The plan panel and its flow live in dist/runtime.js: made when first shown.
  const panels = lazy(() => {
    const { PlanPanelController, createPlanPanelFlow } = loadRuntime();
    const controller = new PlanPanelController(context.extensionUri, tools(), log);
    const flow = createPlanPanelFlow({ panels: controller, runs, pending, tree, regenerate: (feedback, plan) => regeneratePlan(deps, feedback, plan), regenerateBlockedReason: () => (modelStatus.current() === 'heuristic' ? regenerateNeedsModel : undefined), log });
    controller.setCallbacks(flow.callbacks);
    context.subscriptions.push(controller, flow);
    return { controller, flow };
  });
  const review = (): PlanReview => reviewOverride ?? (readSettings().review === 'panel' ? panels().flow.review : quickPickPlanReview);
  const requests = new RequestEditors();
  const setUp = async (ui?: ModelSetupUi): Promise<ModelSetupOutcome | undefined> => {
    const outcome = await setUpModel(keys, log, ui);
    await modelStatus.refresh();
    return outcome;
  };
  const deps = { tree, log, keys, tools, runs, review, requests };
  const panelProbe = lazy(() => loadRuntime().createPlanPanelProbe(panels().controller));
  context.subscriptions.push(
    vscode.commands.registerCommand('taskPlanner.showPlan', () => loadRuntime().showPlan(panels().controller, { plan: () => tree.currentPlan(), run: () => runs.current() }, log)),
    log,
    requests,
    tree,
    pending,
    documents,
    runs,
    statusBar,
    runsTree,
    vscode.workspace.registerTextDocumentContentProvider(proposalScheme, documents),
    vscode.window.registerTreeDataProvider('taskPlanner.plan', tree),
    vscode.window.registerTreeDataProvider('taskPlanner.runs', runsTree),
    vscode.commands.registerCommand('taskPlanner.planTask', () => planTask(deps)),
    vscode.commands.registerCommand('taskPlanner.planTaskFromEditor', () => planTaskFromEditor(deps)),
    vscode.commands.registerCommand('taskPlanner.planTaskWithFiles', (uri?: vscode.Uri, uris?: vscode.Uri[]) => planTask(deps, { files: uris ?? (uri ? [uri] : []) })),
    vscode.commands.registerCommand('taskPlanner.setUpModel', () => setUp()),
    vscode.commands.registerCommand('taskPlanner.setApiKey', () => keys.set()),
    modelStatus,
    vscode.commands.registerCommand('taskPlanner.clearApiKey', () => keys.clear()),
    ...registerStepCommands({ tree, pending, runs, log }),
    ...registerViewCommands(tree, log),
    ...registerRunsCommands({ runs, runsTree, tree, log }),
    ...registerLanguageModelTools(sessionPlanner, log),
    runs.onDidChangeState((state) => {
      if (state) tree.setRun(state);
      statusBar.update(state);
    }),
    runs.onDidFinish((result) => {
      runsTree.refresh();
      notifyRunFinished(result, log, runs.current());
    }),
    pending.onDidChange(() => statusBar.render()),
    { dispose: sessionPlanner.onChange((plan) => tree.setSessionPlan(plan)) },
  );
  // After activation: asks VS Code for its chat models, which must not delay activate().
  void modelStatus.refresh().then(() => modelStatus.welcomeOnce()).catch((error: unknown) => log.warn(`Could not tell which planner is active: ${error instanceof Error ? error.message : String(error)}`));
  void runs.takeInterruptedRun().then((run) => run && notifyRunInterrupted(run));
  const activationMs = performance.now() - started;
  return {
    activationMs,
    planTask: (request, options) => planTask(deps, { ...options, request }),
    planTreeLabels: () => tree.topLevelNodes().map((node) => node.label),
    planTreeNodes: () => tree.allNodes(),
    pendingPrompts: () => pending.list().map((prompt) => ({ stepId: prompt.stepId, kind: prompt.kind })),
    nextPrompt: () => pending.next().then((prompt) => ({ stepId: prompt.stepId, kind: prompt.kind })),
    statusBarText: () => statusBar.text(),
    runIds: async () => (await runs.store.list()).map((run) => run.runId),
    resumeRun: (runId) => runs.resume(runId),
    setUpModel: (ui) => setUp(ui),
    openRequestEditor: (text) => requests.open(text),
    setPlanReview: (replacement) => {
      reviewOverride = replacement;
    },
    get planPanel() {
      return panelProbe();
    },
  };
}

/** Nothing to release beyond `context.subscriptions`. */
export function deactivate(): void {}
