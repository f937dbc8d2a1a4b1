import * as vscode from 'vscode';
import type { BudgetLimits } from '../core/llm/budget';
import type { RunOptions, RunResult } from '../core/engine/runOptions';
import type { PlanOrigin, RunEvent, RunState } from '../core/engine/runEvents';
import type { RunStore, CheckpointStore } from '../core/runStorePorts';
import type { LlmClient } from '../core/servicePorts';
import type { WorkspaceFs } from '../core/workspacePorts';
import type { Plan } from '../core/plan/planSchema';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import type { ExecutionFold } from '../core/replan/executionFold';
import type { ExecutionEvent } from './executionEvent';
import { RunChanges } from './runChanges';
import { runInterruption } from '../core/engine/runInterruption';
import { loadRuntime } from './loadRuntime';
import { readSettings } from './settings';
import { checkAttachments } from './attachmentCheck';
import { activeRunKey, FolderLanes, type Lane } from './folderLanes';
import { errorMessage } from '../shared/errorMessage';
import { CoalescedCall, runUpdateIntervalMs } from '../shared/coalescedCall';
import { vscodeAttachmentUi } from './runStartDialogs';
import type { RunControllerDeps } from './runControllerDeps';
import { takeInterruptedRuns, type InterruptedRun } from './interruptedRuns';
import { cutOffView, leftRunningView, storedOutput } from './storedRunView';
import { awaitsRepair, repairCutOff } from '../core/engine/awaitsRepair';
import { pickWorkspaceFolder, shownFolderName } from './workspaceFolders';
import { runStatusLabel } from '../shared/runStatusLabels';
import { RunInProgressError } from './runInProgress';
import { prepareRun, type PreparedRun, type RunPreparationContext } from './runPreparation';

/** How `RunController.start` runs a plan; each part has a default. */
export interface StartOptions {
  /** Results of steps already done (a run again from a step): they are not run. */
  initialResults?: Record<string, unknown>;
  /** The files each of those steps changed in the run it was kept from (`keptChangesOf`). */
  keptChanges?: Readonly<Record<string, readonly string[]>>;
  /** The folder to run in. */
  folder?: vscode.WorkspaceFolder;
  /** The model the run works with instead of the configured one (the one picked in the chat). */
  llm?: LlmClient;
  /** How the plan was made, when the editor planned it from a request: journaled as `plan_generated` after the start. */
  planOrigin?: PlanOrigin;
}

/** A run executing now and the folder it is confined to. */
export interface FolderRun {
  folder: vscode.WorkspaceFolder | undefined;
  state: RunState | undefined;
}

/**
 * Runs plans, each confined to one workspace folder, and keeps each folder's run snapshot
 * (`RunState`, folded from its events). Every folder has its own journal and checkpoints
 * in workspace storage (a single-folder window keeps them where they always were), so its
 * runs can be listed, resumed after a reload in that folder, and undone; runs of different
 * folders may execute at once, one per folder. The views follow the *current folder*
 * (`useFolder`): `current`, `isRunning`, `cancel` without a run id and the state events are its;
 * `onDidExecutionEvent` is every folder's, for a view that follows one run wherever it goes on.
 */
