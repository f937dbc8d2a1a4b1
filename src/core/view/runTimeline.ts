import type { StepStatusView, TimelineBar, TimelineView } from '../../shared/panelViewModel';

/** A step's latest attempt on the run's clock (milliseconds since the epoch). */
export interface TimedStep {
  stepId: string;
  title: string;
  status: StepStatusView;
  /** The status in words where it says more than the status's own word ("rejected by you" for a skipped step). */
  statusLabel?: string;
  startedAt?: number;
  endedAt?: number;
}

/**
 * The Gantt chart of a run: one bar per started step, from its start to its end (or to
 * `now` while it runs), times relative to `runStartedAt`. Bars are packed onto the fewest
 * lanes so that bars on one lane never overlap: the number of lanes is the run's peak
 * parallelism. Bars are ordered by start, then by plan order.
 */
export function runTimeline(steps: readonly TimedStep[], runStartedAt: number, now: number): TimelineView {
  const timed = steps
    .map((step, order) => ({ step, order }))
    .filter(({ step }) => step.startedAt !== undefined)
    .map(({ step, order }) => {
      const startMs = Math.max(0, step.startedAt! - runStartedAt);
      const endMs = Math.max(startMs, (step.endedAt ?? now) - runStartedAt);
      return { step, order, startMs, endMs };
    })
    .sort((a, b) => a.startMs - b.startMs || a.order - b.order);
  const laneEnds: number[] = [];
  const bars: TimelineBar[] = [];
  let spanMs = Math.max(1, now - runStartedAt);
  for (const { step, startMs, endMs } of timed) {
    // a bar holds its lane for at least 1 ms, so steps that start together never share a lane
    const busyUntil = Math.max(endMs, startMs + 1);
    let lane = laneEnds.findIndex((end) => end <= startMs);
    if (lane < 0) lane = laneEnds.push(busyUntil) - 1;
    else laneEnds[lane] = busyUntil;
    const label = step.statusLabel === undefined ? {} : { statusLabel: step.statusLabel };
    bars.push({ stepId: step.stepId, title: step.title, status: step.status, ...label, lane, startMs, endMs, ongoing: step.endedAt === undefined });
    spanMs = Math.max(spanMs, endMs);
  }
  return { spanMs, lanes: laneEnds.length, bars };
}
