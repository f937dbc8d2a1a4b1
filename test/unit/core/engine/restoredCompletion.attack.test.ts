/*
 * PROMISE UNDER ATTACK (3): the reducer change of today: `step_completed` with `restored: true` on a step already
 * completed keeps its times (reduceRunEvent.ts), and nothing else. A journal must not be able to use `restored` to hide a
 * step's real outcome: a restored completion after a failed attempt in the same run, or for a step that failed earlier in
 * the chain; and replayJournal's consistency check must not accept what the engine could not have written (a damaged
 * snapshot "only costs time": it never changes what the run shows; see test/unit/node/hostileJournal.test.ts).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { JournalError, replayJournal } from '../../../../src/core/engine/replayJournal';
import { stampEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import type { ReplanRecord } from '../../../../src/core/engine/replanRecord';
import { loadExecution } from '../../../../src/core/replan/loadExecution';
import type { JournalEntry } from '../../../../src/core/runStorePorts';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('a', { maxAttempts: 3 }), makeStep('b', { maxAttempts: 3 })]);
const journalOf = (runId: string, bodies: RunEventBody[]): JournalEntry[] =>
  bodies.map((body, index) => stampEvent(body, runId, index + 1, 10 * (index + 1)) as unknown as JournalEntry);

function accepted(runId: string, entries: JournalEntry[], snapshot?: { seq: number; time: number; state: unknown }): RunState | undefined {
  try {
    return replayJournal(runId, { entries, ...(snapshot ? { snapshot } : {}) });
  } catch (error) {
    assert.ok(error instanceof JournalError, String(error));
    return undefined;
  }
}

const stepEvent = (id: 'a' | 'b'): fc.Arbitrary<RunEventBody> =>
  fc.oneof(
    fc.integer({ min: 1, max: 3 }).map((attempt): RunEventBody => ({ type: 'step_started', stepId: id, attempt })),
    fc.constantFrom<RunEventBody>(
      { type: 'step_failed', stepId: id, attempt: 1, error: 'broke', disposition: 'retry' },
      { type: 'step_failed', stepId: id, attempt: 1, error: 'broke', disposition: 'fail' },
      { type: 'step_failed', stepId: id, attempt: 1, error: 'broke', disposition: 'fail', replan: true },
      { type: 'step_completed', stepId: id, result: `${id} real` },
      { type: 'step_completed', stepId: id, result: `${id} restored`, restored: true },
    ),
  );
const anyEvent: fc.Arbitrary<RunEventBody> = fc.oneof(
  stepEvent('a'),
  stepEvent('b'),
  fc.constantFrom<RunEventBody>(
    { type: 'run_cancelled', reason: 'killed', interrupted: true },
    { type: 'run_resumed', supplied: {} },
  ),
);

describe('attack: a restored completion cannot hide a step\'s real outcome', () => {
  it('property: in any journal replayJournal accepts, a step that failed for good is not completed, a restored result comes before any attempt, and each completed step holds the result it completed with', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 12 }), (bodies) => {
        const entries = journalOf('r', [{ type: 'run_started', plan }, ...bodies]);
        const state = accepted('r', entries);
        if (state === undefined) return;
        for (const id of ['a', 'b']) {
          const own = bodies.filter((body): body is Extract<RunEventBody, { stepId: string }> => 'stepId' in body && body.stepId === id);
          const failed = own.some((body) => body.type === 'step_failed' && body.disposition !== 'retry');
          if (failed) assert.notEqual(state.steps[id]?.status, 'completed', `${id} failed for good and reads completed`);
          const restoredAt = own.findIndex((body) => body.type === 'step_completed' && body.restored === true);
          const startedAt = own.findIndex((body) => body.type === 'step_started');
          if (restoredAt >= 0) assert.ok(startedAt < 0 || startedAt > restoredAt, `${id}: a result restored after an attempt was accepted`);
          if (state.steps[id]?.status === 'completed') assert.deepEqual(state.steps[id]?.result, state.results[id], `${id}: its step and the run's results disagree`);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('a restored completion after a failed attempt (retry) of the same run is refused', () => {
    const entries = journalOf('r', [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'a', attempt: 1 },
      { type: 'step_failed', stepId: 'a', attempt: 1, error: 'broke', disposition: 'retry' },
      { type: 'step_completed', stepId: 'a', result: 'never made', restored: true },
    ]);
    assert.equal(accepted('r', entries), undefined);
  });

  // A snapshot of the right shape is trusted up to its event: the store vouches for it (the file store seals it with the
  // user's key), and test/unit/node/hostileJournal.test.ts attacks that with damaged, forged and copied snapshots.

  // Broke (2026-12-07), with a forged journal: the repair run's own journal says the step was restored.
  it('read as a chain (loadExecution), a repair run cannot restore a result for a step that failed before it and never completed in the chain', async () => {
    const first = makePlan([makeStep('A'), makeStep('B', { onFailure: 'replan' })], { id: 'p' });
    const repair = makePlan([makeStep('A'), makeStep('C')], { id: 'p', version: 2 });
    const record: ReplanRecord = {
      replan: 1, failedRunId: 'r1', stepIds: ['B'], reason: 'B failed', startedAt: 100, endedAt: 100,
      keptStepIds: ['A'], newStepIds: ['C'], repaired: false, planVersion: 2, trials: [],
    };
    const store = createMemoryRunStore();
    await store.append('r1', journalOf('r1', [
      { type: 'run_started', plan: first },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_failed', stepId: 'A', attempt: 1, error: 'A broke', disposition: 'fail' },
      { type: 'step_started', stepId: 'B', attempt: 1 },
      { type: 'step_failed', stepId: 'B', attempt: 1, error: 'B broke', disposition: 'fail', replan: true },
      { type: 'run_failed', reason: 'A and B failed' },
    ]));
    await store.append('r1-replan-1', journalOf('r1-replan-1', [
      { type: 'run_started', plan: repair, replanHistory: [record] },
      { type: 'step_completed', stepId: 'A', result: 'made up', restored: true },
    ]));
    let loaded: RunState | undefined;
    try {
      loaded = await loadExecution('r1-replan-1', (id) => store.load(id));
    } catch (error) {
      assert.ok(error instanceof JournalError);
      return;
    }
    assert.notEqual(loaded?.steps.A?.status, 'completed', `A failed in r1 and no run completed it; read again it shows ${JSON.stringify(loaded?.steps.A)}`);
  });

  it('read as a chain, a restored completion whose result differs from the one the step completed with does not leave the step and the results disagreeing', async () => {
    const first = makePlan([makeStep('A'), makeStep('B', { onFailure: 'replan' })], { id: 'p' });
    const repair = makePlan([makeStep('A'), makeStep('C', { dependsOn: ['A'] })], { id: 'p', version: 2 });
    const record: ReplanRecord = {
      replan: 1, failedRunId: 'r1', stepIds: ['B'], reason: 'B failed', startedAt: 100, endedAt: 100,
      keptStepIds: ['A'], newStepIds: ['C'], repaired: false, planVersion: 2, trials: [],
    };
    const store = createMemoryRunStore();
    await store.append('r1', journalOf('r1', [
      { type: 'run_started', plan: first },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_completed', stepId: 'A', result: 'A as made' },
      { type: 'step_started', stepId: 'B', attempt: 1 },
      { type: 'step_failed', stepId: 'B', attempt: 1, error: 'B broke', disposition: 'fail', replan: true },
      { type: 'run_failed', reason: 'B failed' },
    ]));
    await store.append('r1-replan-1', journalOf('r1-replan-1', [
      { type: 'run_started', plan: repair, replanHistory: [record] },
      { type: 'step_completed', stepId: 'A', result: 'A swapped', restored: true },
    ]));
    const loaded = (await loadExecution('r1-replan-1', (id) => store.load(id)))!;
    assert.deepEqual(loaded.steps.A?.result, loaded.results['A'], 'the step shows one result, its dependents get another');
  });
});
