import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { PanelSession } from '../core/view/panelSession';
import type { HostToWebviewMessage } from '../shared/panelProtocol';

/** The webview end of the panel, as the publisher sees it. */
export interface PanelPort {
  /** Whether the webview listens now: a message posted otherwise is lost, so none is built. */
  listening(): boolean;
  post(message: HostToWebviewMessage): void;
}

/** The clock and timers the publisher coalesces with: real ones in the editor, a fake in tests. */
export interface PublisherTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's and the extension host's own timers. */
export const realTimers: PublisherTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Least time between two snapshots posted while a run streams events, in milliseconds. */
export const snapshotIntervalMs = 30;

/**
 * Posts the panel session's state to its webview: at once (`publish`) or coalesced while a
 * run streams events (`schedule`: at most one post per `snapshotIntervalMs`). Each post is a
 * complete snapshot with the session's next version. Nothing is built while the webview does
 * not listen. Free of `vscode`, so the bench drives it as the editor does.
 */
export class PanelPublisher {
  private timer: unknown;
  private lastPostAt = Number.NEGATIVE_INFINITY;

  /** `prepare` runs before each post: it hands the session what the editor's settings say now. */
  constructor(
    private readonly session: PanelSession,
    private readonly port: PanelPort,
    private readonly prepare: () => void = () => undefined,
    private readonly timers: PublisherTimers = realTimers,
  ) {}

  /** Posts the current state now (after a change the user should see at once); a pending post is dropped. */
  publish(): void {
    this.cancel();
    if (!this.port.listening()) return;
    this.lastPostAt = this.timers.now();
    this.prepare();
    this.port.post({ type: 'snapshot', model: this.session.snapshot(this.lastPostAt) });
  }

  /**
   * The followed execution's state after `event`: an output chunk goes at once, the state at
   * once when the run ended or waits, else coalesced.
   */
  runEvent(event: RunEvent, state: RunState): void {
    const chunk = this.session.updateRun(event, state);
    if (chunk && this.port.listening()) this.port.post(chunk);
    const final = event.type === 'run_completed' || event.type === 'run_failed' || event.type === 'run_cancelled' || event.type === 'run_waiting';
    if (final) this.publish();
    else this.schedule();
  }

  /** Posts the current state within `snapshotIntervalMs` of the last post; calls meanwhile share that post. */
  schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, snapshotIntervalMs - (this.timers.now() - this.lastPostAt));
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.publish();
    }, wait);
  }

  /** Drops a pending post. */
  cancel(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
