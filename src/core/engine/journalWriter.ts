import type { JournalEntry, RunStore } from '../runStorePorts';
import type { RunEvent, RunState } from './runEvents';
import { errorMessage } from '../../shared/errorMessage';

/** Appends a run's events to its store in order, in batches, with periodic snapshots. */
export interface JournalWriter {
  /** Queues `event`; never blocks the engine. */
  append(event: RunEvent): void;
  /** Resolves once everything queued (and a final snapshot, if asked) is stored. */
  flush(finalSnapshot?: RunState): Promise<void>;
  /** The first store failure, if any (the run goes on; resuming may then lose events). */
  readonly failure: string | undefined;
}

/**
 * Batches appends (one store call per microtask turn at most in flight) so the engine's
 * emit stays synchronous. `snapshotOf` is called every `snapshotEvery` events.
 */
export function createJournalWriter(
  store: RunStore | undefined,
  runId: string,
  snapshotEvery: number,
  snapshotOf: () => RunState,
): JournalWriter {
  let buffer: JournalEntry[] = [];
  let snapshot: { seq: number; time: number; state: RunState } | undefined;
  let sinceSnapshot = 0;
  let chain: Promise<void> = Promise.resolve();
  let scheduled = false;
  let failure: string | undefined;

  const write = async (): Promise<void> => {
    scheduled = false;
    if (!store) return;
    while (buffer.length > 0 || snapshot) {
      const batch = buffer;
      buffer = [];
      const pendingSnapshot = snapshot;
      snapshot = undefined;
      try {
        if (batch.length > 0) await store.append(runId, batch);
        if (pendingSnapshot) await store.writeSnapshot(runId, pendingSnapshot);
      } catch (error) {
        failure ??= `Could not write the run journal: ${errorMessage(error)}`;
      }
    }
  };
  const schedule = (): void => {
    if (scheduled || !store) return;
    scheduled = true;
    chain = chain.then(write);
  };

  return {
    append(event) {
      if (!store) return;
      buffer.push(event as unknown as JournalEntry);
      if (++sinceSnapshot >= snapshotEvery) {
        sinceSnapshot = 0;
        snapshot = { seq: event.seq, time: event.time, state: snapshotOf() };
      }
      schedule();
    },
    async flush(finalSnapshot) {
      if (store && finalSnapshot) snapshot = { seq: finalSnapshot.lastSeq, time: finalSnapshot.endedAt ?? 0, state: finalSnapshot };
      if (store && (buffer.length > 0 || snapshot)) schedule();
      await chain;
    },
    get failure() {
      return failure;
    },
  };
}
