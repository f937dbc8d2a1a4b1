import { formatDuration } from '../../shared/formatDuration';
import { shownUsd } from '../../shared/shownUsd';
import { describeStepProgress, type StepProgress } from '../../shared/stepProgress';
import { doneInSourceLabel, notNeededLabel, rejectedLabel } from '../../shared/stepStatusLabels';
import type { RunStatus } from '../../shared/vocabulary';
import type { StepsNotDone } from '../engine/stepsNotDone';
import type { BudgetUsage } from '../llm/budget';

/** What a run's one-sentence headline is made of (the fields of `RunSummary` it reads). */
export interface HeadlineFacts {
  status: RunStatus;
  durationMs: number;
  progress: StepProgress;
  /** A `partial` run's steps whose work is not done; its headline leads with them. */
  notDone?: StepsNotDone;
  replanCount: number;
  leftOutByRepairs: readonly string[];
  resumeCount: number;
  usage?: BudgetUsage;
}

/**
 * One sentence to follow "Run <id>" or "run": status, duration, steps, `changedCount` changed files, repairs, resumes,
 * tokens and cost ("completed in 4.2 s: 3 of 3 steps completed; …"); a run that went to its end with steps not done
 * starts "finished with 1 failed step and 1 skipped in …", and a waiting one "waiting after …".
 */
export function runHeadline(summary: HeadlineFacts, changedCount: number): string {
  const notDone = summary.notDone;
  const parts = [notDone === undefined ? describeStepProgress(summary.progress) : describeDone(summary.progress, notDone)];
  if (changedCount > 0) parts.push(`${changedCount} file${changedCount === 1 ? '' : 's'} changed`);
  parts.push(...repairsAndResumes(summary));
  if (summary.usage) parts.push(`${describeTokens(summary.usage)}, ${describeCost(summary.usage)}`);
  const lead = notDone === undefined ? summary.status : `finished with ${describeNotDoneCounts(notDone)}`;
  // A waiting run has not ended: "waiting in 35 ms" read as a wait of 35 ms (a trial).
  return `${lead} ${summary.status === 'waiting' ? 'after' : 'in'} ${formatDuration(summary.durationMs)}: ${parts.join('; ')}.`;
}

/**
 * What a run's headline says beyond its status, counts, changed files and model use, which the panel's header shows
 * apart: its repair plans (and the steps they left out, not done) and how many times it was resumed. Empty when neither.
 */
export function repairsAndResumes(summary: Pick<HeadlineFacts, 'replanCount' | 'leftOutByRepairs' | 'resumeCount'>): string[] {
  return [
    ...(summary.replanCount > 0 ? [`${summary.replanCount} repair plan${summary.replanCount === 1 ? '' : 's'}${leftOutText(summary.leftOutByRepairs)}`] : []),
    // A newcomer's run, reloaded twice, read "completed in 1 min 43 s" with nothing to say it had stopped and gone on again.
    ...(summary.resumeCount > 0 ? [`resumed ${summary.resumeCount === 1 ? 'once' : `${summary.resumeCount} times`}`] : []),
  ];
}

/** ", which left out 2 steps, not done: "Lint with ruff", "Fix what it reports"", the first two named. */
function leftOutText(titles: readonly string[]): string {
  if (titles.length === 0) return '';
  const named = titles.slice(0, 2).map((title) => `"${title}"`).join(', ');
  const more = titles.length > 2 ? ` and ${titles.length - 2} more` : '';
  return `, which left out ${titles.length} step${titles.length === 1 ? '' : 's'}, not done: ${named}${more}`;
}

/**
 * "$0.012" (`shownUsd`), with what prompt caching saved and how many calls had no known price when
 * there are any: "$0.012 (saved $0.004 by cached input; 3 calls without a known price)";
 * when no call had a price (a local model), "cost unknown (no price is known for the model)", and when
 * the calls with one cost nothing, "cost unknown (1 call without a known price)": never a "$0" that reads as free.
 */
export function describeCost(usage: BudgetUsage): string {
  const unpriced = `${usage.unpricedRequests} call${usage.unpricedRequests === 1 ? '' : 's'} without a known price`;
  if (usage.unpricedRequests > 0 && usage.unpricedRequests >= usage.requests && usage.costUsd === 0) return 'cost unknown (no price is known for the model)';
  // Nothing priced cost anything: a "$0" beside calls without a price read as free (a trial).
  if (usage.unpricedRequests > 0 && usage.costUsd === 0) return `cost unknown (${unpriced})`;
  const notes = [...(usage.savedUsd > 0 ? [`saved ${shownUsd(usage.savedUsd)} by cached input`] : []), ...(usage.unpricedRequests > 0 ? [unpriced] : [])];
  return `${shownUsd(usage.costUsd)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/** "12,345 tokens", with the prompt tokens read from the provider's cache when there are any: "12,345 tokens (8,000 cached)". */
export function describeTokens(usage: BudgetUsage): string {
  const cached = usage.cachedTokens > 0 ? ` (${usage.cachedTokens.toLocaleString('en-US')} cached)` : '';
  return `${usage.totalTokens.toLocaleString('en-US')} tokens${cached}`;
}

/**
 * "1 failed step and 2 skipped", "2 failed steps", "1 step rejected by you and 2 skipped", "1 failed step, 1 rejected by
 * you and 1 skipped": the first count names what it counts ("finished with 1 rejected by you" read as missing a word, in
 * an editor trial).
 */
function describeNotDoneCounts(notDone: StepsNotDone): string {
  const steps = (count: number): string => `step${count === 1 ? '' : 's'}`;
  const counts = [
    { count: notDone.failed.length, bare: 'failed', named: (count: number) => `failed ${steps(count)}` },
    { count: notDone.rejected.length, bare: rejectedLabel, named: (count: number) => `${steps(count)} ${rejectedLabel}` },
    { count: notDone.skipped.length, bare: 'skipped', named: (count: number) => `skipped ${steps(count)}` },
  ].filter(({ count }) => count > 0);
  const words = counts.map(({ count, bare, named }, index) => `${count} ${index === 0 ? named(count) : bare}`);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

/**
 * A partial run's steps after its lead names what is not done: "1 of 3 steps completed", and the steps skipped as planned,
 * not needed or done in their task file.
 */
function describeDone(progress: StepProgress, notDone: StepsNotDone): string {
  const asPlanned = progress.skipped - notDone.skipped.length;
  const notNeeded = progress.notNeeded > 0 ? `, ${progress.notNeeded} ${notNeededLabel}` : '';
  const doneInSource = progress.doneInSource > 0 ? `, ${progress.doneInSource} ${doneInSourceLabel}` : '';
  return `${progress.completed} of ${progress.total} step${progress.total === 1 ? '' : 's'} completed${asPlanned > 0 ? `, ${asPlanned} skipped as planned` : ''}${notNeeded}${doneInSource}`;
}
