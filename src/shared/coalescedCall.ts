/** The clock and timers a coalesced call waits with: real ones in the editor, a fake in tests and the bench. */
export interface CallTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's own timers: the extension host's, or the webview page's. */
export const realTimers: CallTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Least time between two updates of a view while a run streams its events, in milliseconds. */
export const updateIntervalMs = 30;

/**
 * Steps per millisecond of that least time beyond `updateIntervalMs`: building an update takes
 * the host time linear in the steps, and showing it takes the page more (each update of a
 * 1,000-step run took code-server's Chromium about 30 ms to apply, lay out and paint, so updates
 * every 30 ms kept it always busy, and the run slowed with it). A plan of 1,000 steps waits
 * 200 ms between updates, one of 5,000 a second: a view stays live, and neither side is swamped.
 */
const stepsPerIntervalMs = 5;

/** The least time between two updates of a view of a plan of `steps` steps while it runs, in milliseconds. */
export function runUpdateIntervalMs(steps: number): number {
  return Math.max(updateIntervalMs, steps / stepsPerIntervalMs);
}

/**
 * Calls `action` at once (`now`) or coalesced (`schedule`): a scheduled call comes `intervalMs()`
 * after the last call at the earliest, and every `schedule` meanwhile shares it. `now` drops a
 * scheduled call, which it does the work of; `flush` makes a scheduled call now. Every `schedule`
 * leads to a call: none is lost unless `cancel` drops it.
 */
export class CoalescedCall {
  private timer: unknown;
  private lastAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly action: () => void,
    private readonly intervalMs: () => number,
    private readonly timers: CallTimers = realTimers,
  ) {}

  /** Calls the action now; a scheduled call is dropped. */
  now(): void {
    this.cancel();
    this.lastAt = this.timers.now();
    this.action();
  }

  /** Calls the action `intervalMs()` after the last call at the earliest, unless a call is scheduled already. */
  schedule(): void {
    if (this.timer !== undefined) return;
    const wait = Math.max(0, this.intervalMs() - (this.timers.now() - this.lastAt));
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.now();
    }, wait);
  }

  /** Makes the scheduled call now, if there is one (an event listener as it is). */
  readonly flush = (): void => {
    if (this.timer !== undefined) this.now();
  };

  /** Drops a scheduled call. */
  cancel(): void {
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
