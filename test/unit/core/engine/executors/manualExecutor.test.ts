import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import type { StepRunner } from '../../../../../src/core/engine/runOptions';
import type { ReviewRequest } from '../../../../../src/core/ports';
import { answeringInteraction } from '../../../../fakes/answeringInteraction';
import { ManualClock } from '../../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../../support/randomPlans';

describe('manual steps in a run', () => {
  const plan = (critical = true) =>
    makePlan([
      makeStep('find', { input: 'find it' }),
      makeStep('S002', {
        kind: 'manual',
        title: 'Update the README',
        input: 'Update README.md with what {{results.find}} says',
        dependsOn: ['find'],
        critical,
        attachments: [{ kind: 'file', ref: 'src/util.js#L1-L9', label: 'selection in src/util.js (lines 1-9)' }],
      }),
      makeStep('after', { dependsOn: ['S002'], input: 'after {{results.S002}}' }),
    ]);
  const stepRunner: StepRunner = async (step, ctx) => (step.id === 'find' ? 'the changelog' : ctx.input);

  it('asks the person to mark it done, with its instructions, attachments and the results before it; the note is the result', async () => {
    const asked: ReviewRequest[] = [];
    const interaction = answeringInteraction({ review: (request) => (asked.push(request), { approved: true, notes: ' Added a usage section ' }) });
    const result = await runPlan(plan(), { clock: new ManualClock(0, { autoAdvance: true }), stepRunner, interaction }).result;
    assert.equal(result.status, 'completed');
    assert.equal(result.results['S002'], 'Added a usage section');
    assert.equal(result.results['after'], 'after Added a usage section');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.title, 'Update the README');
    assert.match(asked[0]!.prompt, /^Mark S002 done\? This step is yours to do:\nUpdate README\.md with what the changelog says\n/);
    assert.match(asked[0]!.prompt, /Attached: selection in src\/util\.js \(lines 1-9\)/);
    assert.match(asked[0]!.prompt, /find: the changelog/);
  });

  it('is never completed without the person: done without a note says so', async () => {
    const interaction = answeringInteraction({ review: () => ({ approved: true }) });
    const result = await runPlan(plan(), { clock: new ManualClock(0, { autoAdvance: true }), stepRunner, interaction }).result;
    assert.equal(result.results['S002'], 'Done by you.');
  });

  it('fails, without a retry, when the person says it could not be done; a critical one halts the run', async () => {
    const interaction = answeringInteraction({ review: () => ({ approved: false, notes: 'no access to the wiki' }) });
    const halted = await runPlan(plan(), { clock: new ManualClock(0, { autoAdvance: true }), stepRunner, interaction }).result;
    assert.equal(halted.status, 'failed');
    assert.equal(halted.steps['S002']?.status, 'failed');
    assert.equal(halted.steps['S002']?.error, 'You marked step S002 as not done: no access to the wiki.');
    assert.equal(halted.steps['S002']?.attempts, 1);
    const retrying = makePlan(plan(false).steps.map((step) => (step.id === 'S002' ? { ...step, onFailure: 'retry' as const, maxAttempts: 3 } : step)));
    const skipped = await runPlan(retrying, { clock: new ManualClock(0, { autoAdvance: true }), stepRunner, interaction }).result;
    assert.equal(skipped.steps['S002']?.attempts, 1);
    assert.equal(skipped.steps['after']?.status, 'skipped');
  });

  it('waits when nobody can answer now, and completes on resume with the answer', async () => {
    const store = createMemoryRunStore();
    const clock = new ManualClock(0, { autoAdvance: true });
    const first = await runPlan(plan(), { store, clock, stepRunner, idSource: () => 'm1' }).result;
    assert.equal(first.status, 'waiting');
    assert.deepEqual(first.pending?.map((request) => [request.stepId, request.kind]), [['S002', 'review']]);
    const second = await resumeRun('m1', { store, clock, stepRunner, reviews: { S002: { approved: true, notes: 'done on Monday' } } }).result;
    assert.equal(second.status, 'completed');
    assert.equal(second.results['S002'], 'done on Monday');
  });
});