export class RunController implements vscode.Disposable {
  private nextRunLimits: BudgetLimits | undefined;
  private readonly changed = new vscode.EventEmitter<RunState | undefined>();
  /**
   * Fires with the current folder's run snapshot when it or the current folder changes: a running run's coalesced
   * (`runUpdateIntervalMs`: listeners walk every step), any other at once. A running snapshot is one object updated in
   * place (step states replaced, never changed; maps not copied per event, which was quadratic in the steps).
   */
  readonly onDidChangeState = this.changed.event;
  private readonly stateShown = new CoalescedCall(
    () => this.changed.fire(this.lanes.lane().state),
    () => runUpdateIntervalMs(this.lanes.lane().state?.plan?.steps.length ?? 0),
  );
  private readonly executionEventFired = new vscode.EventEmitter<ExecutionEvent>();
  /**
   * Fires with every event of every folder's execution (repair runs included) and the snapshot it led to (a repair
   * run continues its execution's state): a view following one execution follows it by its run ids, whichever
   * folder is current.
   */
  readonly onDidExecutionEvent = this.executionEventFired.event;
  private readonly executionStarted = new vscode.EventEmitter<void>();
  /** Fires as a run starts or resumes in any folder (its questions answered, before its first snapshot): not for a repair run, part of its execution. */
  readonly onDidStartExecution = this.executionStarted.event;
  private readonly finished = new vscode.EventEmitter<RunResult>();
  /** Fires when a run of any folder ends (completed, failed, cancelled or waiting). */
  readonly onDidFinish = this.finished.event;
  private readonly folderChanged = new vscode.EventEmitter<string | undefined>();
  /** Fires with the current folder's name when it changes; `undefined` while the window has one folder or none. */
  readonly onDidChangeFolder = this.folderChanged.event;
  private readonly lanes: FolderLanes;
  /** The folder each plan was made for, by plan id (the last planning wins). */
  private readonly planFolders = new Map<string, string>();
  /** Folds each lane's events into its state (made on first use: it lives in the runtime bundle). */
  private fold: ExecutionFold | undefined;

  /** What the stored runs changed, and Undo of it. */
  readonly changes: RunChanges;

  /** What a run's preparation reads from this controller. */
  private readonly preparation: RunPreparationContext;

  constructor(private readonly deps: RunControllerDeps) {
    this.lanes = new FolderLanes(deps.storageDir);
    this.changes = new RunChanges(this.lanes, ...(deps.confirmUndo ? [deps.confirmUndo] : []));
    this.preparation = {
      deps,
      lanes: this.lanes,
      capabilities: (folder) => this.capabilities(undefined, folder),
      takeNextRunLimits: () => this.takeNextRunLimits(),
    };
  }

  /** Where the current folder's runs are journaled (created on first use). */
  get store(): RunStore {
    return this.lanes.storeOf(this.lanes.lane());
  }

  /** The current folder's run snapshot (executing or last). */
  current(): RunState | undefined {
    return this.lanes.lane().state;
  }

  /**
   * The current folder's snapshot while the run `runId` executes there (as the run started or resumed, or as a run
   * its repair runs went on from): what a view following that execution shows; `undefined` when it does not execute.
   */
  executing(runId: string): RunState | undefined {
    const lane = this.lanes.lane();
    return lane.execution?.has(runId) ? lane.state : undefined;
  }

  /** Whether a run of the current folder is executing now. */
  isRunning(): boolean {
    return this.lanes.lane().running !== undefined;
  }

  /** The runs executing now, in any folder. */
  runningRuns(): FolderRun[] {
    return this.lanes.made().filter((lane) => lane.running !== undefined).map((lane) => ({ folder: lane.folder, state: lane.state }));
  }

  /** The folder the views follow; `undefined` when none was chosen in a window of several folders. */
  folder(): vscode.WorkspaceFolder | undefined {
    return this.lanes.lane().folder;
  }

  /** Makes `folder` the current folder (the views show its run). */
  useFolder(folder: vscode.WorkspaceFolder): void {
    if (!this.lanes.useFolder(folder)) return;
    const lane = this.lanes.lane();
    this.folderChanged.fire(shownFolderName(lane.folder));
    this.stateShown.now();
  }

  /** Remembers that the plan `planId` was made for `folder`: a later start of it runs there. */
  planFor(planId: string, folder: vscode.WorkspaceFolder): void {
    this.planFolders.set(planId, folder.uri.toString());
  }

  /** The folder the plan `planId` was made for (see `planFor`), while it is open. */
  planFolder(planId: string): vscode.WorkspaceFolder | undefined {
    const key = this.planFolders.get(planId);
    return vscode.workspace.workspaceFolders?.find((folder) => folder.uri.toString() === key);
  }

