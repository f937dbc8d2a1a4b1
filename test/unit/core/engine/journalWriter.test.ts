import assert from 'node:assert/strict';
import { createJournalWriter } from '../../../../src/core/engine/journalWriter';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import type { JournalEntry, JournalSnapshot, RunStore } from '../../../../src/core/runStorePorts';

type Call = { append: number[] } | { snapshot: JournalSnapshot };

/**
 * A memory store that records each call, and can hold or refuse them. A refused append's entries are written first by
 * the next append, as `RunStore.append` promises.
 */
function recordingStore(options: { refuse?: (call: 'append' | 'snapshot') => Error | undefined; hold?: Promise<void> } = {}): {
  store: RunStore;
  calls: Call[];
  inFlight: () => number;
  maxInFlight: () => number;
} {
  const inner = createMemoryRunStore();
  const calls: Call[] = [];
  let refused: readonly JournalEntry[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const track = async (call: 'append' | 'snapshot', record: Call, action: () => Promise<void>): Promise<void> => {
    calls.push(record);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await options.hold;
      const refused = options.refuse?.(call);
      if (refused) throw refused;
      await action();
    } finally {
      inFlight--;
    }
  };
  const store: RunStore = {
    ...inner,
    append: async (runId: string, entries: readonly JournalEntry[]) => {
      const all = [...refused, ...entries];
      try {
        await track('append', { append: entries.map((entry) => entry.seq) }, () => inner.append(runId, all));
        refused = [];
      } catch (error) {
        refused = all;
        throw error;
      }
    },
    writeSnapshot: (runId: string, snapshot: JournalSnapshot) => track('snapshot', { snapshot }, () => inner.writeSnapshot(runId, snapshot)),
  };
  return { store, calls, inFlight: () => inFlight, maxInFlight: () => maxInFlight };
}

const ready = (seq: number): RunEvent => ({ type: 'step_ready', runId: 'r', seq, time: 100 + seq, stepId: `S${seq}` });
const stateAt = (lastSeq: number, endedAt?: number): RunState => ({ ...initialRunState('r'), lastSeq, ...(endedAt === undefined ? {} : { endedAt }) });

