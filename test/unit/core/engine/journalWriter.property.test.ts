import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createJournalWriter } from '../../../../src/core/engine/journalWriter';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { JournalEntry, RunStore } from '../../../../src/core/runStorePorts';

/**
 * A store that refuses the calls `refuses` names (by their order, appends and snapshots counted together), keeping a
 * refused append's entries for the next append as `RunStore.append` promises, as the file store does on a full disk.
 */
function refusingStore(refuses: ReadonlySet<number>): RunStore {
  const inner = createMemoryRunStore();
  let call = 0;
  let refused: readonly JournalEntry[] = [];
  const refuse = (): boolean => refuses.has(call++);
  return {
    ...inner,
    append: async (runId, entries) => {
      const all = [...refused, ...entries];
      if (refuse()) {
        refused = all;
        throw new Error('ENOSPC: no space left on device');
      }
      refused = [];
      await inner.append(runId, all);
    },
    writeSnapshot: async (runId, snapshot) => {
      if (refuse()) throw new Error('ENOSPC: no space left on device');
      await inner.writeSnapshot(runId, snapshot);
    },
  };
}

const ready = (seq: number): RunEvent => ({ type: 'step_ready', runId: 'r', seq, time: seq, stepId: `S${seq}` });

// The promise: no run state dropped. Whatever the store refuses on the way (a disk that fills up and frees), the journal
// a resume reads has no gap, no repeat and no snapshot ahead of it; and unless the store refused two calls in a row, it
// holds every event of the run.
describe('createJournalWriter under a store that refuses calls at random (property)', () => {
  it('leaves a journal without a gap, a repeat or a snapshot ahead of it, and whole unless the store refused two calls in a row', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Per turn: how many events the engine emits, and whether the host flushes after them.
        fc.array(fc.record({ events: fc.integer({ min: 0, max: 4 }), flush: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        async (turns, refusals, snapshotEvery) => {
          const store = refusingStore(new Set(refusals));
          let seq = 0;
          const writer = createJournalWriter(store, 'r', snapshotEvery, () => ({ ...initialRunState('r'), lastSeq: seq }));
          for (const turn of turns) {
            for (let index = 0; index < turn.events; index++) writer.append(ready(++seq));
            if (turn.flush) await writer.flush();
            else await Promise.resolve();
          }
          await writer.flush({ ...initialRunState('r'), lastSeq: seq, endedAt: seq + 1 });
          const loaded = await store.load('r');
          const stored = loaded?.entries.map((entry) => entry.seq) ?? [];
          assert.deepEqual(stored, Array.from({ length: stored.length }, (_, index) => index + 1), `a gap or a repeat: ${stored.join(',')}`);
          // What a resume checks first (replayJournal): no snapshot claims events the journal lacks.
          assert.ok((loaded?.snapshot?.seq ?? 0) <= stored.length, `a snapshot at event ${loaded?.snapshot?.seq} over ${stored.length} events`);
          // A disk that refuses a call and takes the next: every refused batch is written by the call after it, the run's
          // last one by the writer's own try at the end.
          const neverTwiceInARow = refusals.every((index) => !refusals.includes(index + 1));
          if (neverTwiceInARow) assert.equal(stored.length, seq, `the run ended with ${seq - stored.length} events unwritten though no call was refused twice in a row`);
          if (refusals.length === 0) assert.equal(writer.failure, undefined);
        },
      ),
      { numRuns: 200 },
    );
  });
});
