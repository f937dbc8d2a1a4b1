import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { PanelSession, type RunDetails } from '../core/view/panelSession';
import { parseWebviewMessage, type HostToWebviewMessage, type WebviewMessageType, type WebviewToHostMessage } from '../shared/panelProtocol';
import type { PanelViewModel } from '../shared/panelViewModel';
import { createNonce, panelHtml } from './panelHtml';
import type { PlanPanelCallbacks } from './planPanelCallbacks';

/** The webview panel type (also the id of its serializer, were one registered). */
export const planPanelViewType = 'taskPlanner.planPanel';

/** Least time between two snapshots posted while a run streams events, in milliseconds. */
const snapshotIntervalMs = 30;

type Handlers = { [K in WebviewMessageType]: (message: Extract<WebviewToHostMessage, { type: K }>) => void | Promise<void> };

/** What the panel saw, for the extension's test API. */
export interface PlanPanelTrace {
  received: WebviewToHostMessage[];
  posted: HostToWebviewMessage[];
  refused: string[];
}

/**
 * The plan panel in the editor area: hosts the webview (strict CSP with a nonce, resources
 * only from `dist` and `media`, no `retainContextWhenHidden`: the webview keeps its state
 * with `setState` and asks again with `ready` when shown), validates every message from it
 * with zod and dispatches it through a handler map, and posts complete versioned snapshots
 * (coalesced while a run streams) and numbered output chunks.
 */
export class PlanPanel implements vscode.Disposable {
  private readonly session: PanelSession;
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastPostAt = 0;
  private noticeId = 0;
  private disposed = false;
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  /** Fires once the user closed the panel. */
  readonly onDidDispose = this.onDisposeEmitter.event;
  /** Messages in and out, kept for tests (bounded). */
  readonly trace: PlanPanelTrace = { received: [], posted: [], refused: [] };

