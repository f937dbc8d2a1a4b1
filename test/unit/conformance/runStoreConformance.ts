import assert from 'node:assert/strict';
import type { JournalEntry, RunStore } from '../../../src/core/runStorePorts';

/** A fresh, empty store, and how to throw it away. */
export type RunStoreFactory = () => Promise<{ store: RunStore; dispose: () => Promise<void> }>;

/**
 * The contract of `RunStore.delete` (src/core/ports.ts) that every store (memory, file)
 * keeps; it uses only the port itself.
 */
export function describeRunStoreDeleteConformance(name: string, makeStore: RunStoreFactory): void {
  describe(`RunStore.delete conformance: ${name}`, () => {
    let dispose: (() => Promise<void>) | undefined;
    const open = async (): Promise<RunStore> => {
      const made = await makeStore();
      dispose = made.dispose;
      return made.store;
    };
    afterEach(async () => {
      await dispose?.();
      dispose = undefined;
    });
    const entry = (runId: string, seq: number): JournalEntry => ({ type: 'step_ready', runId, seq, time: seq, stepId: `S${seq}` });

    it('forgets the run, its journal and its snapshot, and leaves other runs as they were', async () => {
      const store = await open();
      await store.append('gone', [entry('gone', 1), entry('gone', 2)]);
      await store.writeSnapshot('gone', { seq: 2, time: 2, state: { a: 1 } });
      await store.append('kept', [entry('kept', 1)]);
      await store.writeSnapshot('kept', { seq: 1, time: 1, state: { b: 1 } });
      await store.delete('gone');
      assert.equal(await store.load('gone'), undefined);
      assert.deepEqual((await store.list()).map((run) => run.runId), ['kept']);
      const kept = await store.load('kept');
      assert.deepEqual(kept?.entries.map((item) => item.seq), [1]);
      assert.deepEqual(kept?.snapshot, { seq: 1, time: 1, state: { b: 1 } });
    });

    it('takes a deleted id as a new run, without the old snapshot', async () => {
      const store = await open();
      await store.append('again', [entry('again', 1)]);
      await store.writeSnapshot('again', { seq: 1, time: 1, state: {} });
      await store.delete('again');
      await store.append('again', [entry('again', 1)]);
      const loaded = await store.load('again');
      assert.deepEqual(loaded?.entries.map((item) => item.seq), [1]);
      assert.equal(loaded?.snapshot, undefined);
    });

    it('deletes a run it does not have without complaint', async () => {
      const store = await open();
      await store.delete('never-stored');
      assert.deepEqual(await store.list(), []);
    });
  });
}
