import type { RunStepView } from '../src/shared/panelViewModel';

/** One line of a run step's failure details: its kind decides how the panel styles it. */
export interface FailureLine {
  kind: 'earlier' | 'error' | 'diagnosis';
  text: string;
}

/**
 * What the run table says about a step's failures: a completed step's error is an earlier
 * attempt's, said once as such, and so is that of a step making another attempt (`attempts` > 1, not ended: a trial read
 * a stale check failure in red as the attempt under way failing); otherwise the error, then the diagnosis when it says more,
 * each by its first line when the page says it in full under `fullAt`.
 */
export function stepFailureLines(step: Pick<RunStepView, 'status' | 'error' | 'diagnosis' | 'attempts'>, fullAt?: string): FailureLine[] {
  const why = step.error ?? step.diagnosis;
  if (why === undefined) return [];
  if (step.status === 'completed') return [{ kind: 'earlier', text: `An earlier attempt failed: ${why}` }];
  if (step.attempts > 1 && step.status !== 'failed' && step.status !== 'skipped') return [{ kind: 'earlier', text: `Attempt ${step.attempts - 1} failed: ${why}` }];
  const shown = (text: string): string => (fullAt === undefined ? text : firstLineOf(text, fullAt));
  const lines: FailureLine[] = [];
  if (step.error) lines.push({ kind: 'error', text: shown(step.error) });
  if (step.diagnosis && step.diagnosis !== step.error) lines.push({ kind: 'diagnosis', text: `Diagnosis: ${shown(step.diagnosis)}` });
  return lines;
}

/**
 * A failure said in full elsewhere on the page (`fullAt`: "Failures") by its first line, saying where the rest is: a
 * failed test run's output was shown three times, in the Steps table too (a trial).
 */
function firstLineOf(text: string, fullAt: string): string {
  const first = text.split('\n', 1)[0]!;
  return first.length === text.length && first.length <= 160 ? text : `${first.slice(0, 160)}… (in full under ${fullAt})`;
}
