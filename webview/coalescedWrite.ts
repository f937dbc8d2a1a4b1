/** The timers a coalesced write waits with: the page's own, or a fake in tests. */
export interface WriteTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A write that keeps only the newest value until it is due. */
export interface CoalescedWrite<T> {
  /** Keeps `value` as the one to write: written `delayMs` after the first value since the last write, unless a flush comes first. */
  readonly write: (value: T) => void;
  /** Writes the value kept, if any, now (an event listener as it is). */
  readonly flush: () => void;
}

/**
 * Coalesces `write`: of values given within `delayMs` of each other's first, only the newest is
 * written, once, `delayMs` (milliseconds) after the first; `flush` writes it at once. Every value
 * given is written or superseded by a later one that is: none is lost once a flush or the delay
 * comes. For state that is costly to write and only read back after a reload (the webview's
 * `setState` serializes the whole panel state: a 1,000-step run was a third of its message time).
 */
export function coalescedWrite<T>(write: (value: T) => void, delayMs: number, timers: WriteTimers = globalThis): CoalescedWrite<T> {
  let kept: { value: T } | undefined;
  let timer: unknown;
  const flush = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    if (kept === undefined) return;
    const { value } = kept;
    kept = undefined;
    write(value);
  };
  return {
    write: (value) => {
      kept = { value };
      timer ??= timers.setTimeout(flush, delayMs);
    },
    flush,
  };
}
