import type { RunStatus } from './vocabulary';

/**
 * Each run status in words for people (short, lower case), the same in every view: a
 * `partial` run went to its end with steps failed or skipped, so it reads "partly done",
 * never "completed".
 */
export const runStatusLabels: Readonly<Record<RunStatus, string>> = {
  running: 'running',
  waiting: 'waiting',
  completed: 'completed',
  partial: 'partly done',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

/**
 * A run's status in words, given its steps: a `partial` run none of whose steps completed (every change rejected, say)
 * reads "nothing done", since "partly done" told a newcomer that some of it was; every other status reads as in
 * `runStatusLabels`.
 */
export function runStatusLabel(status: RunStatus, steps: Iterable<{ status: string }>): string {
  if (status !== 'partial') return runStatusLabels[status];
  for (const step of steps) if (step.status === 'completed') return runStatusLabels[status];
  return nothingDoneLabel;
}

/** A partial run none of whose steps completed, in words (`runStatusLabel`). */
export const nothingDoneLabel = 'nothing done';

/**
 * "Run completed", "Run partly done": a run's status in words (`runStatusLabel`) as the start of a sentence; "Nothing
 * done" for a run that did nothing ("Run nothing done" read as broken English).
 */
export function runStatusSentence(label: string): string {
  return label === nothingDoneLabel ? 'Nothing done' : `Run ${label}`;
}

/** How much of a run's changes Undo took back: every one (`all`), or some while others are still in the files (`some`). */
export type UndoneExtent = 'all' | 'some';

/** What Undo took back of a run, in words said after its status in every view: Undo takes back files, not the outcome. */
export const undoneLabels: Readonly<Record<UndoneExtent, string>> = { all: 'changes undone', some: 'some changes undone' };

/** A run's status in words (`runStatusLabel`) followed by what Undo took back of it, if anything: "completed · changes undone". */
export function runStatusWithUndo(status: RunStatus, steps: Iterable<{ status: string }>, undone: UndoneExtent | undefined): string {
  const label = runStatusLabel(status, steps);
  return undone === undefined ? label : `${label} · ${undoneLabels[undone]}`;
}
