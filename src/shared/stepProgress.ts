import { doneInSourceLabel, notNeededLabel, rejectedLabel } from './stepStatusLabels';
import type { SkipCause } from './vocabulary';

/**
 * How far a run got, counted one way everywhere (panel, status bar, notifications, Runs
 * view): only `completed` steps are done; failed, rejected, skipped, not needed steps and
 * those done in their task file are finished but counted apart, never as done by the run (a
 * step that failed and was then skipped by its failure policy counts as failed; one skipped
 * because the user rejected what it asked, as rejected; one skipped because its condition was
 * not met, as not needed; one whose task was ticked in the file it was imported from, as done
 * in the source file). `total` is the number of steps of the run's plan.
 */
export interface StepProgress {
  total: number;
  completed: number;
  failed: number;
  /** Skipped because the user rejected its change or command (said "rejected by you", not "skipped": the run did not choose it). */
  rejected: number;
  skipped: number;
  notNeeded: number;
  /** Skipped because their task was ticked in the file it was imported from (skip cause `source`): done there, before the run. */
  doneInSource: number;
}

/** What a skipped step counts as, by why it was skipped: a new cause is named here by the compiler. */
const countedAs: Readonly<Record<SkipCause, Exclude<keyof StepProgress, 'total' | 'completed'>>> = {
  failed: 'failed',
  rejected: 'rejected',
  dependency: 'skipped',
  halted: 'skipped',
  plan: 'skipped',
  source: 'doneInSource',
  condition: 'notNeeded',
};

/**
 * Counts `steps` by status (a skipped step whose `skipCause` is `failed` as failed, `rejected` as rejected, `condition` as not needed,
 * `source` as done in the source file); steps
 * missing from `steps` (not started yet) are only in `total`, which is at least `steps`' length.
 */
export function stepProgress(steps: Iterable<{ status: string; skipCause?: string }>, total: number): StepProgress {
  const progress: StepProgress = { total, completed: 0, failed: 0, rejected: 0, skipped: 0, notNeeded: 0, doneInSource: 0 };
  let seen = 0;
  for (const { status, skipCause } of steps) {
    seen += 1;
    if (status === 'skipped') progress[skipCause !== undefined && Object.hasOwn(countedAs, skipCause) ? countedAs[skipCause as SkipCause] : 'skipped'] += 1;
    else if (status === 'completed' || status === 'failed') progress[status] += 1;
  }
  progress.total = Math.max(total, seen);
  return progress;
}

/** Steps that ended, whatever the outcome (completed, failed, rejected, skipped, not needed or done in the source file): how far the progress bar goes. */
export function finishedSteps(progress: StepProgress): number {
  return progress.completed + progress.failed + progress.rejected + progress.skipped + progress.notNeeded + progress.doneInSource;
}

/**
 * "1 of 3 steps completed, 1 failed, 1 rejected by you, 1 skipped, 1 not needed, 2 done in the source file": each part after the
 * first only when there are any.
 */
export function describeStepProgress(progress: StepProgress): string {
  const { total, completed, failed, rejected, skipped, notNeeded, doneInSource } = progress;
  const counts = [
    failed > 0 ? `, ${failed} failed` : '',
    rejected > 0 ? `, ${rejected} ${rejectedLabel}` : '',
    skipped > 0 ? `, ${skipped} skipped` : '',
    notNeeded > 0 ? `, ${notNeeded} ${notNeededLabel}` : '',
    doneInSource > 0 ? `, ${doneInSource} ${doneInSourceLabel}` : '',
  ];
  return `${completed} of ${total} step${total === 1 ? '' : 's'} completed${counts.join('')}`;
}