  /** The run `runId`'s folder and last snapshot, when known to this window (executing, shown or looked up). */
  runInfo(runId: string): FolderRun | undefined {
    const lane = this.lanes.known(runId);
    return lane && { folder: lane.folder, state: lane.state?.runId === runId ? lane.state : undefined };
  }

  /** The checkpoints of the current folder's runs (for "Undo run"). */
  checkpoints(): Promise<CheckpointStore> {
    return this.lanes.checkpointsOf(this.lanes.lane());
  }

  /** `folder`'s workspace (default: the current folder's); throws when no folder is open or none was chosen. */
  workspace(folder?: vscode.WorkspaceFolder): WorkspaceFs {
    return this.lanes.workspaceOf(this.lanes.lane(folder));
  }

  /**
   * `folder`'s (default: the current folder's) instructions and skills with the user's
   * skills folders, read again now; kept for `knownCapabilities`. Without an open folder
   * there is no catalogue: empty.
   */
  async capabilities(signal?: AbortSignal, folder?: vscode.WorkspaceFolder): Promise<CapabilityCatalogue> {
    if (!vscode.workspace.workspaceFolders?.[0]) return { instructions: [], skills: [], diagnostics: [] };
    const lane = this.lanes.lane(folder);
    lane.catalogue = await loadRuntime().readEditorCapabilities(this.lanes.workspaceOf(lane), this.deps.log, {
      allowHardLinks: readSettings().allowHardLinks,
      ...(signal ? { signal } : {}),
    });
    return lane.catalogue;
  }

  /** The current folder's catalogue as `capabilities` read it last; `undefined` before it was first read. */
  knownCapabilities(): CapabilityCatalogue | undefined {
    return this.lanes.lane().catalogue;
  }

  /**
   * The budget of the next run that starts, over the settings' limits of the same kind (the
   * panel's "Stop at" from the estimate); taken by that run, `undefined` clears it.
   */
  limitNextRun(limits: BudgetLimits | undefined): void {
    this.nextRunLimits = limits;
  }

  private takeNextRunLimits(): BudgetLimits {
    const limits = this.nextRunLimits ?? {};
    this.nextRunLimits = undefined;
    return limits;
  }

  /**
   * Executes `plan` (repairing it with the model when a step asks for a replan). It runs in `options.folder`, else
   * the folder the plan was made for, else the current folder (asked for in a window of several folders when none
   * was chosen), with `options.llm`, else the configured model. First every file and image attachment is checked:
   * a missing one asks the user for another, to run without it, or to cancel (then nothing starts and this rejects
   * saying so).
   */
  async start(plan: Plan, options: StartOptions = {}): Promise<RunResult> {
    const { initialResults, keptChanges, folder, llm, planOrigin } = options;
    const lane = await this.laneToStart(plan, folder);
    if (lane.running || lane.abort) throw new RunInProgressError(alreadyRunning(lane), lane.running ? lane.state?.runId : undefined);
    const runtime = loadRuntime();
    const workspace = this.lanes.workspaceOf(lane);
    const checked = await checkAttachments(plan, {
      ui: this.deps.attachmentUi ?? vscodeAttachmentUi(lane.folder),
      problems: (candidate) => runtime.findAttachmentProblems(candidate, workspace),
      replace: runtime.replaceAttachment,
    });
    if (!checked) throw new Error(vscode.l10n.t("a step's attachment is missing and you chose Cancel; nothing was started."));
    return this.execute(
      lane,
      checked,
      initialResults,
      async (options) =>
        loadRuntime().executeWithReplanning(checked, checked.objective, {
          ...options,
          ...(initialResults ? { initialResults } : {}),
          ...(keptChanges ? { keptChanges } : {}),
          ...(planOrigin ? { planOrigin } : {}),
          onEvent: (event) => this.apply(lane, event),
        }),
      undefined,
      llm,
    );
  }

