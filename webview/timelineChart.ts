import { html, svg, type TemplateResult } from 'lit';
import type { TimelineView } from '../src/shared/panelViewModel';
import { formatDuration } from '../src/shared/formatDuration';
import { formatStatus, stepDot } from './formatting';

const laneHeight = 18;
const barHeight = 12;
const labelWidth = 0;
const axisHeight = 18;
const width = 1000;

/** Room a tick's label ("12 min 35 s") takes on the chart's 1000-unit axis, measured wide. */
const tickLabelRoom = 110;

/**
 * Where the label of the tick at `x` (chart units) goes: just right of its tick, or, where that would run past the
 * chart's right edge (the last tick's "1 min 4 s" was cut to "1 min 0"), ending just left of it.
 */
export function tickLabel(x: number): { x: number; anchor: 'start' | 'end' } {
  return x + 3 + tickLabelRoom > width ? { x: x - 3, anchor: 'end' } : { x: x + 3, anchor: 'start' };
}

/**
 * `timeline` `elapsedMs` after its snapshot: each bar still going on (`ongoing`) reaches the present, and the axis with
 * it, so a step that waits on you does not look stopped at the moment the last event came (a newcomer's trial).
 */
export function timelineAfter(timeline: TimelineView, elapsedMs: number): TimelineView {
  if (elapsedMs <= 0) return timeline;
  const bars = timeline.bars.map((bar) => (bar.ongoing ? { ...bar, endMs: bar.endMs + elapsedMs } : bar));
  return { ...timeline, spanMs: timeline.spanMs + elapsedMs, bars };
}

/**
 * The run's Gantt chart as SVG: one bar per started step from its start to its end on a
 * shared time axis, coloured by status (via classes on theme colours), one lane per
 * parallel slot, each bar with a title and an accessible description.
 */
export function renderTimeline(timeline: TimelineView): TemplateResult {
  const lanes = Math.max(1, timeline.lanes);
  const height = axisHeight + lanes * laneHeight + 4;
  const scale = (ms: number): number => labelWidth + (ms / timeline.spanMs) * (width - labelWidth);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((fraction) => fraction * timeline.spanMs);
  // Under the panel's "Timeline" heading: the caption does not say it again, and the figure is named by both.
  return html`<figure class="timeline" aria-labelledby="timeline-heading timeline-caption">
    <figcaption id="timeline-caption" class="muted">${timeline.bars.length} step${timeline.bars.length === 1 ? '' : 's'} started, up to ${timeline.lanes} at once, over ${formatDuration(timeline.spanMs)}</figcaption>
    <svg viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" width="100%" height=${height} role="img" aria-label="Gantt chart of step start and end times">
      ${ticks.map(
        (ms) => svg`<line class="tick" x1=${scale(ms)} x2=${scale(ms)} y1="0" y2=${height}></line>
          <text class="tick-label" x=${tickLabel(scale(ms)).x} text-anchor=${tickLabel(scale(ms)).anchor} y="12">${formatDuration(ms)}</text>`,
      )}
      ${timeline.bars.map((bar) => {
        const x = scale(bar.startMs);
        const w = Math.max(6, scale(bar.endMs) - x);
        const y = axisHeight + bar.lane * laneHeight + (laneHeight - barHeight) / 2;
        const label = `${bar.stepId} ${bar.title}: ${bar.statusLabel ?? formatStatus(bar.status)}, ${formatDuration(bar.startMs)} to ${formatDuration(bar.endMs)}`;
        return svg`<rect class="bar s-${stepDot(bar)}" data-step-id=${bar.stepId} data-status=${bar.status} data-lane=${bar.lane} data-start-ms=${bar.startMs} data-end-ms=${bar.endMs} x=${x} y=${y} width=${w} height=${barHeight} rx="2" role="img" aria-label=${label}><title>${label}</title></rect>`;
      })}
    </svg>
  </figure>`;
}
