/**
 * A stretch of time a run did not run: from when it stopped (its end, or its last event before a crash) to when it was
 * resumed; milliseconds since the epoch, `from` < `to`.
 */
export interface RunPause {
  from: number;
  to: number;
}

/**
 * `time` on the clock of the run's own work: minus every part of `pauses` before it, so a run resumed the next morning
 * is not "completed in 14 h" and its timeline's bars are not slivers beside the night. Differences of two such times are
 * the run's working time between them. `time` itself when the run was never paused.
 */
export function activeTime(pauses: readonly RunPause[] | undefined, time: number): number {
  let paused = 0;
  for (const pause of pauses ?? []) paused += Math.max(0, Math.min(time, pause.to) - pause.from);
  return time - paused;
}
