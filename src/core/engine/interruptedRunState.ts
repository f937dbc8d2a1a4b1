import type { RunState } from './runEvents';
import { reduceRunEvent } from './reduceRunEvent';
import { awaitsRepair } from './awaitsRepair';

/**
 * How a run whose host went away mid-run reads afterwards: its journal's last snapshot, with a
 * run still `running` (the host died before it could journal the end), or one that awaits a repair
 * that never began (`awaitsRepair`; the caller knows no repair run is stored), folded as the
 * interruption the host would have journaled: status `interrupted`, `reason`, ended at `time`,
 * unfinished steps back to pending or blocked and their questions gone (nothing is waiting for
 * an answer until the run is resumed). Nothing is journaled; any other state is returned as is.
 */
export function interruptedRunState(state: RunState, reason: string, time: number): RunState {
  if (state.status !== 'running' && !awaitsRepair(state)) return state;
  return reduceRunEvent(state, { type: 'run_cancelled', runId: state.runId, seq: state.lastSeq + 1, time, reason, interrupted: true });
}
