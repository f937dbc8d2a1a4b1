import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { PanelSession } from '../core/view/panelSession';
import type { HostToWebviewMessage } from '../shared/panelProtocol';
import type { PanelViewModel } from '../shared/panelViewModel';
import { diffRunView } from '../shared/runViewDelta';
import { CoalescedCall, realTimers, runUpdateIntervalMs, type CallTimers } from '../shared/coalescedCall';

/** The webview end of the panel, as the publisher sees it. */
export interface PanelPort {
  /** Whether the webview listens now: a message posted otherwise is lost, so none is built. */
  listening(): boolean;
  post(message: HostToWebviewMessage): void;
}

/**
 * Runs of at least this many steps are updated with deltas: a snapshot of 5,000 steps is over
 * half a megabyte to build and serialize every 30 ms. Smaller runs get whole snapshots only.
 */
export const deltaMinSteps = 200;

/**
 * Posts the panel session's state to its webview: at once (`publish`) or coalesced while a
 * run streams events (`schedule`: at most one post per `updateIntervalMs`, longer for large plans). Each post
 * carries the session's next version: the whole snapshot, or, for a run of at least
 * `minSteps` steps, its changes from the version posted last (`runDelta`). The first post,
 * and the first after `resync`, is whole. Nothing is built while the webview does not listen.
 * Free of `vscode`, so the bench drives it as the editor does.
 */
export class PanelPublisher {
  private readonly posts: CoalescedCall;
  /** The version the webview holds (the last one posted since the last resync). */
  private posted: PanelViewModel | undefined;

  /** `prepare` runs before each post: it hands the session what the editor's settings say now. */
  constructor(
    private readonly session: PanelSession,
    private readonly port: PanelPort,
    private readonly prepare: () => void = () => undefined,
    private readonly timers: CallTimers = realTimers,
    private readonly minSteps = deltaMinSteps,
  ) {
    this.posts = new CoalescedCall(() => this.post(), () => runUpdateIntervalMs(this.session.currentPlan()?.steps.length ?? 0), timers);
  }

  /** Posts the current state now (after a change the user should see at once); a pending post is dropped. */
  publish(): void {
    this.posts.now();
  }

  /** The next post is a whole snapshot: the webview (re)loaded, or holds a version a delta does not fit. */
  resync(): void {
    this.posted = undefined;
  }

  /**
   * A whole snapshot the webview asked for (it loaded, or missed a version), posted with the next scheduled post: asks
   * in a burst share one. Each ask built and posted one at once, so a page sending a thousand (a loop in the webview, a
   * hostile page) kept the extension host building snapshots of a 5,000-step run for a minute.
   */
  resyncSoon(): void {
    this.resync();
    this.posts.schedule();
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

  /**
   * Posts the current state `updateIntervalMs` after the last post at the earliest (longer
   * for plans of over 150 steps: a fifth of a millisecond per step); calls meanwhile share that post.
   */
  schedule(): void {
    this.posts.schedule();
  }

  /** Drops a pending post. */
  cancel(): void {
    this.posts.cancel();
  }

  private post(): void {
    if (!this.port.listening()) return;
    this.prepare();
    const model = this.session.snapshot(this.timers.now());
    const previous = this.posted;
    const changes =
      previous?.mode === 'run' && model.mode === 'run' && previous.session === model.session && model.run.steps.length >= this.minSteps
        ? diffRunView(previous.run, model.run)
        : undefined;
    this.posted = model;
    // A change of most rows (a cancelled run's steps that never started, all at once) is sent whole: as a delta it was
    // larger than the snapshot (923 KiB against 640 KiB for a 5,000-step run) and slower to apply.
    const most = changes !== undefined && model.mode === 'run' && changes.steps.length * 2 > model.run.steps.length;
    if (changes && previous && !most) this.port.post({ type: 'runDelta', session: model.session, base: previous.version, version: model.version, changes });
    else this.port.post({ type: 'snapshot', model });
  }
}
