import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { JournalError, replayJournal } from '../../../../src/core/engine/replayJournal';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import type { RunState } from '../../../../src/core/engine/runEvents';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { JournalEntry, RunStore } from '../../../../src/core/runStorePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** A diamond and a tail: a → (b, c) → d → e, and a free step f; c fails its first attempt. */
const plan: Plan = makePlan([
  makeStep('a'),
  makeStep('b', { dependsOn: ['a'], input: 'b of {{results.a}}' }),
  makeStep('c', { dependsOn: ['a'], input: 'c of {{results.a}}', maxAttempts: 2 }),
  makeStep('d', { dependsOn: ['b', 'c'], input: 'd of {{results.b}} {{results.c}}' }),
  makeStep('e', { dependsOn: ['d'], input: 'e of {{results.d}}' }),
  makeStep('f', { critical: false }),
]);

function counting(clock: ManualClock, calls: Map<string, number>, finished: Map<string, number>): StepRunner {
  return async (step, ctx) => {
    calls.set(step.id, (calls.get(step.id) ?? 0) + 1);
    await clock.sleep(step.id === 'f' ? 7 : 3, ctx.signal);
    if (step.id === 'c' && ctx.attempt === 1) throw new Error('c fails once');
    finished.set(step.id, (finished.get(step.id) ?? 0) + 1);
    return `${step.id}(${ctx.input})`;
  };
}

function outcome(state: RunState): unknown {
  return {
    status: state.status,
    results: state.results,
    steps: Object.fromEntries(Object.values(state.steps).map((step) => [step.id, [step.status, step.result, step.reason]])),
  };
}

const options = (clock: ManualClock, store: RunStore, runner: StepRunner) => ({ clock, store, stepRunner: runner, maxConcurrency: 2, retryBaseDelayMs: 1 });

