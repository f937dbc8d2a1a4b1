import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentLimits } from '../core/agent/agentLimits';
import type { ReplanLimits } from '../core/engine/hostRunOptions';
import type { BudgetLimits } from '../core/llm/budget';
import type { RunOptions, RunResult } from '../core/engine/runOptions';
import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { CommandAllowList, LlmClient, RunStore, WorkspaceFs, CheckpointStore } from '../core/ports';
import type { Plan } from '../core/plan/planSchema';
import type { CheckCommand, CheckCommandConsent } from '../core/engine/checkCommandConsent';
import type { PlanningStrategy } from '../core/session/planningPrompt';
import type { ApprovalPolicy, Tool } from '../core/tools/tool';
import type { UndoReport } from '../core/tools/undoRun';
import { runInterruption } from '../core/engine/runInterruption';
import { loadCheckpointFile } from '../node/checkpointFile';
import { loadRuntime } from './loadRuntime';
import { readSettings } from './settings';
import { attachmentChoices, checkAttachments, type AttachmentCheckUi } from './attachmentCheck';

/** What a run needs besides its plan, read when it starts. */
export interface RunSetup {
  llm: LlmClient | undefined;
  approvalPolicy: ApprovalPolicy;
  /** The planning strategy agents are guided by (`taskPlanner.strategy`). */
  strategy: PlanningStrategy;
  maxConcurrency: number;
  agentLimits: Partial<AgentLimits>;
  /** A model reviews critical agent steps (`taskPlanner.verification.reviewCriticalSteps`). */
  reviewCriticalSteps: boolean;
  /** Per-run limits of model use (`taskPlanner.budget.*`); reaching one pauses the run. */
  budget: BudgetLimits;
  /** How far a failed run is repaired with new plans (`taskPlanner.replan.*`). */
  replan: ReplanLimits;
}

/** Everything the controller is built from (wired in `activate`). */
export interface RunControllerDeps {
  tools: () => readonly Tool[];
  interaction: RunOptions['interaction'];
  log: vscode.LogOutputChannel;
  /** Workspace storage of the extension (`context.storageUri`); runs live in memory without it. */
  storageDir: string | undefined;
  /** What a run needs besides its plan, from the settings: read when each run starts or resumes. */
  setup: () => Promise<RunSetup>;
  /** Workspace state: remembers the executing run, so a run cut off by a reload is offered for resuming (see `interruptedRun`). */
  memento?: vscode.Memento;
  /** Asks what to do about a missing attachment before a run starts; default: a modal warning and the open-file dialog. */
  attachmentUi?: AttachmentCheckUi;
  /**
   * Asks once at Start whether the plan's check commands may run (`question` lists them):
   * true allows them for the run, `'workspace'` (offered when `offerWorkspace`) also makes
   * each an allow rule of this workspace, false declines them (their checks fail as not
   * allowed), `undefined` (closed) starts nothing. Default: a modal dialog.
   */
  confirmCheckCommands?: (question: string, offerWorkspace: boolean) => Promise<boolean | 'workspace' | undefined>;
  /** The command allow rules: commands they allow run without asking, and are not asked about at Start. */
  commandRules?: CheckCommandRules;
}

/** The allow rules as the Start question uses them (`EditorCommandAllowList`). */
export interface CheckCommandRules extends CommandAllowList {
  /** Whether `command` can become a rule of this workspace that would allow it where it runs. */
  canAllow(command: CheckCommand): boolean;
  add(argv: readonly string[]): Promise<void>;
}

/** The Start-time question as a modal dialog: Allow, Allow for this workspace (when offered), Don't Allow, or closed (Cancel). */
async function askCheckCommandsModal(question: string, offerWorkspace: boolean): Promise<boolean | 'workspace' | undefined> {
  const [first, ...rest] = question.split('\n');
  const allow = vscode.l10n.t('Allow');
  const always = vscode.l10n.t('Always Allow in This Workspace');
  const choices = [allow, ...(offerWorkspace ? [always] : []), vscode.l10n.t("Don't Allow")];
  const choice = await vscode.window.showWarningMessage(first ?? question, { modal: true, detail: rest.join('\n') }, ...choices);
  return choice === undefined ? undefined : choice === always ? 'workspace' : choice === allow;
}

