import type { JournalEntry, JournalSnapshot, LoadedJournal, RunListing, RunStore } from '../runStorePorts';

/**
 * A `RunStore` in memory, for tests, benchmarks and embedders without persistence.
 * Entries and snapshots are kept by reference: events are immutable, and the engine hands
 * over snapshots it never mutates afterwards (their step states are replaced, not changed).
 */
export function createMemoryRunStore(): RunStore {
  const runs = new Map<string, { entries: JournalEntry[]; snapshot?: JournalSnapshot; updatedAt: number }>();
  return {
    async append(runId, entries) {
      const run = runs.get(runId) ?? { entries: [], updatedAt: 0 };
      for (const entry of entries) run.entries.push(entry);
      run.updatedAt = entries.at(-1)?.time ?? run.updatedAt;
      runs.set(runId, run);
    },
    // Memory is lost with the process whatever is done: nothing to make durable.
    async sync() {},
    async writeSnapshot(runId, snapshot) {
      const run = runs.get(runId) ?? { entries: [], updatedAt: 0 };
      run.snapshot = snapshot;
      runs.set(runId, run);
    },
    async load(runId): Promise<LoadedJournal | undefined> {
      const run = runs.get(runId);
      if (!run) return undefined;
      return { entries: [...run.entries], ...(run.snapshot ? { snapshot: run.snapshot } : {}) };
    },
    async list(): Promise<RunListing[]> {
      return [...runs.entries()].map(([runId, run]) => ({ runId, updatedAt: run.updatedAt })).sort((a, b) => b.updatedAt - a.updatedAt);
    },
    async delete(runId) {
      runs.delete(runId);
    },
  };
}
