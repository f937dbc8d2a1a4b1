import { randomUUID } from 'node:crypto';
import type { EstimateSetup } from '../core/view/panelSession';
import * as vscode from 'vscode';
import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import type { CritiqueIssue } from '../core/plan/critiquePlan';
import type { ApprovalSetting } from '../core/plan/stepApproval';
import type { Tool } from '../core/tools/tool';
import { PanelSession, type RunDetails } from '../core/view/panelSession';
import {
  parseWebviewMessage,
  type HostToWebviewMessage,
  type MessageHandlers,
  type WebviewMessage,
  type WebviewMessageType,
  type WebviewToHostMessage,
} from '../shared/panelProtocol';
import { createNonce, panelHtml } from './panelHtml';
import { PanelPublisher } from './panelPublisher';
import { errorMessage } from '../shared/errorMessage';

/** The webview panel type (also the id of its serializer, were one registered). */
export const planPanelViewType = 'taskPlanner.planPanel';

/** Messages about the connection itself, which the panel answers; every other message is a user's action. */
type ConnectionMessageType = 'ready' | 'resyncOutput' | 'resyncSnapshot' | 'rendered';

/** The message types that are a user's action in the panel (edit, Start, Undo…). */
export type PanelActionType = Exclude<WebviewMessageType, ConnectionMessageType>;

/** One handler per user action, given the panel it came from; the compiler names an action without one. */
export type PanelActionHandlers = MessageHandlers<WebviewMessage<PanelActionType>, PlanPanel, void | Promise<void>>;

/** What the panel reports of its messages: by default the log (refusals as warnings, the rest at trace level). */
export interface PanelTraffic {
  received(message: WebviewToHostMessage): void;
  refused(reason: string): void;
  posted(message: HostToWebviewMessage): void;
}

/** What a panel is made with (the same for every panel the controller opens). */
export interface PlanPanelSetup {
  extensionUri: vscode.Uri;
  /**
   * The tools runs get now (other extensions and MCP servers add theirs): the review validates against them; read
   * once at each snapshot.
   */
  tools: () => readonly Tool[];
  /** What each user action does. */
  actions: PanelActionHandlers;
  /** Why Regenerate is not offered now (no model to take feedback), or `undefined`; read at each snapshot. */
  regenerateBlockedReason: () => string | undefined;
  /** The approval policy and workspace trust a run would have now; read at each snapshot. */
  approvalSetting: () => ApprovalSetting;
  /** The model setup a run would have now, `undefined` without a model: the review's estimate; read at each snapshot. */
  estimateSetup?: () => EstimateSetup | undefined;
  /** The workspace's instructions and skills as last read (the review shows what each step uses); read at each snapshot. */
  capabilities: () => CapabilityCatalogue | undefined;
  /**
   * Reads the workspace's instructions and skills again, then shows the panel again: asked when
   * a plan is shown for review and when the panel comes back into view (a SKILL.md may have been
   * written meanwhile; file events alone can be missed).
   */
  readCapabilities: () => void;
  log: vscode.LogOutputChannel;
  /** Wraps what the panel reports of its messages (given the log's report); default: the log alone. */
  traffic?: (logged: PanelTraffic) => PanelTraffic;
}

/**
 * The plan panel in the editor area: hosts the webview (strict CSP with a nonce, resources
 * only from `dist` and `media`, no `retainContextWhenHidden`: the webview keeps its state
 * with `setState` and asks again with `ready` when shown), validates every message from it
 * with zod and dispatches it through a handler map, and posts versioned snapshots (coalesced
 * while a run streams; a large run's as deltas, `PanelPublisher`) and numbered output chunks.
 */
