import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import type { RunStore } from '../../../../src/core/runStorePorts';
import { createFileRunStore } from '../../../../src/node/fileRunStore';
import { answeringInteraction } from '../../../fakes/answeringInteraction';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('resumeRun', () => {
  const plan = makePlan([
    makeStep('a'),
    makeStep('ask', { kind: 'clarification', input: 'Which colour?', dependsOn: ['a'] }),
    makeStep('review', { kind: 'human_review', input: 'OK with {{results.ask}}?', dependsOn: ['ask'] }),
    makeStep('paint', { input: 'paint {{results.ask}}', dependsOn: ['review'] }),
    makeStep('free'),
  ]);
  let calls: string[];
  const stepRunner: StepRunner = async (step, ctx) => {
    calls.push(step.id);
    return ctx.input;
  };
  beforeEach(() => {
    calls = [];
  });

  it('continues a waiting run with answers and reviews, without re-running finished steps', async () => {
    const store = createMemoryRunStore();
    const clock = new ManualClock(5);
    const first = await runPlan(plan, { store, clock, stepRunner, idSource: () => 'w1' }).result;
    assert.equal(first.status, 'waiting');
    assert.deepEqual(first.pending?.map((request) => [request.stepId, request.kind, request.prompt]), [['ask', 'clarification', 'Which colour?']]);
    assert.deepEqual(calls.sort(), ['a', 'free']);

    const second = await resumeRun('w1', { store, clock, stepRunner, answers: { ask: 'blue' } }).result;
    assert.equal(second.status, 'waiting');
    assert.deepEqual(second.pending?.map((request) => [request.stepId, request.prompt]), [['review', 'OK with blue?']]);

    const third = await resumeRun('w1', { store, clock, stepRunner, reviews: { review: { approved: true, notes: 'go' } } }).result;
    assert.equal(third.status, 'completed');
    assert.equal(third.results['paint'], 'paint blue');
    assert.deepEqual(third.results['review'], { approved: true, notes: 'go' });
    assert.deepEqual(calls.sort(), ['a', 'free', 'paint']);
    assert.equal(third.metadata.resumeCount, 2);
  });

  it('uses the interaction for requests it has no answer for, and answers approvals for tools', async () => {
    const store = createMemoryRunStore();
    const clock = new ManualClock();
    await runPlan(plan, { store, clock, stepRunner, idSource: () => 'w2' }).result;
    const interaction = answeringInteraction({ review: () => ({ approved: false, notes: 'no' }) });
    const result = await resumeRun('w2', { store, clock, stepRunner, interaction, answers: { ask: 'red' } }).result;
    assert.equal(result.status, 'failed');
    assert.deepEqual(interaction.asked, [{ kind: 'review', stepId: 'review' }]);
    assert.match(result.steps['review']?.error ?? '', /Rejected in review: no/);
  });

  it('restarts steps that were running when the process died and keeps completed results', async () => {
    const store = createMemoryRunStore();
    const clock = new ManualClock();
    const chain = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'] })]);
    const handle = runPlan(chain, { store, clock, idSource: () => 'crash', stepRunner: async (step, ctx) => (step.id === 'b' ? new Promise(() => ctx.signal.throwIfAborted()) : step.id) });
    await clock.advance(0);
    assert.equal(handle.state().steps['b']?.status, 'running');
    // Simulate the crash: copy the journal as it is now into a fresh store; the old run is abandoned.
    const journal = await store.load('crash');
    const copy = createMemoryRunStore();
    await copy.append('crash', journal?.entries ?? []);
    const resumed = await resumeRun('crash', { store: copy, clock, stepRunner }).result;
    assert.equal(resumed.status, 'completed');
    assert.deepEqual(calls, ['b', 'c']);
    assert.equal(resumed.results['a'], 'a');
    handle.cancel();
  });

  it('skips the dependents of a step that was skipped before the process died, without running them', async () => {
    const store = createMemoryRunStore();
    const clock = new ManualClock();
    const chain = makePlan([makeStep('a', { onFailure: 'skip' }), makeStep('b', { dependsOn: ['a'] }), makeStep('c', { dependsOn: ['b'] })]);
    const failA: StepRunner = async (step) => {
      calls.push(step.id);
      if (step.id === 'a') throw new Error('boom');
      return step.id;
    };
    await runPlan(chain, { store, clock, idSource: () => 'cut', stepRunner: failA }).result;
    // The process died right after journaling that a failed and was skipped.
    const entries = (await store.load('cut'))?.entries ?? [];
    const copy = createMemoryRunStore();
    await copy.append('cut', entries.slice(0, entries.findIndex((entry) => entry.type === 'step_failed') + 1));
    calls = [];
    const resumed = await resumeRun('cut', { store: copy, clock, stepRunner: failA }).result;
    assert.deepEqual(calls, []);
    assert.equal(resumed.status, 'partial');
    assert.deepEqual(['a', 'b', 'c'].map((id) => [resumed.steps[id]?.status, resumed.steps[id]?.reason]), [
      ['skipped', 'failed: boom'],
      // As the uninterrupted run says it (a failed-and-skipped dependency "failed"): journalCutAttacks.test.ts.
      ['skipped', 'dependency a failed'],
      ['skipped', 'dependency b was skipped'],
    ]);
  });

  it('resolves a finished run to its recorded result without running anything', async () => {
    const store = createMemoryRunStore();
    const clock = new ManualClock();
    const done = await runPlan(makePlan([makeStep('a')]), { store, clock, stepRunner, idSource: () => 'done' }).result;
    const again = await resumeRun('done', { store, clock, stepRunner }).result;
    assert.deepEqual(again, done);
    assert.deepEqual(calls, ['a']);
  });

  it('refuses clearly without a store or for an unknown run', async () => {
    assert.throws(() => resumeRun('x', { clock: new ManualClock() }), /needs options.store/);
    await assert.rejects(resumeRun('nope', { store: createMemoryRunStore(), clock: new ManualClock() }).result, /No run "nope" in the store/);
  });

  describe('from a file journal', () => {
    let dir: string;
    let store: RunStore;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'resume-'));
      store = createFileRunStore(dir);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('replays from snapshots, tolerates and reports a torn last line, and keeps the journal valid', async () => {
      const clock = new ManualClock();
      const first = await runPlan(plan, { store, clock, stepRunner, idSource: () => 'f1', snapshotEvery: 3 }).result;
      assert.equal(first.status, 'waiting');
      appendFileSync(join(dir, 'f1.jsonl'), '{"type":"step_sta');
      const answered = await resumeRun('f1', { store, clock, stepRunner, answers: { ask: 'green' } }).result;
      assert.equal(answered.status, 'waiting');
      const resumed = await resumeRun('f1', { store, clock, stepRunner, reviews: { review: { approved: true } } }).result;
      assert.equal(resumed.status, 'completed');
      assert.ok(resumed.metadata.warnings.some((warning) => /line \d+ was cut short/.test(warning)));
      const lines = readFileSync(join(dir, 'f1.jsonl'), 'utf8').trimEnd().split('\n');
      for (const line of lines) JSON.parse(line);
      assert.deepEqual(calls.sort(), ['a', 'free', 'paint']);
    });

    it('a damaged snapshot only costs replay time', async () => {
      const clock = new ManualClock();
      await runPlan(plan, { store, clock, stepRunner, idSource: () => 'f2' }).result;
      writeFileSync(join(dir, 'f2.snapshot.json'), '{not json');
      const resumed = await resumeRun('f2', { store, clock, stepRunner, answers: { ask: 'x' } }).result;
      assert.equal(resumed.status, 'waiting');
      assert.equal(resumed.results['ask'], 'x');
    });
  });
});
