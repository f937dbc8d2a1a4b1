import type { Checkpoint, CheckpointState, CheckpointStore } from '../runStorePorts';

/** A `CheckpointStore` in memory that can be saved as JSON and loaded back. */
export interface MemoryCheckpointStore extends CheckpointStore {
  /** Every checkpoint of every run, as plain JSON-safe data. */
  toJSON(): Checkpoint[];
}

const states: ReadonlySet<string> = new Set<CheckpointState>(['intended', 'applied', 'abandoned', 'undone', 'recovered', 'uncertain', 'undoing']);

/**
 * A memory store, optionally holding checkpoints saved earlier with `toJSON()`. A saved
 * checkpoint without a known state (written before states were kept) counts as `applied`,
 * which it was: older versions recorded only changes they went on to make.
 */
export function createMemoryCheckpointStore(saved: readonly Checkpoint[] = []): MemoryCheckpointStore {
  const byRun = new Map<string, Checkpoint[]>();
  for (const checkpoint of saved) {
    const list = byRun.get(checkpoint.runId) ?? [];
    const state: CheckpointState = states.has(checkpoint.state) ? checkpoint.state : 'applied';
    list.push({ ...structuredClone(checkpoint), state });
    byRun.set(checkpoint.runId, list);
  }
  return {
    async record(checkpoint) {
      const list = byRun.get(checkpoint.runId) ?? [];
      const stored: Checkpoint = { ...structuredClone(checkpoint), seq: (list.at(-1)?.seq ?? 0) + 1, state: 'intended' };
      list.push(stored);
      byRun.set(checkpoint.runId, list);
      return structuredClone(stored);
    },
    async settle(checkpoint, state) {
      const stored = byRun.get(checkpoint.runId)?.find((candidate) => candidate.seq === checkpoint.seq);
      if (stored === undefined) throw new Error(`No checkpoint ${checkpoint.seq} of run ${checkpoint.runId} to settle.`);
      stored.state = state;
    },
    async list(runId) {
      return structuredClone(byRun.get(runId) ?? []);
    },
    toJSON() {
      return [...byRun.values()].flat().map((checkpoint) => structuredClone(checkpoint));
    },
  };
}
