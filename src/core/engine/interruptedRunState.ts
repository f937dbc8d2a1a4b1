import type { RunState } from './runEvents';
import { reduceRunEvent } from './reduceRunEvent';
import { awaitsRepair } from './awaitsRepair';

/**
 * How a run whose host went away mid-run reads afterwards: its journal's last snapshot, with a
 * run still `running` (the host died before it could journal the end), or one that awaits a repair
 * that never began (`awaitsRepair`; the caller knows no repair run is stored), folded as the
 * interruption the host would have journaled: status `interrupted`, `reason`, ended at its last journaled event (one
 * awaiting its repair where it failed; `time`, when the state does not say when that was),
 * unfinished steps back to pending or blocked and their questions gone (nothing is waiting for
 * an answer until the run is resumed). Nothing is journaled; any other state is returned as is.
 */
export function interruptedRunState(state: RunState, reason: string, time: number): RunState {
  const repairCutOff = awaitsRepair(state);
  if (state.status !== 'running' && !repairCutOff) return state;
  // One awaiting its repair ended when it failed: the time since is no time of the run ("interrupted in 2 min 5 s" for
  // 12.6 s of work: a trial). One left running ended at its last journaled event, as its resume counts the stop from
  // there (`run_resumed`): read at the notice, the reload's time was the run's ("interrupted in 47.5 s": a trial).
  const at = repairCutOff ? (state.endedAt ?? time) : Math.min(state.lastEventAt ?? time, time);
  return reduceRunEvent(state, { type: 'run_cancelled', runId: state.runId, seq: state.lastSeq + 1, time: at, reason, interrupted: true });
}
