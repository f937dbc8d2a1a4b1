// The test build's entry point (bundled by `node esbuild.mjs --test-extension DIR` into the extension the
// integration suite loads): the shipped `activate` plus an API the tests drive the extension through.
// None of it is in the shipped bundles (test/arch/productionBundle.test.ts checks).
import * as vscode from 'vscode';
import type { RunResult } from '../../../src/core/engine/runOptions';
import type { Plan } from '../../../src/core/plan/planSchema';
import { composeExtension } from '../../../src/extension';
import type { ApiKeyPrompts } from '../../../src/vscode/apiKeyStore';
import { announceManualStep } from '../../../src/vscode/manualStepPrompts';
import type { ModelSetupOutcome, ModelSetupUi } from '../../../src/vscode/modelSetupFlow';
import type { PlanReview } from '../../../src/vscode/planReview';
import { runEndNotification, type RunEndNotice } from '../../../src/vscode/runNotifications';
import { planTask, type PlanTaskOptions, type PlanTaskOutcome } from '../../../src/vscode/planTaskCommand';
import type { PlanTaskDeps } from '../../../src/vscode/planTaskDeps';
import type { PlanTreeNode } from '../../../src/core/view/planTreeModel';
import type { PendingPrompt, PendingPrompts } from '../../../src/vscode/pendingPrompts';
import type { PlanTreeProvider } from '../../../src/vscode/planTreeProvider';
import { createPlanPanelProbe, type PlanPanelProbe } from './planPanelProbe';
import { readSettings, type TaskPlannerSettings } from '../../../src/vscode/settings';
import type { UndoQuestion } from '../../../src/vscode/confirmUndo';

/** Options of the test API's "Plan task". */
export interface TestPlanTaskOptions extends Omit<PlanTaskOptions, 'request'> {
  /** Skips the review: `true` starts the plan, `false` only shows it in the Plan tree. */
  accept?: boolean;
  /** Answers the question which workspace folder to plan in (a workspace of several folders). */
  pickFolder?: PlanTaskDeps['pickFolder'];
}