describe('attack: cancellation at every event, forged seq lines, and two resumes at once', () => {
  it('attack: a cancel arriving at any event of the run, then of its resume, loses no result and never finishes a step twice', async () => {
    const clock = new ManualClock(0, { autoAdvance: true });
    const reference = runPlan(plan, { ...options(clock, createMemoryRunStore(), counting(clock, new Map(), new Map())), idSource: () => 'ref' });
    await reference.result;
    const expected = outcome(reference.state());
    const total = reference.state().lastSeq;
    for (let at = 1; at <= total; at++) {
      for (const again of [undefined, 1, 3]) {
        const store = createMemoryRunStore();
        const finished = new Map<string, number>();
        const runner = counting(clock, new Map(), finished);
        const handle = runPlan(plan, { ...options(clock, store, runner), idSource: () => 'cx' });
        handle.events.subscribe((event) => {
          if (event.seq === at) handle.cancel('stop here');
        });
        const first = await handle.result;
        assert.ok(['cancelled', 'completed'].includes(first.status), `cancel at event ${at}: ${first.status}`);
        assert.deepEqual(replayJournal('cx', (await store.load('cx'))!), handle.state(), `cancel at event ${at}: the journal is not the run`);
        const kept = { ...first.results };
        let state: RunState;
        if (again === undefined) {
          const resumed = resumeRun('cx', options(clock, store, runner));
          await resumed.result;
          state = resumed.state();
        } else {
          // The resume is cancelled too, `again` events into it, and resumed once more.
          const resumed = resumeRun('cx', options(clock, store, runner));
          let seen = 0;
          resumed.events.subscribe(() => {
            if (++seen === again) resumed.cancel('stop the resume');
          });
          await resumed.result;
          const last = resumeRun('cx', options(clock, store, runner));
          await last.result;
          state = last.state();
        }
        const where = `cancel at event ${at}${again === undefined ? '' : `, resume cancelled at its event ${again}`}`;
        assert.deepEqual(outcome(state), expected, `${where}: ended otherwise than uninterrupted`);
        for (const [id, result] of Object.entries(kept)) assert.equal(state.results[id], result, `${where}: the result of ${id} changed`);
        for (const [id, count] of finished) assert.equal(count, 1, `${where}: ${id} finished its work ${count} times`);
      }
    }
  });

  describe('forged seq', () => {
    const forge = async (edit: (entries: JournalEntry[]) => JournalEntry[]): Promise<{ store: RunStore; calls: Map<string, number> }> => {
      const clock = new ManualClock(0, { autoAdvance: true });
      const store = createMemoryRunStore();
      const calls = new Map<string, number>();
      const handle = runPlan(plan, { ...options(clock, store, counting(clock, calls, new Map())), idSource: () => 'fg' });
      handle.events.subscribe((event) => {
        if (event.type === 'step_completed' && event.stepId === 'b') handle.cancel('stop');
      });
      await handle.result;
      const entries = (await store.load('fg'))!.entries.map((entry) => JSON.parse(JSON.stringify(entry)) as JournalEntry);
      const forged = createMemoryRunStore();
      await forged.append('fg', edit(entries));
      return { store: forged, calls: new Map() };
    };
    const resumeForged = (store: RunStore, calls: Map<string, number>) => {
      const clock = new ManualClock(0, { autoAdvance: true });
      return resumeRun('fg', options(clock, store, counting(clock, calls, new Map()))).result;
    };
    const completedE = (seq: number): JournalEntry => ({ type: 'step_completed', runId: 'fg', seq, time: 1, stepId: 'e', result: 'forged' });

    const cases: [string, (entries: JournalEntry[]) => JournalEntry[], RegExp][] = [
      ['a line from the future (seq far ahead) appended', (entries) => [...entries, completedE(entries.length + 1000)], /missing before it/],
      ['a line whose seq repeats the last one', (entries) => [...entries, completedE(entries.length)], /repeats event/],
      ['a line with seq 0 at the start', (entries) => [completedE(0), ...entries], /not a run event/],
      ['a line with a fractional seq', (entries) => [...entries, completedE(entries.length + 0.5)], /not a run event|missing|repeats/],
      ['a line with a string seq', (entries) => [...entries, { ...completedE(0), seq: String(entries.length + 1) as unknown as number }], /not a run event/],
      ['a line with a huge seq', (entries) => [...entries, completedE(Number.MAX_SAFE_INTEGER + 2)], /not a run event|missing before it/],
      ['two lines swapped', (entries) => [...entries.slice(0, 3), entries[4]!, entries[3]!, ...entries.slice(5)], /missing before it|repeats event/],
      [
        'a well-numbered completion of a step that never started',
        (entries) => [...entries, completedE(entries.length + 1)],
        /never started|after the run ended/,
      ],
    ];
    for (const [name, edit, message] of cases) {
      it(`attack: ${name} is refused before any step runs`, async () => {
        const { store, calls } = await forge(edit);
        await assert.rejects(resumeForged(store, calls), (error: unknown) => error instanceof JournalError && message.test(error.message));
        assert.equal(calls.size, 0, 'a step ran on a forged journal');
      });
    }

    it('attack: a snapshot from the future (seq ahead of the journal) is refused, one claiming a seq the journal has but another run state is ignored', async () => {
      const { store, calls } = await forge((entries) => entries);
      const entries = (await store.load('fg'))!.entries;
      await store.writeSnapshot('fg', {
        seq: entries.length + 5,
        time: 1,
        state: { runId: 'fg', lastSeq: entries.length + 5, steps: {}, results: {}, warnings: [] },
      });
      await assert.rejects(resumeForged(store, calls), JournalError);
      assert.equal(calls.size, 0);
      // Claims every step completed at the journal's last seq, but its state is of another run: ignored, the journal is folded.
      await store.writeSnapshot('fg', {
        seq: entries.length,
        time: 1,
        state: { runId: 'other', lastSeq: entries.length, steps: {}, results: {}, warnings: [] },
      });
      const resumed = await resumeForged(store, calls);
      assert.equal(resumed.status, 'completed');
      assert.equal(calls.get('a') ?? 0, 0, 'a finished before the cancel and ran again');
      assert.equal(calls.get('b') ?? 0, 0, 'b finished before the cancel and ran again');
    });
  });

  it('attack: two resumes of the same run at once in one process: no step runs twice, and the journal stays one consistent history', async () => {
    const clock = new ManualClock(0, { autoAdvance: true });
    const store = createMemoryRunStore();
    const finished = new Map<string, number>();
    const runner = counting(clock, new Map(), finished);
    const handle = runPlan(plan, { ...options(clock, store, runner), idSource: () => 'two' });
    handle.events.subscribe((event) => {
      if (event.type === 'step_completed' && event.stepId === 'a') handle.cancel('stop');
    });
    await handle.result;
    const first = resumeRun('two', options(clock, store, runner));
    const second = resumeRun('two', options(clock, store, runner));
    const settled = await Promise.allSettled([first.result, second.result]);
    assert.equal(settled[0].status, 'fulfilled');
    assert.ok(settled[1].status === 'rejected' && /being resumed already/.test(String(settled[1].reason)), 'the second resume was not refused');
    for (const [id, count] of finished) assert.equal(count, 1, `${id} finished its work ${count} times`);
    const journal = await store.load('two');
    assert.ok(journal);
    const state = replayJournal('two', journal);
    assert.equal(state.status, 'completed');
  });
});
