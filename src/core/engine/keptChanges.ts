import type { StepState } from './runEvents';

/**
 * The files each of `kept` (ids of steps kept from a run: Retry, Run from here, a repair) changed in that run, from its
 * state: the ones it changed there and the ones it had kept from the run before. Steps that changed none are left out.
 */
export function keptChangesOf(steps: Readonly<Record<string, StepState>>, kept: Iterable<string>): Record<string, string[]> {
  const changes: Record<string, string[]> = {};
  for (const id of kept) {
    const files = filesOf(steps[id]);
    if (files.length > 0) changes[id] = files;
  }
  return changes;
}

/**
 * Each step's files for this run's guards (a whole-file write over another step's change, a command whose defining file
 * changed): the ones it changed in this run and, for a step kept from an earlier run, the ones it changed there.
 */
export function changesOfSteps(steps: Readonly<Record<string, StepState>>): Record<string, { status: StepState['status']; filesChanged: string[] }> {
  return Object.fromEntries(Object.entries(steps).map(([id, step]) => [id, { status: step.status, filesChanged: filesOf(step) }]));
}

function filesOf(step: StepState | undefined): string[] {
  return [...new Set([...(step?.filesChanged ?? []), ...(step?.keptChanges ?? [])])];
}
