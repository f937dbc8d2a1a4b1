/*
 * PROMISE UNDER ATTACK (2): read again from its journals (loadExecution: the repair run folded after the runs it
 * repairs), the state the views show equals the state the views showed live (the fold of every event the execution
 * emitted, through reduceExecutionEvent / ExecutionFold), for random chains with 1–3 repairs; and a damaged, missing or
 * foreign earlier journal (another run's journal under the failed run's id, a journal whose replanHistory names itself
 * or a cycle, a huge chain) never throws, never loops, and never shows another run's steps.
 *
 * "Live" is what the views fold: RunController.apply and the CLI's followExecution fold every `onEvent` event of
 * executeWithReplanning (replan_started / replan_completed / replan_failed included) with an ExecutionFold.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import type { RunEvent, RunState } from '../../../../src/core/engine/runEvents';
import type { ReplanRecord } from '../../../../src/core/engine/replanRecord';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import { executeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import { ExecutionFold } from '../../../../src/core/replan/executionFold';
import { loadExecution } from '../../../../src/core/replan/loadExecution';
import { reduceExecutionEvent } from '../../../../src/core/replan/reduceExecutionEvent';
import type { JournalEntry, LoadedJournal, RunStore } from '../../../../src/core/runStorePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { numberedEvents } from '../../../support/numberedEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';
import { repairReplanner, repairScenarios, type RepairScenario } from '../../../support/repairScenarios';

/** A repair scenario (`repairScenarios`) and the repair limit: below its repairs, the execution gives up (replan_failed). */
type Scenario = RepairScenario & { limit: number };

const scenarioArbitrary = (giveUp: boolean): fc.Arbitrary<Scenario> =>
  repairScenarios(false)
    // Giving up: the model would repair `repairs` times but the limit stops it one repair earlier.
    .map((scenario) => ({ ...scenario, limit: giveUp ? scenario.repairs - 1 : scenario.repairs }))
    .filter((scenario) => !giveUp || scenario.limit >= 1);

const stepRunner =
  (clock: ManualClock): StepRunner =>
  async (step, ctx) => {
    await clock.sleep(7, ctx.signal);
    if (step.id.startsWith('bad')) throw new Error(`${step.id} broke`);
    return `${step.id} done`;
  };

async function execute(scenario: Scenario, store: RunStore) {
  const clock = new ManualClock(1_000, { autoAdvance: true });
  const events: RunEvent[] = [];
  const result = await executeWithReplanning(scenario.plan, 'test objective', {
    clock,
    store,
    idSource: () => 'X',
    maxConcurrency: 1,
    maxTotalReplans: scenario.limit,
    replanner: repairReplanner(scenario),
    stepRunner: stepRunner(clock),
    onEvent: (event) => events.push(event),
  });
  return { result, events };
}

/** As RunController.apply folds it. */
function liveFold(events: readonly RunEvent[]): RunState {
  const fold = new ExecutionFold();
  let state: RunState | undefined;
  for (const event of events) state = fold.after(state, event);
  return state!;
}

const load = (store: RunStore) => (id: string) => store.load(id);