/** What the test build's `activate` returns: the integration tests drive and read the extension through it. */
export interface TaskPlannerApi {
  /** The settings as the extension reads them now (`readSettings`: kept until VS Code reports a change). */
  settings(): TaskPlannerSettings;
  /** Runs "Plan task" with `request` instead of asking for it; `accept` skips the review. */
  planTask(request: string, options?: TestPlanTaskOptions): Promise<PlanTaskOutcome>;
  /** Labels of the Plan tree's top-level items, in order. */
  planTreeLabels(): string[];
  /** The Plan tree's current plan, as planned (its basis included). */
  currentPlan(): Plan | undefined;
  /** Makes `plan` the Plan tree's current plan, as a new plan or an edit elsewhere (the panel, another chat) does; `undefined` shows none. */
  setCurrentPlan(plan: Plan | undefined): void;
  /** Every Plan tree node as shown (label, description, icon, contextValue…), depth first. */
  planTreeNodes(): PlanTreeNode[];
  /** What the Plan view's title says it shows, beside "Plan". */
  planViewDescription(): string | undefined;
  /** Selects and focuses the Plan view's row of step `stepId`, as a click does. */
  selectPlanRow(stepId: string): Promise<void>;
  /** Steps waiting for the user, with what they wait for. */
  pendingPrompts(): { stepId: string; kind: string }[];
  /** The steps that are the user's to do whose notification said so (those the plan panel did not show live), oldest first. */
  manualStepsAnnounced: { stepId: string; runId: string | undefined }[];
  /** Answers the next notification of a run's end with its button `choice` at once, instead of showing it. */
  answerNextRunEnd(choice: string): void;
  /** The message of the last run end's notification, `undefined` before any. */
  lastRunEndMessage(): string | undefined;
  /** Resolves when the next prompt is waiting (at once when one already is). */
  nextPrompt(): Promise<{ stepId: string; kind: string }>;
  /** The status bar item's text. */
  statusBarText(): string;
  /** Whether the status bar item is in the status bar. */
  statusBarShown(): boolean;
  /** The status bar item's tooltip (plain text). */
  statusBarTooltip(): string;
  /** What a click on the status bar item runs. */
  statusBarCommand(): vscode.Command | undefined;
  /** Runs in the Runs view, newest first. */
  runIds(): Promise<string[]>;
  /** Every Runs view node as shown (label, description, contextValue, children…), depth first. */
  runsViewNodes(): Promise<PlanTreeNode[]>;
  /** The Runs view's top-level nodes the next time VS Code lists them (a listing by the test API is not one). */
  runsViewShown(): Promise<PlanTreeNode[]>;
  /** This window's storage folder of the extension (`context.storageUri`). */
  storageDir: string | undefined;
  /** The entries of a run's journal (in the current folder's store), in order. */
  journal(runId: string): Promise<{ type: string }[]>;
  /** Whether a run is executing now (a new one would be refused). */
  isRunning(): boolean;
  /** The name of the workspace folder the run `runId` works in, once it started. */
  runFolder(runId: string): string | undefined;
  /** The names of the workspace folders with a run executing now. */
  runningFolders(): string[];
  /** The id of the run executing in the workspace folder named `folder` now (its latest run), `undefined` when none does. */
  runningIn(folder: string): string | undefined;
  /** Resumes a stored run, as the Runs view's "Resume" does. */
  resumeRun(runId: string): Promise<RunResult>;
  /** Replaces the plan review chosen by `taskPlanner.review.show`; `undefined` restores it. */
  setPlanReview(review: PlanReview | undefined): void;
  /** The plan panel: open it with a plan, exchange messages with it. */
  planPanel: PlanPanelProbe;
  /** Opens a request editor holding `text`, as the Plan task input box's button does. */
  openRequestEditor(text: string): Promise<vscode.TextEditor>;
  /** Runs "Set up a model" with `ui` answering its questions; the outcome, or `undefined` when dismissed. */
  setUpModel(ui: ModelSetupUi): Promise<ModelSetupOutcome | undefined>;
  /** Starts `plan` as the panel's Start does (the Start-time questions included), in `folder` when given. */
  startPlan(plan: Plan, folder?: vscode.WorkspaceFolder): Promise<RunResult>;
  /**
   * Answers the Start-time question about check commands from now on (true: Allow, `'workspace'`: Always Allow in
   * This Workspace, false: Don't Allow, `undefined`: closed); `questions` lists what was asked so far, `offered`
   * whether each question offered Always Allow in This Workspace.
   */
  checkCommands: { answer(allowed: boolean | 'workspace' | undefined): void; questions: string[]; offered: boolean[] };
  /**
   * Answers the question before Undo from now on (true: undo, false: keep the changes; at first true); `questions` lists
   * what was asked so far.
   */
  undoQuestions: { answer(undo: boolean): void; questions: UndoQuestion[] };
  /** The command allow rules in force now, and adding or removing a rule of this workspace (as the command question does). */
  commandRules: { inForce(): (readonly string[])[]; add(argv: readonly string[]): Promise<void>; remove(argv: readonly string[]): Promise<void> };
  /**
   * The API keys: `store` binds a key to an address as "Set API key" does; `answer` answers from now on the question
   * whether to send a key to another address (`undefined`: the modal's safe default); `asked` lists those questions,
   * `said` the key store's information messages.
   */
  apiKeys: {
    store(key: string, baseUrl: string): Promise<void>;
    clear(): Promise<void>;
    answer(choice: 'send' | 'setKey' | undefined): void;
    asked: string[];
    said: string[];
    /** What VS Code's secret storage holds for the extension under the keys' name (`undefined`: nothing). */
    stored(): Thenable<string | undefined>;
  };
  /** Makes the command allow rules read the workspace as trusted or not (Restricted Mode); `undefined`: as VS Code says. */
  setWorkspaceTrusted(trusted: boolean | undefined): void;
  /** How long composing the extension took, in milliseconds (the integration suite prints it). */
  activationMs: number;
  /** The names of the tools plans, runs and the step form are offered now. */
  offeredToolNames(): string[];
  /** Starts the MCP servers and holds them, as a planning does, until the hold is disposed. */
  holdMcpServers(): Promise<vscode.Disposable>;
  /** The `@planner` chat participant's handler, as the Chat view calls it. */
  chat: vscode.ChatRequestHandler;
}

