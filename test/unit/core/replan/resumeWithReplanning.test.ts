import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import { executeWithReplanning, resumeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** Fails every step whose id starts with "bad", completes the others. */
const stepRunner: StepRunner = async (step, ctx) => {
  if (!step.id.startsWith('bad')) return `${step.id} done`;
  ctx.output(`${step.id} tried something`);
  throw new Error(`${step.id} broke`);
};
const repair = (...steps: Record<string, unknown>[]): string => JSON.stringify({ objective: 'x', steps: steps.map((step) => ({ title: `repair ${String(step['id'])}`, kind: 'agent', dependsOn: [], ...step })) });
const promptText = (llm: ReturnType<typeof scriptedLlm>, index: number): string => (llm.requests[index]?.messages ?? []).map((message) => String(message.content)).join('\n');

describe('resumeWithReplanning', () => {
  let clock: ManualClock;
  beforeEach(() => {
    clock = new ManualClock(Date.parse('2026-03-01T09:00:00Z'), { autoAdvance: true });
  });

  /** A run "X" whose step fails and is repaired into "X-replan-1", which then waits on a question. */
  async function waitingRepairRun() {
    const store = createMemoryRunStore();
    const plan = makePlan([makeStep('bad1', { onFailure: 'replan' })]);
    const first = scriptedLlm([repair({ id: 'ask', kind: 'clarification', input: 'Go on?' }, { id: 'bad2', dependsOn: ['ask'], onFailure: 'replan' })]);
    const result = await executeWithReplanning(plan, 'objective', { replanner: first, stepRunner, clock, store, idSource: () => 'X' });
    assert.equal(result.status, 'waiting', result.metadata.reason);
    assert.equal(result.runId, 'X-replan-1');
    assert.equal(result.metadata.replanCount, 1);
    return store;
  }

  it('repairs a resumed repair run, reporting the earlier repair too, and names the next run after the first', async () => {
    const store = await waitingRepairRun();
    const replanner = scriptedLlm([repair({ id: 'fine' })]);
    const events: RunEvent[] = [];
    const result = await resumeWithReplanning('X-replan-1', { replanner, stepRunner, clock, store, answers: { ask: 'yes' }, onEvent: (event) => events.push(event) });

    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(result.runId, 'X-replan-2');
    assert.equal(result.metadata.replanCount, 2);
    const history = result.metadata.replanHistory;
    assert.deepEqual(history.map((record) => [record.replan, record.failedRunId, record.stepIds]), [[1, 'X', ['bad1']], [2, 'X-replan-1', ['bad2']]]);
    // The replanner hears of every earlier failed attempt, the one before the resume included.
    assert.match(promptText(replanner, 0), /bad1 broke[\s\S]*bad2 broke/);
    assert.deepEqual([...new Set(events.map((event) => event.runId))], ['X-replan-1', 'X-replan-2']);
    // The repair run journals the repairs that led to it, so resuming it later reports them.
    const journal = await store.load('X-replan-2');
    const opening = journal?.entries[0];
    assert.equal(opening?.type, 'run_started');
    assert.equal((opening as { replanHistory?: unknown[] } | undefined)?.replanHistory?.length, 2);
    const recorded = await resumeWithReplanning('X-replan-2', { replanner, stepRunner, clock, store });
    assert.deepEqual([recorded.status, recorded.runId, recorded.metadata.replanCount], ['completed', 'X-replan-2', 2], 'an ended repair run reports its repairs');
  });

  it('counts the earlier repairs against maxTotalReplans', async () => {
    const store = await waitingRepairRun();
    const replanner = scriptedLlm([repair({ id: 'fine' })]);
    const result = await resumeWithReplanning('X-replan-1', { replanner, stepRunner, clock, store, answers: { ask: 'yes' }, maxTotalReplans: 1 });
    assert.equal(result.status, 'failed');
    assert.equal(result.metadata.replanCount, 1);
    assert.match(result.metadata.reason ?? '', /the limit of 1 repair plans per run is used up\.$/);
    assert.equal(replanner.requests.length, 0);
  });

  it('resumes a run without repairs like resumeRun, and returns a run that already ended as it was recorded', async () => {
    const store = createMemoryRunStore();
    const plan = makePlan([makeStep('ask', { kind: 'clarification', agent: undefined, input: 'Go on?' }), makeStep('ok', { dependsOn: ['ask'] })]);
    const waiting = await executeWithReplanning(plan, 'objective', { stepRunner, clock, store, idSource: () => 'Y' });
    assert.equal(waiting.status, 'waiting');
    const done = await resumeWithReplanning('Y', { stepRunner, clock, store, answers: { ask: 'yes' } });
    assert.deepEqual([done.status, done.runId, done.metadata.replanCount, done.results['ok']], ['completed', 'Y', 0, 'ok done']);
    const again = await resumeWithReplanning('Y', { stepRunner, clock, store });
    assert.deepEqual([again.status, again.runId, again.metadata.replanCount], ['completed', 'Y', 0]);
  });

  it('waits the cooldown on the run\'s clock before asking for a repair plan, and a cancel during it ends the run without asking', async () => {
    const replanner = scriptedLlm([repair({ id: 'fine' })]);
    const plan = makePlan([makeStep('bad1', { onFailure: 'replan' })]);
    const result = await executeWithReplanning(plan, 'objective', { replanner, stepRunner, clock, replanCooldownMs: 5_000 });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.ok(clock.sleeps.includes(5_000));
    const [record] = result.metadata.replanHistory;
    assert.ok(record !== undefined && record.endedAt - record.startedAt >= 5_000);

    const stopped = new ManualClock(0);
    const controller = new AbortController();
    const idle = scriptedLlm([repair({ id: 'fine' })]);
    const running = executeWithReplanning(plan, 'objective', {
      replanner: idle,
      stepRunner,
      clock: stopped,
      replanCooldownMs: 60_000,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'replan_started') queueMicrotask(() => controller.abort(new Error('Cancelled by the user.')));
      },
    });
    const cancelled = await running;
    assert.equal(cancelled.status, 'cancelled');
    assert.match(cancelled.metadata.reason ?? '', /The run was stopped before a repair plan was asked for; resume it to ask for the repair plan\.$/);
    assert.equal(idle.requests.length, 0);
  });
});
