// A clock for measuring how busy a host would be on a core of its own, on a machine shared with others: time is
// simulated, and moves by the sleeps and timers the code asks for and by the CPU time the code spends between them
// (measured with process.cpuUsage, which does not count the time other processes held the core).
import type { Clock } from '../../src/core/servicePorts';
import type { CallTimers } from '../../src/shared/coalescedCall';

interface Timer {
  at: number;
  order: number;
  fire: () => void;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Lets every queued promise callback run (and whatever they queue in turn). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A `Clock` and publisher timers on one simulated time line. `runFor(ms)` fires what falls due in order; after each
 * firing, time moves on by the CPU time the woken code took (with what it queued), counted as busy time.
 */
export class DedicatedCoreClock implements Clock, CallTimers {
  private current = 0;
  private counter = 0;
  private readonly timers: Timer[] = [];
  /** Simulated milliseconds spent running code so far. */
  busyMs = 0;

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        const index = this.timers.indexOf(timer);
        if (index >= 0) this.timers.splice(index, 1);
        reject(signal?.reason);
      };
      const timer = this.add(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  setTimeout(callback: () => void, ms: number): unknown {
    return this.add(ms, callback);
  }

  clearTimeout(handle: unknown): void {
    const index = this.timers.indexOf(handle as Timer);
    if (index >= 0) this.timers.splice(index, 1);
  }

  /** Runs `work` now, counting its CPU time (and that of the code it queues) as busy time. */
  async run<T>(work: () => T): Promise<T> {
    const before = cpuMs();
    const result = work();
    await settle();
    const spent = cpuMs() - before;
    this.current += spent;
    this.busyMs += spent;
    return result;
  }

  /** Fires due timers in time order until simulated time passes `ms` from now (or none is left). */
  async runFor(ms: number): Promise<void> {
    const until = this.current + ms;
    for (;;) {
      const next = this.earliest();
      if (!next || next.at > until) break;
      this.timers.splice(this.timers.indexOf(next), 1);
      this.current = Math.max(this.current, next.at);
      await this.run(next.fire);
    }
    this.current = Math.max(this.current, until);
  }

  private add(ms: number, fire: () => void): Timer {
    const timer = { at: this.current + Math.max(0, ms), order: this.counter++, fire };
    this.timers.push(timer);
    return timer;
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.timers) if (!best || timer.at < best.at || (timer.at === best.at && timer.order < best.order)) best = timer;
    return best;
  }
}