/** The review of `accept`: start the plan as planned, or start nothing. */
const acceptingReview = (accept: boolean): PlanReview => async (plan) => (accept ? plan : undefined);

/** Every node of the Plan tree as its view gets them, depth first. */
function treeNodes(tree: PlanTreeProvider, nodes = tree.getChildren()): PlanTreeNode[] {
  return nodes.flatMap((node) => [node, ...treeNodes(tree, tree.getChildren(node))]);
}

/** The oldest prompt waiting, as soon as there is one. */
function nextPrompt(pending: PendingPrompts): Promise<PendingPrompt> {
  const first = pending.list()[0];
  if (first) return Promise.resolve(first);
  return new Promise((resolve) => {
    const subscription = pending.onDidChange(() => {
      const prompt = pending.list()[0];
      if (!prompt) return;
      subscription.dispose();
      resolve(prompt);
    });
  });
}

/** Activates the extension as shipped and returns the test API over its parts. */
export function activate(context: vscode.ExtensionContext): TaskPlannerApi {
  const started = performance.now();
  let reviewOverride: PlanReview | undefined;
  const panel = createPlanPanelProbe();
  const questions: string[] = [];
  const offered: boolean[] = [];
  let checkCommandsAnswer: boolean | 'workspace' | undefined = true;
  const confirmCheckCommands = (question: string, offerWorkspace: boolean): Promise<boolean | 'workspace' | undefined> => {
    questions.push(question);
    offered.push(offerWorkspace);
    return Promise.resolve(checkCommandsAnswer);
  };
  const undoQuestions: UndoQuestion[] = [];
  let undoAnswer = true;
  const confirmUndo = (question: UndoQuestion): Promise<boolean> => {
    undoQuestions.push(question);
    return Promise.resolve(undoAnswer);
  };
  let trustedOverride: boolean | undefined;
  const workspaceTrusted = (): boolean => trustedOverride ?? vscode.workspace.isTrusted;
  const keyQuestions: string[] = [];
  const keyMessages: string[] = [];
  let keyAnswer: 'send' | 'setKey' | undefined;
  const keyPrompts: ApiKeyPrompts = {
    sendElsewhere: (enteredFor, target, from) => {
      keyQuestions.push(`${enteredFor} -> ${target} (${from})`);
      return Promise.resolve(keyAnswer);
    },
    inputKey: () => Promise.resolve(undefined),
    info: (message) => void keyMessages.push(message),
  };
  const manualStepsAnnounced: { stepId: string; runId: string | undefined }[] = [];
  const manualStepNotice: typeof announceManualStep = (pending, key, request) => {
    manualStepsAnnounced.push({ stepId: request.stepId, runId: key.runId });
    return announceManualStep(pending, key, request);
  };
  let runEndAnswer: string | undefined;
  let runEndMessage: string | undefined;
  const runEndNotice: RunEndNotice = (message, completed, actions) => {
    runEndMessage = message;
    const answer = runEndAnswer;
    runEndAnswer = undefined;
    return answer === undefined ? runEndNotification(message, completed, actions) : Promise.resolve(answer);
  };
  const parts = composeExtension(context, {
    review: () => reviewOverride,
    panelTraffic: panel.traffic,
    confirmCheckCommands,
    confirmUndo,
    workspaceTrusted,
    keyPrompts,
    manualStepNotice,
    runEndNotice,
  });
  // VS Code's own listings of the Runs view (what it shows) are told to runsViewShown's waiters; the test API lists apart.
  const listRuns = parts.runsTree.getChildren.bind(parts.runsTree);
  const runsViewWaiters: ((nodes: PlanTreeNode[]) => void)[] = [];
  parts.runsTree.getChildren = async (node) => {
    const nodes = await listRuns(node);
    if (node === undefined) for (const resolve of runsViewWaiters.splice(0)) resolve(nodes);
    return nodes;
  };
  const activationMs = performance.now() - started;
  const planPanel = panel.probe(parts.panels);
  return {
    settings: readSettings,
    activationMs,
    offeredToolNames: () => parts.planTaskDeps.tools().map((tool) => tool.name),
    holdMcpServers: () => {
      if (!parts.planTaskDeps.holdTools) throw new Error('"Plan task" is wired without holding the MCP servers');
      return parts.planTaskDeps.holdTools();
    },
    planTask: (request, { accept, pickFolder, ...options } = {}) => {
      const reviewed = accept === undefined ? parts.planTaskDeps : { ...parts.planTaskDeps, review: () => acceptingReview(accept) };
      const deps = pickFolder ? { ...reviewed, pickFolder } : reviewed;
      return planTask(deps, { ...options, request });
    },
    planTreeLabels: () => parts.tree.getChildren().map((node) => node.label),
    currentPlan: () => parts.tree.currentPlan(),
    setCurrentPlan: (plan) => parts.tree.setPlan(plan),
    planTreeNodes: () => treeNodes(parts.tree),
    planViewDescription: () => parts.planView.description,
    selectPlanRow: async (stepId) => {
      const row = treeNodes(parts.tree).find((node) => node.stepId === stepId);
      if (!row) throw new Error(`the Plan view shows no step ${stepId}`);
      await parts.planView.reveal(row, { select: true, focus: true });
    },
    pendingPrompts: () => parts.pending.list().map((prompt) => ({ stepId: prompt.stepId, kind: prompt.kind })),
    manualStepsAnnounced,
    answerNextRunEnd: (choice) => {
      runEndAnswer = choice;
    },
    lastRunEndMessage: () => runEndMessage,
    nextPrompt: () => nextPrompt(parts.pending).then((prompt) => ({ stepId: prompt.stepId, kind: prompt.kind })),
    statusBarText: () => parts.statusBar.item.text,
    statusBarShown: () => parts.statusBar.isShown(),
    statusBarTooltip: () => String(parts.statusBar.item.tooltip ?? ''),
    statusBarCommand: () => {
      const command = parts.statusBar.item.command;
      return typeof command === 'string' ? { command, title: command } : command;
    },
    runIds: async () => (await parts.runs.store.list()).map((run) => run.runId),
    runsViewNodes: async () => {
      const depthFirst = async (nodes: PlanTreeNode[]): Promise<PlanTreeNode[]> =>
        (await Promise.all(nodes.map(async (node) => [node, ...(await depthFirst(await listRuns(node)))]))).flat();
      return depthFirst(await listRuns());
    },
    runsViewShown: () => new Promise((resolve) => runsViewWaiters.push(resolve)),
    storageDir: context.storageUri?.fsPath,
    journal: async (runId) => (await parts.runs.store.load(runId))?.entries ?? [],
    isRunning: () => parts.runs.isRunning(),
    runFolder: (runId) => parts.runs.runInfo(runId)?.folder?.name,
    runningFolders: () => parts.runs.runningRuns().map((run) => run.folder?.name ?? ''),
    runningIn: (folder) => parts.runs.runningRuns().find((run) => run.folder?.name === folder)?.state?.runId,
    resumeRun: (runId) => parts.runs.resume(runId),
    setUpModel: (ui) => parts.setUp(ui),
    openRequestEditor: (text) => parts.requests.open(text),
    startPlan: (plan, folder) => parts.runs.start(plan, folder ? { folder } : {}),
    checkCommands: {
      answer: (allowed) => {
        checkCommandsAnswer = allowed;
      },
      questions,
      offered,
    },
    undoQuestions: {
      answer: (undo) => {
        undoAnswer = undo;
      },
      questions: undoQuestions,
    },
    commandRules: {
      inForce: () => parts.commandRules.rules().map((rule) => [...rule]),
      add: (argv) => parts.commandRules.add(argv),
      remove: (argv) => parts.commandRules.remove(argv),
    },
    apiKeys: {
      store: (key, baseUrl) => parts.planTaskDeps.keys.store(key, baseUrl),
      clear: () => parts.planTaskDeps.keys.clear(),
      answer: (choice) => {
        keyAnswer = choice;
      },
      asked: keyQuestions,
      said: keyMessages,
      // The name src/vscode/apiKeyStore.ts stores the keys under, read back from the real SecretStorage.
      stored: () => context.secrets.get('taskPlanner.apiKeys'),
    },
    setWorkspaceTrusted: (trusted) => {
      trustedOverride = trusted;
    },
    setPlanReview: (replacement) => {
      reviewOverride = replacement;
    },
    planPanel,
    chat: parts.chat,
  };
}

/** Nothing to release beyond `context.subscriptions`. */
export function deactivate(): void {}
