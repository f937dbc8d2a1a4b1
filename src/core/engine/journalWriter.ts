import type { JournalEntry, RunStore } from '../runStorePorts';
import type { RunEvent, RunState } from './runEvents';
import { errorMessage } from '../../shared/errorMessage';

/** Appends a run's events to its store in order, in batches, with periodic snapshots. */
export interface JournalWriter {
  /** Queues `event`; never blocks the engine. */
  append(event: RunEvent): void;
  /**
   * Resolves once everything queued (and a final snapshot, if asked) went to the store and the store made it durable
   * (`RunStore.sync`): `true` when it is, `false` when the store refused either (`failure` says why; a later store call
   * tries again).
   */
  flush(finalSnapshot?: RunState): Promise<boolean>;
  /**
   * The first store failure, if any (the run goes on; resuming may then lose events). A refused batch is tried again by
   * the next store call, at the latest by `flush`'s, before any snapshot: the failure stays reported even when that heals it.
   */
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
  /** The last batch was refused: the store holds its entries for the next append (`RunStore.append`). */
  let behind = false;

  const write = async (): Promise<void> => {
    scheduled = false;
    if (!store) return;
    while (buffer.length > 0 || snapshot) {
      const batch = buffer;
      buffer = [];
      const pendingSnapshot = snapshot;
      snapshot = undefined;
      try {
        // Behind (a batch refused, its entries held by the store): an append, empty or not, writes them first, and no
        // snapshot goes before them, since a snapshot must never claim events the journal lacks.
        if (batch.length > 0 || behind) {
          behind = true;
          await store.append(runId, batch);
          behind = false;
        }
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
      const last = finalSnapshot && { seq: finalSnapshot.lastSeq, time: finalSnapshot.endedAt ?? 0, state: finalSnapshot };
      if (store && last) snapshot = last;
      if (store && (buffer.length > 0 || snapshot)) schedule();
      await chain;
      if (!store) return true;
      // The last batch was refused (with it, the final snapshot of the same write) and no append followed to write it:
      // one more try, in turn with the other store calls, then the final snapshot.
      if (behind) {
        chain = chain.then(async () => {
          if (!behind) return;
          try {
            await store.append(runId, []);
            behind = false;
            if (last) await store.writeSnapshot(runId, last);
          } catch {
            // Reported already (`failure`).
          }
        });
        await chain;
        if (behind) return false;
      }
      // Stored is not yet durable: what follows a flush (a command's start) must be told by the journal after a power loss too.
      let durable = true;
      chain = chain.then(() =>
        store.sync(runId).catch((error: unknown) => {
          failure ??= `Could not write the run journal to the disk: ${errorMessage(error)}`;
          durable = false;
        }),
      );
      await chain;
      return durable;
    },
    get failure() {
      return failure;
    },
  };
}
