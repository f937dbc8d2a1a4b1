import type { RunStepView } from '../src/shared/panelViewModel';

/** One line of a run step's failure details: its kind decides how the panel styles it. */
export interface FailureLine {
  kind: 'earlier' | 'error' | 'diagnosis';
  text: string;
}

/**
 * What the run table says about a step's failures: a completed step's error is an earlier
 * attempt's, said once as such; otherwise the error, then the diagnosis when it says more.
 */
export function stepFailureLines(step: Pick<RunStepView, 'status' | 'error' | 'diagnosis'>): FailureLine[] {
  const why = step.error ?? step.diagnosis;
  if (why === undefined) return [];
  if (step.status === 'completed') return [{ kind: 'earlier', text: `An earlier attempt failed: ${why}` }];
  const lines: FailureLine[] = [];
  if (step.error) lines.push({ kind: 'error', text: step.error });
  if (step.diagnosis && step.diagnosis !== step.error) lines.push({ kind: 'diagnosis', text: `Diagnosis: ${step.diagnosis}` });
  return lines;
}
