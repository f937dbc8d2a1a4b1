import type { RunStepView } from '../src/shared/panelViewModel';

/** One line of a run step's failure details: its kind decides how the panel styles it. */
export interface FailureLine {
  kind: 'earlier' | 'error' | 'diagnosis';
  text: string;
}

/**
 * What the run table says about a step's failures: a completed step's error is an earlier
 * attempt's, said once as such, and so is that of a step making another attempt (`attempts` > 1, not ended: a trial read
 * a stale check failure in red as the attempt under way failing); otherwise the error, then the diagnosis when it says more.
 */
export function stepFailureLines(step: Pick<RunStepView, 'status' | 'error' | 'diagnosis' | 'attempts'>): FailureLine[] {
  const why = step.error ?? step.diagnosis;
  if (why === undefined) return [];
  if (step.status === 'completed') return [{ kind: 'earlier', text: `An earlier attempt failed: ${why}` }];
  if (step.attempts > 1 && step.status !== 'failed' && step.status !== 'skipped') return [{ kind: 'earlier', text: `Attempt ${step.attempts - 1} failed: ${why}` }];
  const lines: FailureLine[] = [];
  if (step.error) lines.push({ kind: 'error', text: step.error });
  if (step.diagnosis && step.diagnosis !== step.error) lines.push({ kind: 'diagnosis', text: `Diagnosis: ${step.diagnosis}` });
  return lines;
}