export class PlanPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  // Notices given before the webview listens (a new panel's review): shown once it is ready.
  private readonly unsentNotices: HostToWebviewMessage[] = [];
  private noticeId = 0;
  private disposed = false;
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  /** Fires once the user closed the panel. */
  readonly onDidDispose = this.onDisposeEmitter.event;
  /** The plan under review and the run shown, free of any UI. */
  readonly session: PanelSession;
  private readonly traffic: PanelTraffic;
  private readonly publisher: PanelPublisher;
  private readonly handlers: MessageHandlers<WebviewToHostMessage, PlanPanel, void | Promise<void>>;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly setup: PlanPanelSetup,
  ) {
    this.session = new PanelSession(randomUUID(), setup.tools());
    const logged = loggedTraffic(setup.log);
    this.traffic = setup.traffic ? setup.traffic(logged) : logged;
    this.publisher = new PanelPublisher(this.session, { listening: () => this.ready && !this.disposed, post: (message) => this.post(message) }, () => {
      this.session.setTools(setup.tools());
      this.session.setRegenerateBlocked(setup.regenerateBlockedReason());
      this.session.setApprovalSetting(setup.approvalSetting());
      this.session.setCapabilities(setup.capabilities());
      this.session.setEstimateSetup(setup.estimateSetup?.());
    });
    this.handlers = {
      ...setup.actions,
      ready: () => {
        // The page's first `ready` since it (re)loaded gets its snapshot at once, before the notices that wait for it (a notice
        // arriving first is not tied to the plan it was about); a `ready` again from a page already listening, as asks for a
        // whole snapshot do, shares the next scheduled post.
        const loaded = !this.ready;
        this.ready = true;
        if (this.session.isReviewing()) setup.readCapabilities();
        if (loaded) {
          this.publisher.resync();
          this.refresh();
        } else this.publisher.resyncSoon();
        this.postOutputResync();
        for (const notice of this.unsentNotices.splice(0)) this.post(notice);
      },
      resyncOutput: () => this.postOutputResync(),
      resyncSnapshot: () => this.publisher.resyncSoon(),
      rendered: () => undefined,
    };
    panel.webview.html = panelHtml(panel.webview, setup.extensionUri, createNonce());
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
  static create(setup: PlanPanelSetup): PlanPanel {
    const { extensionUri } = setup;
    const panel = vscode.window.createWebviewPanel(
      planPanelViewType,
      vscode.l10n.t('Task Planner: Plan'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
      },
    );
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'taskPlanner.svg');
    return new PlanPanel(panel, setup);
  }

  /** True once the user closed the panel. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Brings the panel to the front. */
  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  /** Shows `plan` for review, with the model critique's findings on it when there are any. */
  showPlan(plan: Plan, modelFindings: readonly CritiqueIssue[] = []): void {
    this.session.setPlan(plan, modelFindings);
    this.setup.readCapabilities();
    this.refresh();
  }

  /** Whether the panel is the editor in front (its title bar's commands act on it). */
  isActive(): boolean {
    return this.panel.active;
  }

  /** The plan shown (under review or running). */
  currentPlan(): Plan | undefined {
    return this.session.currentPlan();
  }

  /** True while a plan is under review (no run shown). */
  isReviewing(): boolean {
    return this.session.isReviewing();
  }

  /** Whether the panel follows a run's execution (its states reach `onRunEvent`). */
  isFollowingRun(): boolean {
    return this.session.isFollowingRun();
  }

  /** Whether the panel follows the execution whose latest run is `runId` (a run it shows but does not follow is not). */
  follows(runId: string): boolean {
    return this.session.isFollowingRun() && this.session.runId() === runId;
  }

  /** Switches to run mode showing `state`, the runner's snapshot; `live`: follow its execution. */
  showRun(state: RunState, live: boolean): void {
    this.session.showRun(state, live);
    this.refresh();
  }

  /** The output of the stored run `runId` shown (`PanelSession.storedOutput`), from its journals' events. */
  showStoredOutput(runId: string, events: readonly RunEvent[]): void {
    const resync = this.session.storedOutput(runId, events);
    if (resync) this.post(resync);
  }

  /**
   * Shows a message above the plan or run until the user dismisses it or the mode changes, or, when `untilEdit` (a refusal
   * by default), until a later version of the plan under review shows.
   */
  notify(level: 'info' | 'error', text: string, untilEdit = level === 'error'): void {
    this.noticeId += 1;
    const notice: HostToWebviewMessage = { type: 'notice', id: this.noticeId, level, text, untilEdit };
    if (this.ready) this.post(notice);
    else if (!this.disposed) this.unsentNotices.push(notice);
  }

  /** Tells the form that sent the edit `request` whether it was taken (after the snapshot showing it, when it was). */
  answerEdit(request: number, taken: boolean): void {
    this.post({ type: 'editResult', request, taken });
  }

  /** The followed execution's state after `event`: output chunks go at once, snapshots coalesced. */
  onRunEvent(event: RunEvent, state: RunState): void {
    if (!this.disposed) this.publisher.runEvent(event, state);
  }

  /** The followed execution ended: the panel keeps its last state. */
  endRun(): void {
    this.session.endRun();
  }

  /** Usage, repairs and changed files of the run `runId`, added when the panel still shows it. */
  setRunDetails(runId: string, details: RunDetails): void {
    if (this.session.runId() !== runId) return;
    this.session.setRunDetails(details);
    this.scheduleSnapshot();
  }

  /** Posts the current snapshot now (after a change the user should see at once). */
  refresh(): void {
    // before `ready` nobody listens: the webview asks for the snapshot when it is ready
    this.publisher.publish();
  }

  /** Validates a raw message from the webview and hands it to its handler; a failing handler's error becomes a notice. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return this.traffic.refused(parsed.error);
    const message = parsed.message;
    this.traffic.received(message);
    const handler = this.handlers[message.type] as (message: WebviewToHostMessage, panel: PlanPanel) => void | Promise<void>;
    try {
      await handler(message, this);
    } catch (error) {
      this.setup.log.error(`Plan panel: ${message.type} failed: ${errorMessage(error)}`);
      this.notify('error', vscode.l10n.t('{0} failed: {1}', message.type, errorMessage(error)));
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.publisher.cancel();
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this.panel.dispose();
  }

  private postOutputResync(): void {
    const resync = this.session.outputResync();
    if (resync) this.post(resync);
  }

  private scheduleSnapshot(): void {
    if (!this.disposed) this.publisher.schedule();
  }

  private post(message: HostToWebviewMessage): void {
    // Only what reaches the webview counts as posted: a message before `ready` is lost.
    if (this.disposed || !this.ready) return;
    if (message.type === 'snapshot' && message.model.mode === 'review') this.session.reviewShown(message.model.version);
    this.traffic.posted(message);
    void this.panel.webview.postMessage(message);
  }
}

/** The panel's messages in the log: refusals as warnings, the rest by type at trace level. */
function loggedTraffic(log: vscode.LogOutputChannel): PanelTraffic {
  return {
    received: (message) => log.trace(`Plan panel ← ${message.type}`),
    refused: (reason) => log.warn(`Plan panel: ignored a message from the webview: ${reason}`),
    posted: (message) => log.trace(`Plan panel → ${message.type}`),
  };
}
