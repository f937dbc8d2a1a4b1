import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { RunStore } from '../core/runStorePorts';
import { repairCutOff } from '../core/engine/awaitsRepair';
import { loadRuntime } from './loadRuntime';
import { interruptedRunReason, repairCutOffReason } from './runNotifications';

// How a stored run that no execution of this window holds reads when it is shown: what its journal left, read as the
// interruption it was where a stop or a window that went away left it unfinished (as the Runs view lists it).

/**
 * `state` read as interrupted (`interruptedRunState`) when a stop cut its repair off (`repairCutOff`, in `store`, the
 * store of the folder whose journal holds it: resuming it asks for the repair); else `undefined`.
 */
export async function cutOffView(store: RunStore, state: RunState): Promise<RunState | undefined> {
  if (!(await repairCutOff(state, (id) => store.load(id)))) return undefined;
  return loadRuntime().interruptedRunState(state, repairCutOffReason(Object.values(state.steps)), Date.now());
}

/** `state` read as interrupted when its journal leaves it `running` (its window went away mid-run); else `state`. */
export function leftRunningView(state: RunState): RunState {
  return state.status === 'running' ? loadRuntime().interruptedRunState(state, interruptedRunReason(Object.values(state.steps)), Date.now()) : state;
}

/**
 * The `step_started` and `step_output` events the journals in `store` of the run `runId` (whose snapshot is `state`)
 * hold, with those of the runs its repairs replaced (`runChain`), in the order they ran: its steps' output, read again.
 * A journal it cannot read adds none.
 */
export async function storedOutput(store: RunStore, runId: string, state: RunState | undefined): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (const id of state ? loadRuntime().runChain(state) : [runId]) {
    const journal = await store.load(id).catch(() => undefined);
    for (const entry of journal?.entries ?? []) if (entry.type === 'step_output' || entry.type === 'step_started') events.push(entry as unknown as RunEvent);
  }
  return events;
}
