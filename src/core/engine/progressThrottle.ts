import type { Clock } from '../servicePorts';
import { wholePercent, type ProgressPercent } from '../../shared/progressPercent';

/** Least time between two reports of one attempt that differ only in their percentage. */
export const progressIntervalMs = 500;

/** One report of where an attempt stands: its line, and its percentage when the work says it (see `ProgressPercent`). */
export interface ProgressReport {
  message: string;
  percent?: ProgressPercent;
}

/** What `progressThrottle` returns: `report` takes each report; `close` drops what is held, once the attempt ended. */
export interface ProgressThrottle {
  report(message: string, percent?: number): void;
  close(): void;
}

/**
 * Passes an attempt's progress on to `emit` so that a chatty step cannot flood the run:
 * a new message (a turn, a tool call, a command started: discrete stages) goes at once; a
 * report that repeats the last one is dropped; a change of the percentage alone goes at most
 * once per `intervalMs` on the `clock`, the latest held meanwhile and sent when the interval
 * ends (so the last percentage is never lost while the attempt runs). A percentage is a whole
 * number 0–100 (`wholePercent`); anything else is no percentage. Nothing is sent after `close`.
 */
export function progressThrottle(clock: Clock, emit: (report: ProgressReport) => void, intervalMs = progressIntervalMs): ProgressThrottle {
  let last: ProgressReport | undefined;
  let lastAt = 0;
  let held: ProgressReport | undefined;
  let waking = false;
  const closed = new AbortController();
  const send = (report: ProgressReport): void => {
    held = undefined;
    last = report;
    lastAt = clock.now();
    emit(report);
  };
  const flushLater = (): void => {
    if (waking) return;
    waking = true;
    clock.sleep(lastAt + intervalMs - clock.now(), closed.signal).then(
      () => {
        waking = false;
        if (held === undefined || closed.signal.aborted) return;
        // A new message went out meanwhile: what is held waits for its interval.
        if (clock.now() - lastAt < intervalMs) flushLater();
        else send(held);
      },
      () => undefined,
    );
  };
  return {
    report(message, percent) {
      if (closed.signal.aborted) return;
      const shown = wholePercent(percent);
      const report: ProgressReport = shown === undefined ? { message } : { message, percent: shown };
      if (last !== undefined && last.message === report.message) {
        if (last.percent === report.percent) {
          held = undefined;
          return;
        }
        if (clock.now() - lastAt < intervalMs) {
          held = report;
          flushLater();
          return;
        }
      }
      send(report);
    },
    close() {
      held = undefined;
      closed.abort();
    },
  };
}
