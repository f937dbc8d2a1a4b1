import type { Checkpoint, CheckpointStore } from '../ports';

/** A `CheckpointStore` in memory that can be saved as JSON and loaded back. */
export interface MemoryCheckpointStore extends CheckpointStore {
  /** Every checkpoint of every run, as plain JSON-safe data. */
  toJSON(): Checkpoint[];
}

/** A memory store, optionally holding checkpoints saved earlier with `toJSON()`. */
export function createMemoryCheckpointStore(saved: readonly Checkpoint[] = []): MemoryCheckpointStore {
  const byRun = new Map<string, Checkpoint[]>();
  for (const checkpoint of saved) {
    const list = byRun.get(checkpoint.runId) ?? [];
    list.push(structuredClone(checkpoint));
    byRun.set(checkpoint.runId, list);
  }
  return {
    async record(checkpoint) {
      const list = byRun.get(checkpoint.runId) ?? [];
      const stored: Checkpoint = { ...structuredClone(checkpoint), seq: (list.at(-1)?.seq ?? 0) + 1 };
      list.push(stored);
      byRun.set(checkpoint.runId, list);
      return structuredClone(stored);
    },
    async list(runId) {
      return structuredClone(byRun.get(runId) ?? []);
    },
    toJSON() {
      return [...byRun.values()].flat().map((checkpoint) => structuredClone(checkpoint));
    },
  };
}