describe('attack: loadExecution reads a repaired execution again as the views showed it live', () => {
  it('property: chains of 1–3 repairs that complete: read again equals the live fold of every event the views got', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary(false), async (scenario) => {
        const store = createMemoryRunStore();
        const { result, events } = await execute(scenario, store);
        assert.equal(result.status, 'completed', result.metadata.reason);
        const live = liveFold(events);
        // The views' pure fold agrees with the in-place one (a guard on the attack itself).
        assert.deepEqual(events.reduce<RunState | undefined>(reduceExecutionEvent, undefined), live);
        const loaded = await loadExecution(result.runId, load(store));
        assert.deepEqual(loaded, live, 'read again after a reload, the execution shows otherwise than it did live');
      }),
      { numRuns: 60 },
    );
  });

  it('property: chains that give up (replan limit reached): the last run read again says why no repair came, as it did live', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary(true), async (scenario) => {
        const store = createMemoryRunStore();
        const { result, events } = await execute(scenario, store);
        assert.equal(result.status, 'failed');
        assert.ok(events.some((event) => event.type === 'replan_failed'));
        const live = liveFold(events);
        const loaded = await loadExecution(result.runId, load(store));
        assert.equal(loaded?.reason, live.reason, 'the reason shown live (with why no repair came) is lost after a reload');
      }),
      { numRuns: 20 },
    );
  });

  describe('damaged, missing or foreign earlier journals', () => {
    const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'], onFailure: 'replan' })], { id: 'plan-mine' });
    const repair = makePlan([makeStep('A'), makeStep('C', { dependsOn: ['A'] })], { id: 'plan-mine', version: 2 });
    const recordFor = (failedRunId: string, replan = 1): ReplanRecord => ({
      replan, failedRunId, stepIds: ['B'], reason: 'B failed', startedAt: 2_000, endedAt: 2_500,
      keptStepIds: ['A'], newStepIds: ['C'], repaired: false, planVersion: 2, trials: [],
    });
    const repairRun = (runId: string, history: ReplanRecord[]): RunEvent[] =>
      numberedEvents(runId, [
        { type: 'run_started', plan: repair, replanHistory: history },
        { type: 'step_completed', stepId: 'A', result: 'a', restored: true },
        { type: 'step_started', stepId: 'C', attempt: 1 },
        { type: 'step_completed', stepId: 'C', result: 'c' },
        { type: 'run_completed' },
      ], 1, 60_000);
    /** Another execution of the user's (another request, another plan) that happens to have a step "A" and changed secret.txt. */
    const foreignRun = (runId: string): RunEvent[] =>
      numberedEvents(runId, [
        { type: 'run_started', plan: makePlan([makeStep('A')], { id: 'plan-other', objective: 'another request' }) },
        { type: 'step_started', stepId: 'A', attempt: 1 },
        { type: 'model_called', stepId: 'A', model: 'm', promptTokens: 5_000, completionTokens: 5_000, costUsd: 3 },
        { type: 'file_changed', stepId: 'A', path: 'secret.txt', operation: 'write' },
        { type: 'step_completed', stepId: 'A', result: 'someone else\'s a' },
        { type: 'run_completed' },
      ], 1, 10);
    async function storeOf(journals: Record<string, RunEvent[]>): Promise<RunStore> {
      const store = createMemoryRunStore();
      for (const [id, events] of Object.entries(journals)) await store.append(id, events as unknown as JournalEntry[]);
      return store;
    }
    const alone = async (store: RunStore, id: string): Promise<RunState> => replayJournal(id, (await store.load(id))!);

    it('a replanHistory naming another of the user\'s runs (not of this chain) never shows that run\'s steps, spending or files', async () => {
      const store = await storeOf({ 'users-real-run': foreignRun('users-real-run'), 'r1-replan-1': repairRun('r1-replan-1', [recordFor('users-real-run')]) });
      const loaded = (await loadExecution('r1-replan-1', load(store)))!;
      assert.ok(!(loaded.changedFiles ?? []).includes('secret.txt'), `another run's changed file is shown as this run's: ${JSON.stringify(loaded.changedFiles)}`);
      assert.equal(loaded.modelUsage?.totalTokens ?? 0, 0, 'another run\'s spending is shown as this run\'s');
      assert.notEqual(loaded.steps.A?.startedAt, 11, 'step A shows the times of another run\'s step A');
      assert.deepEqual(loaded, await alone(store, 'r1-replan-1'), 'a run outside the chain is read as no part of it');
    });

    it('another run\'s journal stored under the failed run\'s id (its events name another run) is not folded in', async () => {
      const store = createMemoryRunStore();
      await store.append('r1', foreignRun('someone') as unknown as JournalEntry[]);
      await store.append('r1-replan-1', repairRun('r1-replan-1', [recordFor('r1')]) as unknown as JournalEntry[]);
      const loaded = (await loadExecution('r1-replan-1', load(store)))!;
      assert.deepEqual(loaded, await alone(store, 'r1-replan-1'));
    });

    it('an earlier journal of the chain\'s id but of another plan (a journal of another request under that id) does not lend its steps', async () => {
      // The control: r1 as it really ran (plan-mine) is folded in, its change counted.
      const genuine = numberedEvents('r1', [
        { type: 'run_started', plan },
        { type: 'step_started', stepId: 'A', attempt: 1 },
        { type: 'file_changed', stepId: 'A', path: 'mine.txt', operation: 'write' },
        { type: 'step_completed', stepId: 'A', result: 'a' },
        { type: 'step_started', stepId: 'B', attempt: 1 },
        { type: 'step_failed', stepId: 'B', attempt: 1, error: 'no', disposition: 'fail', replan: true },
        { type: 'run_failed', reason: 'B failed' },
      ], 1, 10);
      const real = await storeOf({ r1: genuine, 'r1-replan-1': repairRun('r1-replan-1', [recordFor('r1')]) });
      assert.deepEqual((await loadExecution('r1-replan-1', load(real)))?.changedFiles, ['mine.txt']);
      const store = await storeOf({ r1: foreignRun('r1'), 'r1-replan-1': repairRun('r1-replan-1', [recordFor('r1')]) });
      const loaded = (await loadExecution('r1-replan-1', load(store)))!;
      assert.ok(!(loaded.changedFiles ?? []).includes('secret.txt'), `a run of another plan (plan-other) is folded into plan-mine's repair: ${JSON.stringify(loaded.changedFiles)}`);
    });

    it('a replanHistory naming itself, or two repair runs naming each other, ends without a loop and without throwing', async () => {
      const self = await storeOf({ 'r1-replan-1': repairRun('r1-replan-1', [recordFor('r1-replan-1')]) });
      assert.deepEqual(await loadExecution('r1-replan-1', load(self)), await alone(self, 'r1-replan-1'));
      const cycle = await storeOf({
        'r1-replan-1': repairRun('r1-replan-1', [recordFor('r1-replan-2')]),
        'r1-replan-2': repairRun('r1-replan-2', [recordFor('r1-replan-1')]),
      });
      let loads = 0;
      const counted = (id: string): Promise<LoadedJournal | undefined> => {
        loads++;
        return cycle.load(id);
      };
      const loaded = await loadExecution('r1-replan-2', counted);
      assert.ok(loads <= 3, `${loads} loads`);
      assert.equal(loaded?.runId, 'r1-replan-2');
      assert.equal(loaded?.status, 'completed');
    });

    it('a huge chain (5,000 repairs named, each journal missing or damaged or a throw of the store) ends quickly, reading the run alone, never throwing', async () => {
      const history = Array.from({ length: 5_000 }, (_, index) => recordFor(index === 0 ? 'r1' : `r1-replan-${index}`, index + 1));
      const store = await storeOf({ 'r1-replan-5000': repairRun('r1-replan-5000', history) });
      let loads = 0;
      const throwing = async (id: string): Promise<LoadedJournal | undefined> => {
        loads++;
        if (id === 'r1-replan-5000') return store.load(id);
        if (id === 'r1') return { entries: [{ type: 'nonsense', runId: 'r1', seq: 1, time: 0 }] };
        throw new Error('the disk is gone');
      };
      const loaded = await loadExecution('r1-replan-5000', throwing);
      assert.deepEqual(loaded, await alone(store, 'r1-replan-5000'));
      assert.ok(loads <= 3, `stops at the first earlier journal it cannot use (${loads} loads)`);
    });

    it('a store that throws for the repair run itself rejects (as replayJournal does), one that throws for an earlier run does not', async () => {
      const store = await storeOf({ 'r1-replan-1': repairRun('r1-replan-1', [recordFor('r1')]) });
      const loaded = await loadExecution('r1-replan-1', async (id) => {
        if (id === 'r1') throw new Error('EACCES');
        return store.load(id);
      });
      assert.deepEqual(loaded, await alone(store, 'r1-replan-1'));
    });
  });
});
