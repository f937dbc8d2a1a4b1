import type { RunStepView } from '../src/shared/panelViewModel';

/**
 * What the run table's Attempts cell says of a step: nothing before its first attempt, then how many it made, and, while
 * another may still come (it is not completed and may make more than one), of how many at most ("2 of 3"). A trial read
 * "1 / 3" on a step that passed at its first attempt as attempts that went wrong, and "0 of 3" on one not started yet.
 */
export function attemptsText(step: Pick<RunStepView, 'status' | 'attempts' | 'maxAttempts'>): string {
  if (step.attempts === 0) return '';
  return step.status === 'completed' || step.maxAttempts <= 1 ? String(step.attempts) : `${step.attempts} of ${step.maxAttempts}`;
}
