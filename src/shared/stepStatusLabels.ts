import type { SkipCause, StepStatus, StoppedRunStatus } from './vocabulary';

/** Each step status in words for people (short, lower case), the same in every view. */
export const stepStatusLabels: Readonly<Record<StepStatus, string>> = {
  pending: 'pending',
  blocked: 'waits for earlier steps',
  ready: 'ready',
  running: 'running',
  awaiting_approval: 'awaiting approval',
  awaiting_clarification: 'awaiting answer',
  awaiting_review: 'awaiting review',
  awaiting_user: 'yours to do',
  awaiting_budget: 'waiting for a higher budget',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

/**
 * A step of a stopped run that did not finish (never started, or reset as it ran): not "pending", which read as still
 * to come in a run that had ended (an editor trial).
 */
export function notFinishedLabel(run: StoppedRunStatus): string {
  return `not finished (run ${run})`;
}

/**
 * A step whose task was ticked in the task file it was imported from (skip cause `source`): done there before the run, so
 * counted apart from "skipped" (a Spec Kit file with ten ticked tasks read "10 skipped").
 */
export const doneInSourceLabel = 'done in the source file';

/** A step skipped because the user rejected its change or command: said apart from "skipped", which reads as the run's own choice. */
export const rejectedLabel = 'rejected by you';

/**
 * What the user rejected, after `rejectedLabel`: a rejection's reason without the engine's "Rejected by you"
 * lead (older journals: "Rejected by the user"; "Rejected by you: too long" → "too long"); empty when the user gave no reason.
 */
export function rejectionDetail(reason: string | undefined): string {
  // Older journals also name the dialog that was answered ("rejected in the command dialog"): no detail of the user's.
  return (reason ?? '').replace(/^Rejected by (the user|you):?\s*/, '').replace(/^rejected in the [a-z ]+ dialog$/, '');
}

/** What `failedNotStoppingLabel` adds to "failed", for a line that says the failure already (the CLI's progress). */
export const notStoppingNote = 'did not stop the run';

/**
 * A step that failed and that its failure policy then skipped (`skipCause: 'failed'`): its failure did not stop the run.
 * Never "the run went on without it", which is false of a run a critical step halted as, or after, this one failed.
 */
export const failedNotStoppingLabel = `failed (${notStoppingNote})`;

/** A step skipped because its condition was not met (the fix of tests that passed): done as planned, no work left. */
export const notNeededLabel = 'not needed';

/** What of a skip's recorded reason follows its label: the reason itself, what the user said (`rejectionDetail`), or nothing. */
type SkipDetail = 'reason' | 'rejection' | 'none';

/**
 * Each skip cause in words, the same in every view (panel, tree, summary, chat, trace, command line, Markdown): its label,
 * and what of the recorded reason follows it. A new cause is named here by the compiler, once.
 */
export const skipCauseWords: Readonly<Record<SkipCause, { label: string; detail: SkipDetail }>> = {
  failed: { label: failedNotStoppingLabel, detail: 'reason' },
  rejected: { label: rejectedLabel, detail: 'rejection' },
  dependency: { label: stepStatusLabels.skipped, detail: 'reason' },
  halted: { label: stepStatusLabels.skipped, detail: 'reason' },
  // Its reason is these very words ("skipped: skipped in the plan" said it twice).
  plan: { label: 'skipped in the plan', detail: 'none' },
  source: { label: doneInSourceLabel, detail: 'none' },
  condition: { label: notNeededLabel, detail: 'reason' },
};

/**
 * A skipped step as `skipCauseWords` says it: its label, and the detail that follows it (empty when there is none). A step
 * of an older journal with no cause is "skipped" with its reason; `reason` is the engine's (a failure's diagnosis for `failed`).
 */
export function skippedStepWords(cause: SkipCause | undefined, reason: string | undefined): { label: string; detail: string } {
  const words = cause === undefined ? { label: stepStatusLabels.skipped, detail: 'reason' as const } : skipCauseWords[cause];
  const detail = words.detail === 'none' ? '' : words.detail === 'rejection' ? rejectionDetail(reason) : (reason ?? '');
  return { label: words.label, detail: detail.trim() };
}

/** A skipped step in one text, "label: detail" (`skippedStepWords`), its detail made fit for the view by `fit` (cut, escaped). */
export function skippedStepText(cause: SkipCause | undefined, reason: string | undefined, fit: (detail: string) => string): string {
  const { label, detail } = skippedStepWords(cause, reason);
  return detail === '' ? label : `${label}: ${fit(detail)}`;
}
