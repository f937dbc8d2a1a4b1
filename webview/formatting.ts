import type { RunStatusView, StepStatusView } from '../src/shared/panelViewModel';
import { runStatusLabels } from '../src/shared/runStatusLabels';
import { failedNotStoppingLabel, rejectedLabel, stepStatusLabels } from '../src/shared/stepStatusLabels';
import { visibleControls, visibleInvisibles } from '../src/shared/visibleCharacters';

/**
 * A status for people: a step's or a run's in the words every view uses ("yours to do",
 * "partly done"), else the name in words ("awaiting approval").
 */
export function formatStatus(status: string): string {
  if (Object.hasOwn(stepStatusLabels, status)) return stepStatusLabels[status as StepStatusView];
  return Object.hasOwn(runStatusLabels, status) ? runStatusLabels[status as RunStatusView] : status.replace(/_/g, ' ');
}

/** `title` (a step's, from a model or a plan file) as a label or a tooltip names it: at most `max` characters, the cut marked with "…". */
export function boundedTitle(title: string, max = 200): string {
  return title.length <= max ? title : `${title.slice(0, max - 1).replace(/[\ud800-\udbff]$/, '')}…`;
}

/**
 * `text` (a plan's, from a model or a plan file) as the panel shows it: every character that would reorder, hide or
 * act instead of showing becomes its visible escape `\uXXXX`, so what the review shows of a step is what runs
 * (a command's reversed argument looks reversed). Tabs, line feeds and right-to-left letters stay.
 */
export function shownText(text: string): string {
  return visibleInvisibles(visibleControls(text));
}

/**
 * The colour of a step's dot (a `.s-*` class), in the steps table and on the timeline: a failure its policy went past is
 * red as a failure is, and a step you rejected orange as the Plan view shows it; any other skipped step grey (a newcomer
 * read the grey dot of a failed step as nothing wrong).
 */
export function stepDot(step: { status: string; statusLabel?: string }): string {
  if (step.statusLabel === failedNotStoppingLabel) return 'failed';
  if (step.statusLabel === rejectedLabel) return 'partial';
  return step.status;
}