  /**
   * Continues a stored run from its journal, in the folder whose journal holds it; finished steps are not run
   * again, and steps that ask for a repair plan get one, as in `start`.
   */
  async resume(runId: string): Promise<RunResult> {
    const lane = await this.lanes.ofRun(runId);
    // Start from the journal's snapshot, so the views show the plan and finished steps at once.
    const stored = await this.lanes.loadIn(lane, runId);
    return this.execute(
      lane,
      stored?.plan,
      stored?.results,
      async (options) => loadRuntime().resumeWithReplanning(runId, { ...options, onEvent: (event) => this.apply(lane, event) }),
      stored ?? loadRuntime().initialRunState(runId),
    );
  }

  /** Sends the trace of `runId` to the user's collector; a failure is logged, never the run's. */
  private async sendTrace(lane: Lane, runId: string, trace: { url: string; content: boolean }): Promise<void> {
    try {
      const runtime = loadRuntime();
      await runtime.exportRunTraces(this.lanes.storeOf(lane), [runId], runtime.createOtlpTraceExporter(trace.url, 'extension'), { content: trace.content });
      this.deps.log.info(`Trace of run ${runId} sent to ${loadRuntime().shownTraceUrl(trace.url)}`);
    } catch (error) {
      this.deps.log.warn(`The trace of run ${runId} was not sent: ${errorMessage(error)}`);
    }
  }

  /** A stored run's last snapshot, from the journal of the folder that holds it. */
  async load(runId: string): Promise<RunState | undefined> {
    return this.lanes.loadIn(await this.lanes.ofRun(runId), runId);
  }

  /** The run `runId` as this window holds it (live, or the latest of its folder), else as its journal left it. */
  async stateOf(runId: string): Promise<RunState | undefined> {
    return this.runInfo(runId)?.state ?? (await this.load(runId));
  }

  /** Whether any folder keeps a stored run, without loading the run store (`FolderLanes.anyStoredRun`). */
  hasStoredRuns(): Promise<boolean> {
    return this.lanes.anyStoredRun();
  }

