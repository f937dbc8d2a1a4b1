import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { JournalEntry } from '../../../../src/core/runStorePorts';
import { describeRunStoreDeleteConformance } from '../../conformance/runStoreConformance';

describeRunStoreDeleteConformance('memory', async () => ({ store: createMemoryRunStore(), dispose: async () => undefined }));

describe('createMemoryRunStore', () => {
  const entry = (runId: string, seq: number, time: number): JournalEntry => ({ type: 'step_ready', runId, seq, time, stepId: `S${seq}` });

  it('lists runs most recently updated first, by the time of their last event', async () => {
    const store = createMemoryRunStore();
    await store.append('old', [entry('old', 1, 10), entry('old', 2, 20)]);
    await store.append('new', [entry('new', 1, 50)]);
    await store.append('middle', [entry('middle', 1, 5), entry('middle', 2, 30)]);
    assert.deepEqual(await store.list(), [
      { runId: 'new', updatedAt: 50 },
      { runId: 'middle', updatedAt: 30 },
      { runId: 'old', updatedAt: 20 },
    ]);
    await store.append('old', [entry('old', 3, 60)]);
    assert.deepEqual(
      (await store.list()).map((run) => run.runId),
      ['old', 'new', 'middle'],
    );
  });

  it('keeps the update time when nothing is appended, and lists a run known only by its snapshot', async () => {
    const store = createMemoryRunStore();
    await store.append('a', [entry('a', 1, 40)]);
    await store.append('a', []);
    await store.writeSnapshot('b', { seq: 0, time: 99, state: {} });
    assert.deepEqual(await store.list(), [
      { runId: 'a', updatedAt: 40 },
      { runId: 'b', updatedAt: 0 },
    ]);
    assert.deepEqual(await store.load('b'), { entries: [], snapshot: { seq: 0, time: 99, state: {} } });
  });

  it('loads the entries in order with the newest snapshot, and a copy of the list', async () => {
    const store = createMemoryRunStore();
    await store.append('a', [entry('a', 1, 1)]);
    await store.writeSnapshot('a', { seq: 1, time: 1, state: { first: true } });
    await store.append('a', [entry('a', 2, 2)]);
    await store.writeSnapshot('a', { seq: 2, time: 2, state: { second: true } });
    const loaded = await store.load('a');
    assert.deepEqual(loaded, { entries: [entry('a', 1, 1), entry('a', 2, 2)], snapshot: { seq: 2, time: 2, state: { second: true } } });
    loaded?.entries.pop();
    assert.equal((await store.load('a'))?.entries.length, 2);
    assert.equal(await store.load('a-never'), undefined);
  });

  it('has no snapshot field for a run without one', async () => {
    const store = createMemoryRunStore();
    await store.append('a', [entry('a', 1, 1)]);
    assert.deepEqual(Object.keys((await store.load('a')) ?? {}), ['entries']);
  });
});