/** The editor's dialogs for a missing attachment: a modal warning with the choices, then the open-file dialog. */
const vscodeAttachmentUi: AttachmentCheckUi = {
  ask: async (message) => {
    const labels = attachmentChoices.map((choice) => (choice === 'Run without it' ? vscode.l10n.t('Run without it') : vscode.l10n.t('Choose another file…')));
    const picked = await vscode.window.showWarningMessage(vscode.l10n.t('Task Planner: {0}', message), { modal: true }, ...labels);
    return attachmentChoices[labels.findIndex((label) => label === picked)];
  },
  chooseFile: async (kind) => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const picked = await vscode.window.showOpenDialog({
      ...(folder ? { defaultUri: folder.uri } : {}),
      canSelectMany: false,
      openLabel: vscode.l10n.t('Attach'),
      ...(kind === 'image' ? { filters: { [vscode.l10n.t('Images')]: ['png', 'jpg', 'jpeg', 'gif', 'webp'] } } : {}),
    });
    const uri = picked?.[0];
    // A file outside the folder comes back as an absolute path, which the check refuses and asks about again.
    return uri ? vscode.workspace.asRelativePath(uri, false) : undefined;
  },
};

/** The run that was executing when the window last went away: its id and objective. */
export interface InterruptedRun {
  runId: string;
  objective: string;
}

const activeRunKey = 'taskPlanner.activeRun';

/**
 * Runs plans against the first workspace folder and keeps the active run's snapshot
 * (`RunState`, folded from its events) for the views. Runs are journaled in workspace
 * storage, so they can be listed, resumed after a reload, and undone.
 */