  /** The journaled runs of every folder (each folder's own store), with the folder they ran in. */
  async listAll(): Promise<{ folder: vscode.WorkspaceFolder | undefined; runId: string; updatedAt: number }[]> {
    const listed = await Promise.all(
      this.lanes.all().map(async (lane) =>
        (await this.lanes.storeOf(lane).list()).map((run) => {
          this.lanes.remember(run.runId, lane);
          return { folder: lane.folder, runId: run.runId, updatedAt: run.updatedAt };
        }),
      ),
    );
    return listed.flat().sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Shows a stored run's last snapshot without running it; its folder becomes the current folder. */
  async open(runId: string): Promise<RunState | undefined> {
    const lane = await this.lanes.ofRun(runId);
    const loaded = await this.lanes.loadIn(lane, runId);
    // As in the Runs view: a run whose repair a stop cut off, or one left `running` by a window that went away (no
    // execution of this window holds it), reads as interrupted, with Resume; not as failed for good, nor as going on.
    const live = lane.running !== undefined && lane.execution?.has(runId) === true;
    const store = this.lanes.storeOf(lane);
    const state = loaded !== undefined && !live ? ((await cutOffView(store, loaded)) ?? leftRunningView(loaded)) : loaded;
    if (state && lane.folder) this.useFolder(lane.folder);
    if (state && !lane.running) this.setState(lane, state);
    return state;
  }

  /** The output of the stored run `runId`'s steps, read again from its journals (`storedOutput`). */
  async storedOutput(runId: string): Promise<RunEvent[]> {
    const lane = await this.lanes.ofRun(runId);
    return storedOutput(this.lanes.storeOf(lane), runId, await this.lanes.loadIn(lane, runId));
  }

  /** Whether the stored run `state` awaits a repair that never began (`repairCutOff`), in the folder whose journal holds it. */
  async awaitsItsRepair(state: RunState): Promise<boolean> {
    const store = this.lanes.storeOf(await this.lanes.ofRun(state.runId));
    return repairCutOff(state, (id) => store.load(id));
  }

  /**
   * Shows the run `runId`, cut off by the last reload, as it stood (`interruptedRunState`:
   * interrupted, nothing waiting for an answer until it is resumed); its folder becomes the
   * current folder. `undefined` (nothing shown) when it is not found or its folder runs again.
   */
  async showInterrupted(runId: string): Promise<RunState | undefined> {
    const lane = await this.lanes.ofRun(runId);
    const stored = await this.lanes.loadIn(lane, runId);
    if (!stored || lane.running || lane.abort) return undefined;
    const cutOff = await cutOffView(this.lanes.storeOf(lane), stored);
    // Its repair run began (a notice of an older window): shown as it is, not as awaiting its repair.
    if (cutOff === undefined && awaitsRepair(stored)) return stored;
    const state = cutOff ?? leftRunningView(stored);
    if (lane.folder) this.useFolder(lane.folder);
    this.setState(lane, state);
    return state;
  }

  /** Removes a stored run from its folder's store (its journal and snapshot). */
  async delete(runId: string): Promise<void> {
    const lane = await this.lanes.ofRun(runId);
    await this.lanes.storeOf(lane).delete(runId);
    if (lane.state?.runId === runId) this.setState(lane, undefined);
  }

  /**
   * The run that was executing when the window closed or reloaded (or the host crashed),
   * once: the record is cleared as it is read. `undefined` when the last run ended normally.
   */
  async takeInterruptedRun(): Promise<InterruptedRun | undefined> {
    return (await this.takeInterruptedRuns())[0];
  }

  /** Every folder's run cut off by the last reload (see `takeInterruptedRun`), each record cleared as it is read. */
  async takeInterruptedRuns(): Promise<InterruptedRun[]> {
    const memento = this.deps.memento;
    if (!memento) return [];
    // A journal that cannot be read is taken for this window's: resuming it says what is wrong with it.
    const journaled = (runId: string): Promise<boolean> => this.lanes.holding(runId).then((lane) => lane !== undefined, () => true);
    return takeInterruptedRuns(memento, [activeRunKey, ...this.lanes.all().map((lane) => lane.mementoKey)], journaled);
  }

  /**
   * Cancels the execution the run `runId` is part of (its run or a repair run, in any folder), else, without `runId`,
   * the current folder's run; its journal stays resumable. False when nothing executing was cancelled.
   */
  cancel(runId?: string): boolean {
    const lane =
      runId === undefined
        ? this.lanes.lane()
        : this.lanes.made().find((candidate) => candidate.running !== undefined && candidate.execution?.has(runId) === true);
    if (!lane?.abort) return false;
    lane.abort.abort(new Error('Cancelled by you.'));
    return true;
  }

  dispose(): void {
    // The window is closing or reloading: stop, leaving the journals resumable from the Runs view.
    for (const lane of this.lanes.made()) {
      lane.abort?.abort(runInterruption('The window was closed or reloaded; resume the run from the notification or the Runs view.'));
    }
    this.stateShown.cancel();
    this.changed.dispose();
    this.executionEventFired.dispose();
    this.executionStarted.dispose();
    this.finished.dispose();
    this.changes.dispose();
    this.folderChanged.dispose();
  }

  /** The lane a start runs in: the given folder, the plan's, the current one, or the one the user picks. */
  private async laneToStart(plan: Plan, folder: vscode.WorkspaceFolder | undefined): Promise<Lane> {
    if (folder) return this.lanes.lane(folder);
    const folders = vscode.workspace.workspaceFolders ?? [];
    const planned = this.planFolder(plan.id);
    if (planned) return this.lanes.lane(planned);
    const current = this.lanes.lane();
    if (current.folder || folders.length <= 1) return current;
    const picked = await pickWorkspaceFolder(vscode.l10n.t('Which folder should the plan run in?'));
    if (!picked) throw new Error(vscode.l10n.t('No folder was chosen; nothing was started.'));
    return this.lanes.lane(picked);
  }

  private async execute(
    lane: Lane,
    plan: Plan | undefined,
    completed: Record<string, unknown> | undefined,
    go: (options: RunOptions) => Promise<RunResult>,
    first: RunState | undefined,
    llm?: LlmClient,
  ): Promise<RunResult> {
    // A folder's run is reserved from here (`abort` set), so a second start there during the questions below is refused.
    if (lane.running || lane.abort) throw new RunInProgressError(alreadyRunning(lane), lane.running ? lane.state?.runId : undefined);
    const abort = new AbortController();
    lane.abort = abort;
    let prepared: PreparedRun;
    try {
      prepared = await prepareRun(this.preparation, lane, plan, completed, llm);
    } catch (error) {
      lane.abort = undefined;
      throw error;
    }
    const folder = lane.folder;
    this.executionStarted.fire();
    if (folder) this.useFolder(folder);
    this.setState(lane, first);
    lane.execution = new Set(first ? [first.runId] : []);
    const running = go({ ...prepared.options, signal: abort.signal });
    lane.running = running;
    void vscode.commands.executeCommand('setContext', 'taskPlanner.runActive', true);
    try {
      const result = await running;
      this.lanes.remember(result.runId, lane);
      if (result.status !== 'interrupted') void this.deps.memento?.update(lane.mementoKey, undefined);
      const ended = runStatusLabel(result.status, Object.values(result.steps));
      this.deps.log.info(`Run ${result.runId} ended: ${ended}${result.metadata.reason ? `. ${result.metadata.reason}` : ''}`);
      if (prepared.trace !== undefined) void this.sendTrace(lane, result.runId, prepared.trace);
      this.finished.fire(result);
      return result;
    } finally {
      prepared.release();
      lane.running = undefined;
      lane.execution = undefined;
      lane.abort = undefined;
      void vscode.commands.executeCommand('setContext', 'taskPlanner.runActive', this.runningRuns().length > 0);
    }
  }

  private apply(lane: Lane, event: RunEvent): void {
    this.deps.log.trace(`${event.runId} #${event.seq} ${event.type}${'stepId' in event ? ` ${event.stepId}` : ''}`);
    // `execute` clears the state before a start: a run id other than the state's is a repair run of this execution.
    this.fold ??= new (loadRuntime().ExecutionFold)();
    const state = this.fold.after(lane.state, event);
    this.lanes.remember(event.runId, lane);
    lane.execution?.add(event.runId);
    // Journaled runs only: a run kept in memory cannot come back after a reload.
    if ((event.type === 'run_started' || event.type === 'run_resumed') && lane.storageDir && state.plan) {
      void this.deps.memento?.update(lane.mementoKey, { runId: event.runId, objective: state.plan.objective } satisfies InterruptedRun);
    }
    this.setState(lane, state);
    const inCurrentFolder = lane === this.lanes.lane();
    this.executionEventFired.fire({ event, state, execution: lane.execution ?? new Set([event.runId]), inCurrentFolder });
  }

  private setState(lane: Lane, state: RunState | undefined): void {
    lane.state = state;
    if (lane !== this.lanes.lane()) return;
    if (state?.status === 'running') this.stateShown.schedule();
    else this.stateShown.now();
  }
}

/** Why a second run cannot start in `lane`'s folder now. */
function alreadyRunning(lane: Lane): string {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 && lane.folder
    ? vscode.l10n.t('A run is already in progress in the folder "{0}": wait for it to finish or cancel it first.', lane.folder.name)
    : vscode.l10n.t('A run is already in progress: wait for it to finish or cancel it first.');
}