  private readonly handlers: Handlers = {
    ready: () => {
      this.ready = true;
      this.postSnapshotNow();
      const resync = this.session.outputResync();
      if (resync) this.post(resync);
    },
    setUpModel: async () => {
      await vscode.commands.executeCommand('taskPlanner.setUpModel');
      // the snapshot re-reads whether a model is available now
      this.postSnapshotNow();
    },
    edit: ({ edit }) => {
      const result = this.session.applyEdit(edit);
      if (!result.ok) return this.notice('error', result.error);
      this.callbacks.onPlanEdited?.(result.plan);
      this.postSnapshotNow();
    },
    regenerate: async ({ feedback }) => {
      const plan = this.session.currentPlan();
      this.session.setRegenerateBlocked(this.callbacks.regenerateBlockedReason?.());
      const blocked = this.session.regenerateBlockedReason();
      if (!plan || blocked !== undefined) {
        this.postSnapshotNow();
        return this.notice('error', blocked ?? 'There is no plan to regenerate.');
      }
      this.session.setRegenerating(true);
      this.postSnapshotNow();
      try {
        const next = await this.callbacks.onRegenerate(feedback, plan);
        if (next) {
          const shown = this.session.setRegenerated(next, feedback);
          this.callbacks.onPlanEdited?.(shown);
          this.notice('info', `Regenerated: version ${shown.version} replaces version ${plan.version}. Every earlier version stays in the version list.`);
        } else {
          this.session.setRegenerating(false);
        }
      } catch (error) {
        this.session.setRegenerating(false);
        this.notice('error', `Regenerating failed: ${errorText(error)}`);
      }
      this.postSnapshotNow();
    },
    restoreVersion: ({ version }) => {
      const result = this.session.restoreVersion(version);
      if (!result.ok) return this.notice('error', result.error);
      this.callbacks.onPlanEdited?.(result.plan);
      this.notice('info', `Version ${version} is back, as version ${result.plan.version}.`);
      this.postSnapshotNow();
    },
    start: async () => {
      const blocked = this.session.startBlockedReason();
      const plan = this.session.currentPlan();
      if (blocked !== undefined || !plan) return this.notice('error', blocked ?? 'There is no plan to start.');
      await this.callbacks.onStart(plan);
    },
    cancel: () => this.callbacks.onCancel(),
    openApproval: ({ stepId }) => this.callbacks.onOpenApproval(stepId),
    markManualStep: ({ stepId, done }) => this.callbacks.onMarkManualStep(stepId, done),
    openFile: async ({ path }) => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (!folder || path.split(/[\\/]/).includes('..')) return this.notice('error', `Cannot open ${path}: it is not inside the workspace.`);
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, path), { preview: true });
    },
    undoRun: async () => {
      const runId = this.session.runId();
      if (!runId || this.session.isRunning()) return this.notice('error', 'Only a finished run can be undone.');
      const message = await this.callbacks.onUndoRun(runId);
      this.session.setRunDetails({ undoMessage: message });
      this.notice('info', message);
      this.postSnapshotNow();
    },
    resyncOutput: () => {
      const resync = this.session.outputResync();
      if (resync) this.post(resync);
    },
    rendered: () => undefined,
  };

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly callbacks: PlanPanelCallbacks,
    tools: readonly Tool[],
    private readonly log: vscode.LogOutputChannel | undefined,
  ) {
    this.session = new PanelSession(randomUUID(), tools);
    panel.webview.html = panelHtml(panel.webview, extensionUri, createNonce());
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidChangeViewState(({ webviewPanel }) => {
        // a hidden webview is torn down; it sends `ready` again when shown
        if (!webviewPanel.visible) this.ready = false;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Opens a new panel beside the active editor. */
  static create(extensionUri: vscode.Uri, callbacks: PlanPanelCallbacks, options: { tools: readonly Tool[]; log?: vscode.LogOutputChannel }): PlanPanel {
    const panel = vscode.window.createWebviewPanel(planPanelViewType, 'Task Planner: Plan', { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
    });
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'taskPlanner.svg');
    return new PlanPanel(panel, extensionUri, callbacks, options.tools, options.log);
  }

  /** True once the user closed the panel. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Brings the panel to the front. */
  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** Shows `plan` for review. */
  showPlan(plan: Plan): void {
    this.session.setPlan(plan);
    this.postSnapshotNow();
  }

  /** The plan shown (under review or running). */
  currentPlan(): Plan | undefined {
    return this.session.currentPlan();
  }

  /** True while a plan is under review (no run shown). */
  isReviewing(): boolean {
    return this.session.isReviewing();
  }

  /** Whether the panel shows the run `runId` (or the run it repairs). */
  followsRun(runId: string): boolean {
    return this.session.follows(runId);
  }

  /**
   * Switches to run mode for the run `runId`; feed its later events to `onRunEvent`.
   * `seed` is its snapshot so far, when the panel joins a run already going.
   */
  attachRun(runId: string, seed?: RunState): void {
    this.session.attachRun(runId, seed);
    this.postSnapshotNow();
  }

  /** Shows a message above the plan or run until the user dismisses it or the mode changes. */
  notify(level: 'info' | 'error', text: string): void {
    this.notice(level, text);
  }

  /** One event of the attached run: folds it, posts output chunks at once and snapshots coalesced. */
  onRunEvent(event: RunEvent): void {
    const chunk = this.session.applyRunEvent(event);
    if (chunk) this.post(chunk);
    const final = event.type === 'run_completed' || event.type === 'run_failed' || event.type === 'run_cancelled' || event.type === 'run_waiting';
    if (final) this.postSnapshotNow();
    else this.scheduleSnapshot();
  }

  /** Usage, repairs and changed files of the attached run. */
  setRunDetails(details: RunDetails): void {
    this.session.setRunDetails(details);
    this.scheduleSnapshot();
  }

  /** Validates and dispatches a message as if the webview had sent it (the integration tests use this). */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.remember(this.trace.refused, parsed.error);
      this.log?.warn(`Plan panel: ignored a message from the webview: ${parsed.error}`);
      return;
    }
    this.remember(this.trace.received, parsed.message);
    const handler = this.handlers[parsed.message.type] as (message: WebviewToHostMessage) => void | Promise<void>;
    try {
      await handler(parsed.message);
    } catch (error) {
      this.log?.error(`Plan panel: ${parsed.message.type} failed: ${errorText(error)}`);
      this.notice('error', `${parsed.message.type} failed: ${errorText(error)}`);
    }
  }

  /** The snapshot the webview would get now (without posting it), for tests. */
  peekModel(): PanelViewModel | undefined {
    const posted = this.trace.posted.filter((message): message is Extract<HostToWebviewMessage, { type: 'snapshot' }> => message.type === 'snapshot');
    return posted.at(-1)?.model;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this.panel.dispose();
  }

  private notice(level: 'info' | 'error', text: string): void {
    this.noticeId += 1;
    this.post({ type: 'notice', id: this.noticeId, level, text });
  }

  private scheduleSnapshot(): void {
    if (this.timer || this.disposed) return;
    const wait = Math.max(0, snapshotIntervalMs - (Date.now() - this.lastPostAt));
    this.timer = setTimeout(() => this.postSnapshotNow(), wait);
  }

  private postSnapshotNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // before `ready` nobody listens: the webview asks for the snapshot when it is ready
    if (!this.ready || this.disposed) return;
    this.lastPostAt = Date.now();
    this.session.setRegenerateBlocked(this.callbacks.regenerateBlockedReason?.());
    this.post({ type: 'snapshot', model: this.session.snapshot(Date.now()) });
  }

  private post(message: HostToWebviewMessage): void {
    if (this.disposed) return;
    this.remember(this.trace.posted, message);
    if (!this.ready) return;
    void this.panel.webview.postMessage(message);
  }

  private remember<T>(list: T[], item: T): void {
    list.push(item);
    if (list.length > 2_000) list.splice(0, list.length - 2_000);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
