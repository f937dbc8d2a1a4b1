import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import type { StepRunner } from '../../../../../src/core/engine/runOptions';
import type { ManualStepRequest } from '../../../../../src/core/interactionPorts';
import { answeringInteraction } from '../../../../fakes/answeringInteraction';
import { createMemoryWorkspace } from '../../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../../support/randomPlans';

describe('manual steps in a run', () => {
  const plan = (critical = true) =>
    makePlan([
      makeStep('find', { input: 'find it' }),
      makeStep('look', { input: 'look at it' }),
      makeStep('S002', {
        kind: 'manual',
        title: 'Update the README',
        input: 'Update README.md with what {{results.find}} says',
        dependsOn: ['find', 'look'],
        critical,
        attachments: [{ kind: 'file', ref: 'src/util.js#L1-L9', label: 'selection in src/util.js (lines 1-9)' }],
      }),
      makeStep('after', { dependsOn: ['S002'], input: 'after {{results.S002}}' }),
    ]);
  const stepRunner: StepRunner = async (step, ctx) => (step.id === 'find' ? 'the changelog' : step.id === 'look' ? 'two sections' : ctx.input);
  const clock = () => new ManualClock(0, { autoAdvance: true });

  // The instructions quote find's result already: it is not shown a second time under them (issue 28 walked again).
  it('asks the person with its instructions, attachments and the results before it not quoted in them; done with a note makes the note its result', async () => {
    const asked: ManualStepRequest[] = [];
    const interaction = answeringInteraction({ manual: (request) => (asked.push(request), { done: true, note: ' Added a usage section ' }) });
    const result = await runPlan(plan(), { clock: clock(), stepRunner, interaction }).result;
    assert.equal(result.status, 'completed');
    assert.equal(result.results['S002'], 'Added a usage section');
    assert.equal(result.results['after'], 'after Added a usage section');
    const [{ requestId, ...shown }] = asked as [ManualStepRequest];
    assert.match(requestId ?? '', /^S002@[0-9a-f]{12}$/, 'the request carries the id an answer is bound to');
    assert.deepEqual([shown], [
      {
        stepId: 'S002',
        title: 'Update the README',
        instructions: 'Update README.md with what the changelog says',
        attachments: [{ kind: 'file', ref: 'src/util.js#L1-L9', label: 'selection in src/util.js (lines 1-9)' }],
        depends: { look: 'two sections' },
        checks: [],
      },
    ]);
    assert.deepEqual(interaction.asked, [{ kind: 'manual', stepId: 'S002' }], 'a manual step asks nothing else (no review, no approval)');
  });

  it('shows the step as yours to do while the person works on it, with its instructions as the pending prompt', async () => {
    let release!: () => void;
    const interaction = answeringInteraction({ manual: () => new Promise((resolve) => (release = () => resolve({ done: true }))) });
    const handle = runPlan(plan(), { clock: clock(), stepRunner, interaction });
    while (handle.state().steps['S002']?.status !== 'awaiting_user') await new Promise((resolve) => setImmediate(resolve));
    const pending = handle.state().steps['S002']?.pending;
    assert.equal(pending?.kind, 'manual');
    assert.equal(pending?.prompt, 'Step S002 is yours to do: Update the README\nUpdate README.md with what the changelog says\n\nAttached: selection in src/util.js (lines 1-9)\n\nResults of the steps before it:\nlook: two sections');
    release();
    const result = await handle.result;
    assert.equal(result.results['S002'], 'Done by you.', 'done without a note says who did it');
  });

  it('fails with the reason, without a retry, when the person could not do it; a critical one halts the run', async () => {
    const interaction = answeringInteraction({ manual: () => ({ done: false, reason: 'no access to the wiki' }) });
    const halted = await runPlan(plan(), { clock: clock(), stepRunner, interaction }).result;
    assert.equal(halted.status, 'failed');
    assert.equal(halted.steps['S002']?.status, 'failed');
    assert.equal(halted.steps['S002']?.error, 'You marked step S002 as failed: no access to the wiki.');
    assert.equal(halted.steps['after']?.status, 'skipped');
    const retrying = makePlan(plan(false).steps.map((step) => (step.id === 'S002' ? { ...step, onFailure: 'retry' as const, maxAttempts: 3 } : step)));
    const again = await runPlan(retrying, { clock: clock(), stepRunner, interaction }).result;
    assert.equal(again.steps['S002']?.attempts, 1, 'asking again would not change the answer');
    assert.equal(interaction.asked.filter((entry) => entry.kind === 'manual').length, 2);
  });

  // A newcomer's trial: Done before the work was done failed the check, and with it the whole run.
  it("a Done its checks refute asks the person again, saying what failed first, for as long as they try; then the run goes on", async () => {
    const workspace = createMemoryWorkspace();
    const asked: ManualStepRequest[] = [];
    const interaction = answeringInteraction({
      manual: async (request) => {
        asked.push(request);
        if (asked.length === 3) await workspace.writeText('CONTRIBUTING.md', '# Contributing\n', new AbortController().signal);
        return { done: true };
      },
    });
    const checked = makePlan(plan().steps.map((step) => (step.id === 'S002' ? { ...step, checks: [{ kind: 'file_exists' as const, path: 'CONTRIBUTING.md' }] } : step)));
    const result = await runPlan(checked, { clock: clock(), stepRunner, interaction, workspace }).result;
    assert.equal(result.status, 'completed');
    assert.equal(result.steps['S002']?.attempts, 3);
    assert.equal(asked.length, 3);
    assert.doesNotMatch(asked[0]?.instructions ?? '', /Not done yet/);
    assert.match(asked[1]?.instructions ?? '', /^Not done yet: .*CONTRIBUTING\.md/);
    assert.match(asked[1]?.instructions ?? '', /\n\nUpdate README\.md with what the changelog says$/);
    assert.equal(result.steps['after']?.status, 'completed');
  });

  it('defers: the run ends waiting on a manual request; resume with done completes it, with the note as result', async () => {
    const store = createMemoryRunStore();
    const first = await runPlan(plan(), { store, clock: clock(), stepRunner, idSource: () => 'm1' }).result;
    assert.equal(first.status, 'waiting');
    assert.deepEqual(first.pending?.map((request) => [request.stepId, request.kind]), [['S002', 'manual']]);
    assert.equal(first.steps['after']?.status, 'blocked');
    const journal = await store.load('m1');
    assert.ok(journal?.entries.some((entry) => entry.type === 'manual_requested'), 'the request is journaled');
    const second = await resumeRun('m1', { store, clock: clock(), stepRunner, manual: { S002: { done: true, note: 'done on Monday' } } }).result;
    assert.equal(second.status, 'completed');
    assert.equal(second.results['S002'], 'done on Monday');
    assert.equal(second.results['after'], 'after done on Monday');
  });

  it('resume with not done fails the step with the reason (or says none was given)', async () => {
    const store = createMemoryRunStore();
    await runPlan(plan(), { store, clock: clock(), stepRunner, idSource: () => 'm2' }).result;
    const failed = await resumeRun('m2', { store, clock: clock(), stepRunner, manual: { S002: { done: false, reason: 'the wiki is down' } } }).result;
    assert.equal(failed.steps['S002']?.status, 'failed');
    assert.equal(failed.steps['S002']?.error, 'You marked step S002 as failed: the wiki is down.');
    await runPlan(plan(), { store, clock: clock(), stepRunner, idSource: () => 'm3' }).result;
    const noReason = await resumeRun('m3', { store, clock: clock(), stepRunner, manual: { S002: { done: false } } }).result;
    assert.equal(noReason.steps['S002']?.error, 'You marked step S002 as failed: no reason given.');
  });

  it('a resume without an answer for it asks the person again', async () => {
    const store = createMemoryRunStore();
    await runPlan(plan(), { store, clock: clock(), stepRunner, idSource: () => 'm4' }).result;
    const interaction = answeringInteraction({ manual: () => ({ done: true, note: 'asked again' }) });
    const resumed = await resumeRun('m4', { store, clock: clock(), stepRunner, interaction }).result;
    assert.equal(resumed.results['S002'], 'asked again');
    assert.deepEqual(interaction.asked, [{ kind: 'manual', stepId: 'S002' }]);
  });

  it('cancel while the person works: the question is withdrawn, the run ends cancelled and the step is asked again on resume', async () => {
    const store = createMemoryRunStore();
    let withdrawn = false;
    const waiting = answeringInteraction({
      manual: (_request, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            withdrawn = true;
            reject(signal.reason as Error);
          }),
        ),
    });
    const handle = runPlan(plan(), { store, clock: clock(), stepRunner, interaction: waiting, idSource: () => 'm5' });
    while (handle.state().steps['S002']?.status !== 'awaiting_user') await new Promise((resolve) => setImmediate(resolve));
    handle.cancel('Stop, please.');
    const cancelled = await handle.result;
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(withdrawn, "the interaction's signal is aborted, so the editor takes the prompt away");
    assert.notEqual(cancelled.steps['S002']?.status, 'completed');
    const again = answeringInteraction({ manual: () => ({ done: true }) });
    const resumed = await resumeRun('m5', { store, clock: clock(), stepRunner, interaction: again }).result;
    assert.equal(resumed.status, 'completed');
    assert.equal(resumed.results['S002'], 'Done by you.');
    assert.deepEqual(again.asked, [{ kind: 'manual', stepId: 'S002' }]);
  });

  it('answers are bound like any other: by the request id of the manual request; an approval given for it is not used', async () => {
    const store = createMemoryRunStore();
    const first = await runPlan(plan(), { store, clock: clock(), stepRunner, idSource: () => 'm6' }).result;
    const request = first.pending?.[0];
    assert.match(request?.id ?? '', /^S002@[0-9a-f]{12}$/);
    const wrongKind = await resumeRun('m6', { store, clock: clock(), stepRunner, approvals: { S002: true } }).result;
    assert.equal(wrongKind.status, 'waiting', 'an approval does not mark a manual step done');
    assert.match(wrongKind.metadata.warnings.join('\n'), /step S002 waits for you to do it \(done or failed\)/);
    const byId = await resumeRun('m6', { store, clock: clock(), stepRunner, manual: { [request!.id]: { done: true, note: 'by its id' } } }).result;
    assert.equal(byId.status, 'completed');
    assert.equal(byId.results['S002'], 'by its id');
  });
});
