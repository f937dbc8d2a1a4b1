/**
 * How far a long step is, as a whole number from 0 to 100, only when its work itself says so
 * (a test runner's own percentage, an MCP server's progress of a known total). Absent means
 * indeterminate: nothing is ever estimated from elapsed time, turns or guesses.
 */
export type ProgressPercent = number;

/**
 * `value` as a progress percentage: rounded down to a whole number and kept within 0–100, or
 * `undefined` when it is not a finite number (so never a made-up value).
 */
export function wholePercent(value: unknown): ProgressPercent | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.min(100, Math.max(0, Math.floor(value)));
}

/** `done` of `total` as a percentage (see `wholePercent`); `undefined` when the total is unknown, zero or negative. */
export function percentOf(done: number, total: number | undefined): ProgressPercent | undefined {
  if (total === undefined || !Number.isFinite(total) || total <= 0) return undefined;
  // done * 100 first: (58 / 200) * 100 is 28.999…, which would show 28 %.
  return wholePercent((done * 100) / total);
}

/**
 * Whether `percent` reached a tenth (10, 20, …) beyond `before` (or is the first known): the
 * views that add a line per report (the chat, the command line) report only these.
 */
export function newTenth(before: ProgressPercent | undefined, percent: ProgressPercent): boolean {
  return before === undefined || Math.floor(percent / 10) > Math.floor(before / 10);
}

/** A step's progress line as the views show it: the percentage first when known ("45% · running pytest -q"), else the message alone. */
export function progressText(message: string, percent: ProgressPercent | undefined): string {
  return percent === undefined ? message : `${percent}% · ${message}`;
}
