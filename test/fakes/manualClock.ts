import type { Clock } from '../../src/core/servicePorts';

interface Timer {
  at: number;
  order: number;
  resolve: () => void;
}

/** Lets every queued promise callback and I/O callback run once. */
export function flushAsync(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A `Clock` whose time moves only when told: `advance(ms)` fires due sleeps in time order,
 * letting the code they wake run in between. With `autoAdvance`, time jumps to the next
 * sleep whenever everything else is idle: a discrete-event simulation of real time.
 */
export class ManualClock implements Clock {
  private current: number;
  private readonly timers: Timer[] = [];
  private counter = 0;
  private autoScheduled = false;

  constructor(
    start = 0,
    private readonly options: { autoAdvance?: boolean } = {},
  ) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  /** Sleeps requested so far, with their delays in ms: for asserting backoff times. */
  readonly sleeps: number[] = [];

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer: Timer = { at: this.current + Math.max(0, ms), order: this.counter++, resolve: () => undefined };
      const onAbort = (): void => {
        const index = this.timers.indexOf(timer);
        if (index >= 0) this.timers.splice(index, 1);
        reject(signal?.reason);
      };
      timer.resolve = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
      this.scheduleAutoAdvance();
    });
  }

  /** Sleeps not yet due. */
  get pendingCount(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing due sleeps in order and letting woken code run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    await flushAsync();
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next);
      await flushAsync();
    }
    this.current = target;
    await flushAsync();
  }

  /** Fires sleeps until none is left (bounded by `maxSteps` to catch endless loops). */
  async runAll(maxSteps = 100_000): Promise<void> {
    await flushAsync();
    for (let steps = 0; steps < maxSteps; steps++) {
      const next = this.earliest();
      if (!next) return;
      this.fire(next);
      await flushAsync();
    }
    throw new Error(`ManualClock.runAll fired ${maxSteps} sleeps and more are still queued; is something looping?`);
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.timers) if (!best || timer.at < best.at || (timer.at === best.at && timer.order < best.order)) best = timer;
    return best;
  }

  private fire(timer: Timer): void {
    this.timers.splice(this.timers.indexOf(timer), 1);
    this.current = Math.max(this.current, timer.at);
    timer.resolve();
  }

  private scheduleAutoAdvance(): void {
    if (!this.options.autoAdvance || this.autoScheduled) return;
    this.autoScheduled = true;
    setImmediate(() => {
      this.autoScheduled = false;
      const due = this.timers.filter((timer) => timer.at === this.earliest()?.at);
      for (const timer of due) this.fire(timer);
      if (this.timers.length > 0) this.scheduleAutoAdvance();
    });
  }
}