describe('createJournalWriter', () => {
  it('stores the events appended in one turn in one call, in order', async () => {
    const { store, calls } = recordingStore();
    const writer = createJournalWriter(store, 'r', 100, () => stateAt(0));
    writer.append(ready(1));
    writer.append(ready(2));
    writer.append(ready(3));
    assert.deepEqual(calls, [], 'append never blocks on the store');
    await writer.flush();
    assert.deepEqual(calls, [{ append: [1, 2, 3] }]);
    assert.deepEqual(
      (await store.load('r'))?.entries.map((entry) => entry.seq),
      [1, 2, 3],
    );
    assert.equal(writer.failure, undefined);
  });

  it('keeps one store call in flight at a time and stores what arrived meanwhile afterwards, in order', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const recording = recordingStore({ hold });
    const writer = createJournalWriter(recording.store, 'r', 100, () => stateAt(0));
    writer.append(ready(1));
    await Promise.resolve();
    await Promise.resolve();
    writer.append(ready(2));
    writer.append(ready(3));
    await Promise.resolve();
    assert.equal(recording.inFlight(), 1);
    release();
    await writer.flush();
    assert.equal(recording.maxInFlight(), 1);
    assert.deepEqual(recording.calls, [{ append: [1] }, { append: [2, 3] }]);
    assert.deepEqual(
      (await recording.store.load('r'))?.entries.map((entry) => entry.seq),
      [1, 2, 3],
    );
  });

  it('takes a snapshot every `snapshotEvery` events, stored after the events it covers', async () => {
    const { store, calls } = recordingStore();
    let taken = 0;
    const writer = createJournalWriter(store, 'r', 2, () => stateAt(++taken * 2));
    for (let seq = 1; seq <= 5; seq++) writer.append(ready(seq));
    await writer.flush();
    assert.equal(taken, 2, 'after the 2nd and the 4th event');
    // Both snapshots land in the same turn: only the newer is written, after all its events.
    assert.deepEqual(calls, [{ append: [1, 2, 3, 4, 5] }, { snapshot: { seq: 4, time: 104, state: stateAt(4) } }]);
  });

  it('snapshots on schedule across turns: the first snapshot after exactly `snapshotEvery` events', async () => {
    const { store, calls } = recordingStore();
    const writer = createJournalWriter(store, 'r', 3, () => stateAt(0));
    for (let seq = 1; seq <= 7; seq++) {
      writer.append(ready(seq));
      await writer.flush();
    }
    const snapshots = calls.flatMap((call) => ('snapshot' in call ? [call.snapshot.seq] : []));
    assert.deepEqual(snapshots, [3, 6]);
  });

  it('writes a final snapshot at flush, with the run end as its time, and no empty batch', async () => {
    const { store, calls } = recordingStore();
    const writer = createJournalWriter(store, 'r', 100, () => stateAt(0));
    writer.append(ready(1));
    await writer.flush();
    const final = stateAt(1, 999);
    await writer.flush(final);
    assert.deepEqual(calls, [{ append: [1] }, { snapshot: { seq: 1, time: 999, state: final } }]);
    assert.deepEqual((await store.load('r'))?.snapshot, { seq: 1, time: 999, state: final });
  });

  it('times a final snapshot of a run that has not ended at 0', async () => {
    const { store, calls } = recordingStore();
    const writer = createJournalWriter(store, 'r', 100, () => stateAt(0));
    await writer.flush(stateAt(0));
    assert.deepEqual(calls, [{ snapshot: { seq: 0, time: 0, state: stateAt(0) } }]);
  });

  it('calls the store not at all for a flush with nothing queued', async () => {
    const { store, calls } = recordingStore();
    const writer = createJournalWriter(store, 'r', 1, () => stateAt(0));
    await writer.flush();
    await writer.flush();
    assert.deepEqual(calls, []);
  });

  it('reports the first store failure in words, and stores what follows with what was refused first, in order', async () => {
    let refusals = 0;
    const { store, calls } = recordingStore({ refuse: (call) => (call === 'append' && refusals++ < 3 ? new Error(`disk full ${refusals}`) : undefined) });
    const writer = createJournalWriter(store, 'r', 100, () => stateAt(0));
    writer.append(ready(1));
    await writer.flush();
    assert.equal(writer.failure, 'Could not write the run journal: disk full 1');
    writer.append(ready(2));
    await writer.flush();
    assert.equal(writer.failure, 'Could not write the run journal: disk full 1', 'the first failure is kept');
    writer.append(ready(3));
    await writer.flush(stateAt(3, 7));
    // Each flush after a refusal tries once more with nothing new (an empty append): the run's end has no next event.
    assert.deepEqual(
      calls.map((call) => ('append' in call ? call.append : 'snapshot')),
      [[1], [], [2], [], [3], 'snapshot'],
    );
    assert.deepEqual(
      (await store.load('r'))?.entries.map((entry) => entry.seq),
      [1, 2, 3],
    );
  });

  it("tries a run's last refused batch once more at its end, and then stores the final snapshot it held back", async () => {
    let refusals = 0;
    const { store, calls } = recordingStore({ refuse: (call) => (call === 'append' && refusals++ < 1 ? new Error('busy') : undefined) });
    const writer = createJournalWriter(store, 'r', 100, () => stateAt(0));
    writer.append(ready(1));
    await writer.flush(stateAt(1, 5));
    assert.deepEqual(
      calls.map((call) => ('append' in call ? call.append : call.snapshot.seq)),
      [[1], [], 1],
    );
    const stored = await store.load('r');
    assert.deepEqual(stored?.entries.map((entry) => entry.seq), [1]);
    assert.equal(stored?.snapshot?.time, 5);
    assert.equal(writer.failure, 'Could not write the run journal: busy');
  });

  it('stores no snapshot for events whose batch was refused (a snapshot never claims events the journal lacks)', async () => {
    const { store } = recordingStore({ refuse: (call) => (call === 'append' ? new Error('read-only') : undefined) });
    const writer = createJournalWriter(store, 'r', 100, () => stateAt(0));
    writer.append(ready(1));
    await writer.flush(stateAt(1, 5));
    assert.equal(writer.failure, 'Could not write the run journal: read-only');
    assert.equal((await store.load('r'))?.snapshot, undefined);
  });

  it('without a store, does nothing and never asks for a snapshot', async () => {
    let asked = 0;
    const writer = createJournalWriter(undefined, 'r', 1, () => {
      asked++;
      return stateAt(0);
    });
    writer.append(ready(1));
    writer.append(ready(2));
    await writer.flush(stateAt(2, 3));
    assert.equal(asked, 0);
    assert.equal(writer.failure, undefined);
  });
});