export class RunController implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunState | undefined>();
  /** Fires with each new snapshot of the active run. */
  readonly onDidChangeState = this.changed.event;
  private readonly eventFired = new vscode.EventEmitter<{ event: RunEvent; state: RunState }>();
  /**
   * Fires with every event of the active execution (repair runs included) and the snapshot it
   * led to: the one folded state every view shows (a repair run continues its execution's state).
   */
  readonly onDidRunEvent = this.eventFired.event;
  private readonly finished = new vscode.EventEmitter<RunResult>();
  /** Fires when a run ends (completed, failed, cancelled or waiting). */
  readonly onDidFinish = this.finished.event;
  private runStore: RunStore | undefined;
  private checkpointStore: Promise<CheckpointStore> | undefined;
  private state: RunState | undefined;
  private abort: AbortController | undefined;
  private running: Promise<RunResult> | undefined;

  constructor(private readonly deps: RunControllerDeps) {
  }

  /** Where runs are journaled (created on first use). */
  get store(): RunStore {
    const runtime = loadRuntime();
    return (this.runStore ??= this.deps.storageDir ? runtime.createFileRunStore(join(this.deps.storageDir, 'runs')) : runtime.createMemoryRunStore());
  }

  /** The active (or last) run's snapshot. */
  current(): RunState | undefined {
    return this.state;
  }

  /** Whether a run is executing now. */
  isRunning(): boolean {
    return this.running !== undefined;
  }

  /** The checkpoints of every run (for "Undo run"). */
  checkpoints(): Promise<CheckpointStore> {
    return (this.checkpointStore ??= loadCheckpointFile(join(this.deps.storageDir ?? join(tmpdir(), 'task-planner'), 'checkpoints.json')));
  }

  /** The workspace runs act on; throws when no folder is open. */
  workspace(): WorkspaceFs {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error(vscode.l10n.t('Open a folder first: Task Planner runs plans against the workspace folder.'));
    return loadRuntime().createVscodeWorkspaceFs(folder.uri, { allowHardLinks: readSettings().allowHardLinks });
  }

  /**
   * Executes `plan` (repairing it with the model when a step asks for a replan); `initialResults` are steps already done.
   * First every file and image attachment is checked: a missing one asks the user for another, to run without it, or
   * to cancel (then nothing starts and this rejects saying so).
   */
  async start(plan: Plan, initialResults?: Record<string, unknown>): Promise<RunResult> {
    if (this.running) throw new Error(vscode.l10n.t('A run is already in progress: wait for it to finish or cancel it first.'));
    const runtime = loadRuntime();
    const workspace = this.workspace();
    const checked = await checkAttachments(plan, {
      ui: this.deps.attachmentUi ?? vscodeAttachmentUi,
      problems: (candidate) => runtime.findAttachmentProblems(candidate, workspace),
      replace: runtime.replaceAttachment,
    });
    if (!checked) throw new Error(vscode.l10n.t("a step's attachment is missing and you chose Cancel; nothing was started."));
    return this.execute(
      checked,
      initialResults,
      async (options) =>
        loadRuntime().executeWithReplanning(checked, checked.objective, {
          ...options,
          ...(initialResults ? { initialResults } : {}),
          onEvent: (event) => this.apply(event),
        }),
      undefined,
    );
  }

  /**
   * Continues a stored run from its journal; finished steps are not run again, and steps
   * that ask for a repair plan get one, as in `start`.
   */
  async resume(runId: string): Promise<RunResult> {
    // Start from the journal's snapshot, so the views show the plan and finished steps at once.
    const stored = await this.load(runId);
    return this.execute(
      stored?.plan,
      stored?.results,
      async (options) => loadRuntime().resumeWithReplanning(runId, { ...options, onEvent: (event) => this.apply(event) }),
      stored ?? loadRuntime().initialRunState(runId),
    );
  }

  /** A stored run's last snapshot, from its journal. */
  async load(runId: string): Promise<RunState | undefined> {
    if (this.state?.runId === runId) return this.state;
    const journal = await this.store.load(runId);
    return journal ? loadRuntime().replayJournal(runId, journal) : undefined;
  }

  /** Shows a stored run's last snapshot without running it. */
  async open(runId: string): Promise<RunState | undefined> {
    const state = await this.load(runId);
    if (state && !this.running) this.setState(state);
    return state;
  }

  /** Removes a stored run from the store (its journal and snapshot). */
  async delete(runId: string): Promise<void> {
    await this.store.delete(runId);
    if (this.state?.runId === runId) this.setState(undefined);
  }

  /** Restores the files the run `runId` changed, from its checkpoints (refusing files changed since). */
  async undo(runId: string): Promise<UndoReport> {
    return loadRuntime().undoRun(runId, { workspace: this.workspace(), checkpoints: await this.checkpoints() });
  }

  /** The workspace-relative paths the run `runId` changed, in first-change order. */
  async changedFiles(runId: string): Promise<string[]> {
    return [...new Set((await (await this.checkpoints()).list(runId)).map((checkpoint) => checkpoint.path))];
  }

  /**
   * The run that was executing when the window closed or reloaded (or the host crashed),
   * once: the record is cleared as it is read. `undefined` when the last run ended normally.
   */
  async takeInterruptedRun(): Promise<InterruptedRun | undefined> {
    const memento = this.deps.memento;
    const record = memento?.get<InterruptedRun>(activeRunKey);
    if (!memento || !record || typeof record.runId !== 'string') return undefined;
    await memento.update(activeRunKey, undefined);
    return { runId: record.runId, objective: typeof record.objective === 'string' ? record.objective : record.runId };
  }

  /** Cancels the active run; its journal stays resumable. */
  cancel(): void {
    this.abort?.abort(new Error('Cancelled by the user.'));
  }

  dispose(): void {
    // The window is closing or reloading: stop, leaving the journal resumable from the Runs view.
    this.abort?.abort(runInterruption('The window was closed or reloaded; resume the run from the notification or the Runs view.'));
    this.changed.dispose();
    this.eventFired.dispose();
    this.finished.dispose();
  }

  /**
   * The user's answer to `plan`'s check commands, asked once before it runs (steps with a
   * result in `completed` left out); `undefined` when it has none or the workspace is not
   * trusted. Throws (nothing starts) when the question was closed unanswered.
   */
  private async checkCommandConsent(
    plan: Plan | undefined,
    completed: Record<string, unknown> | undefined,
  ): Promise<CheckCommandConsent | undefined> {
    const rules = this.deps.commandRules;
    const commands = plan ? loadRuntime().planCheckCommands(plan, completed, rules?.rules()) : [];
    // In Restricted Mode every command is refused before it is asked about: no question to ask.
    if (commands.length === 0 || !vscode.workspace.isTrusted) return undefined;
    const offerWorkspace = rules !== undefined && commands.every((command) => rules.canAllow(command));
    const allowed = await (this.deps.confirmCheckCommands ?? askCheckCommandsModal)(loadRuntime().checkCommandsQuestion(commands), offerWorkspace);
    if (allowed === undefined) {
      throw new Error(vscode.l10n.t('The run was not started: the question whether its check commands may run was closed without an answer.'));
    }
    if (allowed === 'workspace' && rules !== undefined) {
      for (const command of commands) await rules.add(command.argv);
    }
    return { allowed: allowed !== false, commands };
  }

  private async execute(
    plan: Plan | undefined,
    completed: Record<string, unknown> | undefined,
    go: (options: RunOptions) => Promise<RunResult>,
    first: RunState | undefined,
  ): Promise<RunResult> {
    if (this.running) throw new Error(vscode.l10n.t('A run is already in progress: wait for it to finish or cancel it first.'));
    const setup = await this.deps.setup();
    const workspace = this.workspace();
    const folder = vscode.workspace.workspaceFolders?.[0];
    const checkCommands = await this.checkCommandConsent(plan, completed);
    const abort = new AbortController();
    this.abort = abort;
    this.setState(first);
    const log = this.deps.log;
    const options = loadRuntime().hostRunOptions({
      tools: this.deps.tools(),
      workspace,
      commandRunner: loadRuntime().createNodeCommandRunner(workspace.rootLabel),
      allowedCommands: this.deps.commandRules,
      diagnostics: folder ? loadRuntime().createVscodeDiagnostics(folder.uri) : undefined,
      store: this.store,
      interaction: this.deps.interaction,
      checkpoints: await this.checkpoints(),
      logger: {
        debug: (message) => log.debug(message),
        info: (message) => log.info(message),
        warn: (message) => log.warn(message),
        error: (message) => log.error(message),
      },
      clock: loadRuntime().timerClock,
      signal: abort.signal,
      llm: setup.llm,
      budget: setup.budget,
      approvalPolicy: setup.approvalPolicy,
      strategy: setup.strategy,
      maxConcurrency: setup.maxConcurrency,
      agentLimits: setup.agentLimits,
      replan: setup.replan,
      reviewCriticalSteps: setup.reviewCriticalSteps,
      noModelHint: vscode.l10n.t("Run 'Task Planner: Set up a model', or change the step to one you do yourself."),
    });
    const running = go(checkCommands ? { ...options, checkCommands } : options);
    this.running = running;
    void vscode.commands.executeCommand('setContext', 'taskPlanner.runActive', true);
    try {
      const result = await running;
      if (result.status !== 'interrupted') void this.deps.memento?.update(activeRunKey, undefined);
      this.deps.log.info(`Run ${result.runId} ended ${result.status}${result.metadata.reason ? `: ${result.metadata.reason}` : ''}`);
      this.finished.fire(result);
      return result;
    } finally {
      this.running = undefined;
      this.abort = undefined;
      void vscode.commands.executeCommand('setContext', 'taskPlanner.runActive', false);
    }
  }

  private apply(event: RunEvent): void {
    this.deps.log.trace(`${event.runId} #${event.seq} ${event.type}${'stepId' in event ? ` ${event.stepId}` : ''}`);
    // `execute` clears the state before a start: a run id other than the state's is a repair run of this execution.
    const state = loadRuntime().reduceExecutionEvent(this.state, event);
    // Journaled runs only: a run kept in memory cannot come back after a reload.
    if ((event.type === 'run_started' || event.type === 'run_resumed') && this.deps.storageDir && state.plan) {
      void this.deps.memento?.update(activeRunKey, { runId: event.runId, objective: state.plan.objective } satisfies InterruptedRun);
    }
    this.setState(state);
    this.eventFired.fire({ event, state });
  }

  private setState(state: RunState | undefined): void {
    this.state = state;
    this.changed.fire(state);
  }
}
