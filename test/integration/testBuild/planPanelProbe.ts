import type { Plan } from '../../../src/core/plan/planSchema';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../../../src/shared/panelProtocol';
import type { PanelViewModel } from '../../../src/shared/panelViewModel';
import type { PanelTraffic } from '../../../src/vscode/planPanel';
import type { PlanPanelController } from '../../../src/vscode/planPanelController';

/** The plan panel as the integration tests see it through the test build's API. */
export interface PlanPanelProbe {
  /** Opens (or reveals) the panel showing `plan`. */
  show(plan: Plan): void;
  /** Whether the panel is open. */
  isOpen(): boolean;
  /**
   * Validates and handles `message` as if the webview had sent it while showing the last snapshot posted: a review
   * action without `plan` names the plan that snapshot showed, a run action without `runId` its run (as the page does).
   */
  send(message: unknown): Promise<void>;
  /** Valid messages the open panel received (from the webview or `send`), oldest first. */
  received(): WebviewToHostMessage[];
  /** Messages the open panel posted, oldest first. */
  posted(): HostToWebviewMessage[];
  /** Why invalid messages were ignored. */
  refused(): string[];
  /** The last snapshot posted. */
  model(): PanelViewModel | undefined;
  /** The id of the run whose execution the open panel follows live (its latest run), `undefined` when it follows none. */
  followedRun(): string | undefined;
  /** Closes the panel. */
  close(): void;
}

/** Most messages of each kind a recording keeps. */
const kept = 2_000;

/** What one panel received, refused and posted (bounded), recorded beside the log. */
class TrafficRecording implements PanelTraffic {
  readonly receivedMessages: WebviewToHostMessage[] = [];
  readonly postedMessages: HostToWebviewMessage[] = [];
  readonly refusals: string[] = [];

  constructor(private readonly inner: PanelTraffic) {}

  received(message: WebviewToHostMessage): void {
    remember(this.receivedMessages, message);
    this.inner.received(message);
  }

  refused(reason: string): void {
    remember(this.refusals, reason);
    this.inner.refused(reason);
  }

  posted(message: HostToWebviewMessage): void {
    remember(this.postedMessages, message);
    this.inner.posted(message);
  }
}

/**
 * The probe and the panel traffic it reads: pass `traffic` to `composeExtension`, then
 * `probe(panels)`. Each new panel starts a new recording, as each panel starts empty.
 */
export function createPlanPanelProbe(): { traffic: (logged: PanelTraffic) => PanelTraffic; probe: (panels: () => PlanPanelController) => PlanPanelProbe } {
  const nowhere: PanelTraffic = { received: () => undefined, refused: () => undefined, posted: () => undefined };
  let recording = new TrafficRecording(nowhere);
  const traffic = (logged: PanelTraffic): PanelTraffic => (recording = new TrafficRecording(logged));
  const probe = (panels: () => PlanPanelController): PlanPanelProbe => {
    const open = (): boolean => panels().panel() !== undefined;
    return {
      show: (plan) => {
        panels().show(plan);
      },
      isOpen: open,
      send: async (message) => {
        const panel = panels().panel();
        if (!panel) throw new Error('The plan panel is not open.');
        await panel.receive(asShown(message, recording.postedMessages.findLast((posted) => posted.type === 'snapshot')?.model));
      },
      received: () => (open() ? [...recording.receivedMessages] : []),
      posted: () => (open() ? [...recording.postedMessages] : []),
      refused: () => (open() ? [...recording.refusals] : []),
      model: () => (open() ? recording.postedMessages.findLast((message) => message.type === 'snapshot')?.model : undefined),
      followedRun: () => {
        const panel = panels().panel();
        return panel?.isFollowingRun() ? panel.session.runId() : undefined;
      },
      close: () => panels().panel()?.dispose(),
    };
  };
  return { traffic, probe };
}

/** Review actions name the plan version the webview showed, run actions the run; the other messages go as they are. */
const reviewActions = new Set(['edit', 'regenerate', 'restoreVersion', 'cancelReview']);
const runActions = new Set(['cancelRun', 'openApproval', 'markManualStep', 'undoRun', 'resumeRun', 'undoFromHere', 'runFromHere']);

/** `message` as the webview showing `model` sends it: what it is about added where the test left it out. */
function asShown(message: unknown, model: PanelViewModel | undefined): unknown {
  if (typeof message !== 'object' || message === null || !('type' in message) || typeof message.type !== 'string') return message;
  if (reviewActions.has(message.type) && !('plan' in message) && model?.mode === 'review') {
    return { ...message, plan: { id: model.review.planId, version: model.review.planVersion } };
  }
  if (runActions.has(message.type) && !('runId' in message) && model?.mode === 'run') return { ...message, runId: model.run.runId };
  return message;
}

function remember<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > kept) list.splice(0, list.length - kept);
}
