/** A file's content at one moment: absent, or its text with its sha256 (hex). */
export type FileVersion = { exists: false } | { exists: true; text: string; sha256: string };

/** One change a run made to one path: what was there before, and the hash of what it left. */
export interface Checkpoint {
  runId: string;
  stepId: string;
  /** Order within the run, from 1. */
  seq: number;
  /** Workspace-relative path. */
  path: string;
  operation: 'write' | 'edit' | 'delete' | 'createDirectory';
  before: FileVersion;
  /** `undefined` for an absent file (or a directory for `createDirectory`); else sha256 hex of the text written. */
  afterSha256: string | undefined;
}

/**
 * Where file tools keep each change's previous content (docs/architecture.md §6), keyed by run. Tools
 * record a checkpoint before they change anything; `undoRun` reads them back.
 */
export interface CheckpointStore {
  record(checkpoint: Omit<Checkpoint, 'seq'>): Promise<Checkpoint>;
  /** The run's checkpoints in the order they were recorded (empty for an unknown run). */
  list(runId: string): Promise<Checkpoint[]>;
}

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
