import { notFinishedLabel, skipCauseWords, stepStatusLabels } from '../../shared/stepStatusLabels';
import { stoppedRunStatuses, type RunStatus, type SkipCause, type StoppedRunStatus } from '../../shared/vocabulary';
import { terminalStepStatuses, type StepStatus } from '../engine/runEvents';
import { readableValue } from '../text/readableValue';

/** How a status looks in a tree view: a codicon id and a theme colour id. */
export interface StatusLook {
  /** A codicon id, such as `pass-filled`. */
  icon: string;
  /** A theme colour id (VS Code `ThemeColor`), such as `testing.iconPassed`. */
  color: string;
}

/** How a step status looks in any view: its icon and colour, and words for people. */
export interface StepStatusView extends StatusLook {
  /** A short lower-case phrase, such as `awaiting approval`. */
  label: string;
}

const looks: Record<StepStatus, StatusLook> = {
  pending: { icon: 'circle-large-outline', color: 'disabledForeground' },
  blocked: { icon: 'debug-pause', color: 'disabledForeground' },
  ready: { icon: 'circle-large-filled', color: 'charts.blue' },
  running: { icon: 'loading~spin', color: 'charts.blue' },
  awaiting_approval: { icon: 'shield', color: 'charts.yellow' },
  awaiting_clarification: { icon: 'comment-discussion', color: 'charts.yellow' },
  awaiting_review: { icon: 'eye', color: 'charts.yellow' },
  awaiting_user: { icon: 'person', color: 'charts.yellow' },
  // Paused before its next model call: nothing to approve (a trial read "awaiting approval" there and pressed Approve).
  awaiting_budget: { icon: 'credit-card', color: 'charts.yellow' },
  completed: { icon: 'pass-filled', color: 'testing.iconPassed' },
  failed: { icon: 'error', color: 'testing.iconFailed' },
  // Not a debug codicon: the workbench paints those in the debug toolbar's blue, and a newcomer read step-over as running.
  skipped: { icon: 'circle-slash', color: 'disabledForeground' },
};

/** A step of a stopped run that had started and did not end: the stop cut it short. */
const cutShortLook: StatusLook = { icon: 'stop-circle', color: 'disabledForeground' };

/**
 * A run a reload (or a closed window) cut off, resumable: a stop square, not the pause of a step that waits for earlier
 * steps, which a newcomer could not tell it from in the Runs and Plan views. Not a debug codicon (the workbench paints
 * those its own colours). The one declaration: the Runs view, the Plan view and the status bar use it.
 */
export const interruptedLook: StatusLook = { icon: 'primitive-square', color: 'charts.orange' };

/** A step or run whose changes Undo took back: its files no longer hold its work, so it never looks completed (green). */
export const undoneLook: StatusLook = { icon: 'discard', color: 'descriptionForeground' };

/** The icon, colour and label of `status`. */
export function stepStatusView(status: StepStatus): StepStatusView {
  return { ...looks[status], label: stepStatusLabels[status] };
}

/** `status` when it is a run's that stopped before its end and can resume (`StoppedRunStatus`), else `undefined`. */
export function stoppedRun(status: RunStatus | undefined): StoppedRunStatus | undefined {
  return stoppedRunStatuses.find((stopped) => stopped === status);
}

/**
 * How a step's state looks, its skip's cause told apart: a step that failed and was skipped by
 * its failure policy looks failed, "failed (did not stop the run)"; one skipped because its
 * condition was not met (a fix after tests that passed) is "not needed"; one whose task was ticked in the file it was
 * imported from is "done in the source file"; one whose change or command the user
 * rejected is "rejected by you" (the walk of issue 28 read a bare "skipped" as the run's own choice); in a run `stopped`
 * before its end, a step that did not end is "not finished (run cancelled)", with a stop sign when it had started; any
 * other as its status.
 */
export function stepStateView(
  state: { status: StepStatus; skipCause?: SkipCause | undefined; startedAt?: number | undefined },
  stopped?: StoppedRunStatus,
): StepStatusView {
  if (stopped !== undefined && !terminalStepStatuses.has(state.status)) {
    // One the stop cut short as it ran is told from one that never started (an editor trial saw the same empty circle).
    // One that waited for earlier steps when a reload cut the run off no longer waits: it has the interrupted run's look.
    const look =
      state.startedAt !== undefined
        ? cutShortLook
        : stopped === 'interrupted' && state.status === 'blocked'
          ? { ...interruptedLook, color: 'disabledForeground' }
          : stepStatusView(state.status);
    return { ...look, label: notFinishedLabel(stopped) };
  }
  if (state.status === 'skipped' && state.skipCause !== undefined) return { ...skipLooks[state.skipCause], label: skipCauseWords[state.skipCause].label };
  return stepStatusView(state.status);
}

/** How a skipped step looks by why it was skipped (its label is `skipCauseWords`'): as planned with a tick, a failure as failed. */
const skipLooks: Readonly<Record<SkipCause, StatusLook>> = {
  failed: looks.failed,
  // Not the cancelled run's circle-slash: a "no" of the user's, in the colour of the partly done run it leads to.
  rejected: { icon: 'thumbsdown', color: 'charts.orange' },
  dependency: looks.skipped,
  halted: looks.skipped,
  plan: looks.skipped,
  source: { ...looks.skipped, icon: 'pass' },
  condition: { ...looks.skipped, icon: 'pass' },
};

/** Every status in lifecycle order, for legends and tests. */
export const stepStatuses: readonly StepStatus[] = Object.keys(looks) as StepStatus[];

/**
 * A result as a person reads it (`readableValue`: strings as they are, an agent's result as its answer and changes, a
 * plain object as one `key: value` line per field with string values raw, anything else as compact JSON), cut at
 * `max` characters with a note of how many more there were; shown whole when the note would be longer than what it
 * stands for (a trial read "truncate… (8 more characters)" for the 16 characters "truncated: false").
 */
export function previewValue(value: unknown, max = 600): string {
  const text = readableValue(value);
  const cut = `${text.slice(0, max)}… (${text.length - max} more characters)`;
  return cut.length < text.length ? cut : text;
}
