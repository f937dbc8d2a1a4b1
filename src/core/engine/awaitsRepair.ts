import type { LoadedJournal } from '../runStorePorts';
import type { RunState } from './runEvents';

/**
 * Whether `state` is a run that failed only because steps asked for a repair plan (`onFailure: 'replan'`), with no line
 * saying that none will come (`replan_failed`, `repairGivenUp`). Unless a repair run of it is stored (`repairCutOff`),
 * the process stopped between the run's end and its repair run's start (a crash, a reload, a cancel while the model was
 * asked), and resuming it asks for the repair again (`resumeWithReplanning`).
 */
export function awaitsRepair(state: RunState): boolean {
  if (state.status !== 'failed' || state.repairGivenUp === true) return false;
  const failed = Object.values(state.steps).filter((step) => step.status === 'failed');
  return failed.length > 0 && failed.every((step) => step.replanRequested === true);
}

/** The id the next repair run of `state` gets (`executeWithReplanning`): `<first run>-replan-<repairs so far + 1>`. */
export function nextRepairRunId(state: Pick<RunState, 'runId' | 'replanHistory'>): string {
  const history = state.replanHistory ?? [];
  return `${history[0]?.failedRunId ?? state.runId}-replan-${history.length + 1}`;
}

/**
 * Whether `state` awaits a repair that never began: `awaitsRepair`, and `load` finds no journal of its next repair run.
 * A journal `load` fails to read counts as stored: a repair run is never started over one.
 */
export async function repairCutOff(state: RunState, load: (runId: string) => Promise<LoadedJournal | undefined>): Promise<boolean> {
  if (!awaitsRepair(state)) return false;
  return load(nextRepairRunId(state)).then((journal) => journal === undefined, () => false);
}
