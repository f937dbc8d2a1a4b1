import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import { chatEventMarkdown, chatSummaryMarkdown } from '../../../../src/core/view/chatMarkdown';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { planMarkdown } from '../../../../src/core/view/planMarkdown';
import { planTreeModel } from '../../../../src/core/view/planTreeModel';
import { runListModel } from '../../../../src/core/view/runListModel';
import { runSummary } from '../../../../src/core/view/runSummary';
import { runStatusLabel } from '../../../../src/shared/runStatusLabels';
import { summaryText } from '../../../../src/cli/summaryText';
import { stepDot } from '../../../../webview/formatting';
import { makePlan, makeStep } from '../../../support/randomPlans';

// The trial's natural plan: run the tests (onFailure skip), then fix what fails from their output.
const plan = makePlan([
  makeStep('test', { title: 'Run the tests', onFailure: 'skip' }),
  makeStep('fix', { title: 'Fix the failure', dependsOn: ['test'], input: 'fix {{results.test}}' }),
  makeStep('notes', { title: 'Write release notes', skipped: true }),
]);

function stateOf(bodies: RunEventBody[]): RunState {
  return foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-1', index + 1, 1_000_000 + index * 1000)));
}

const partial = stateOf([
  { type: 'run_started', plan },
  { type: 'step_skipped', stepId: 'notes', reason: 'skipped in the plan', cause: 'plan' },
  { type: 'step_started', stepId: 'test', attempt: 1 },
  { type: 'step_failed', stepId: 'test', attempt: 1, error: 'Command pytest -q exited with code 1: the tests ran and some failed.', disposition: 'skip' },
  { type: 'step_skipped', stepId: 'fix', reason: 'dependency test was skipped', cause: 'dependency' },
  { type: 'run_completed' },
]);

describe('a run that went to its end with steps not done, in every view', () => {
  it('the summary says "finished with 1 failed step and 1 skipped", lists the failure and marks the failed step failed', () => {
    const summary = runSummary(partial);
    assert.equal(partial.status, 'partial');
    assert.equal(summary.headline, 'finished with 1 failed step and 1 skipped in 5.0 s: 0 of 3 steps completed, 1 skipped as planned.');
    assert.deepEqual(summary.notDone, { failed: ['test'], rejected: [], skipped: ['fix'] });
    assert.deepEqual(
      summary.steps.map((step) => [step.id, step.status, step.line]),
      [
        ['test', 'failed', 'failed (did not stop the run): Command pytest -q exited with code 1: the tests ran and some failed.'],
        ['fix', 'skipped', 'skipped: dependency test was skipped'],
        ['notes', 'skipped', 'skipped in the plan'],
      ],
    );
    assert.deepEqual(summary.failures.map((failure) => failure.stepId), ['test']);
    assert.deepEqual(summary.progress, { total: 3, completed: 0, failed: 1, rejected: 0, skipped: 2, notNeeded: 0, doneInSource: 0 });
  });

  it('the chat and the command line say it, never "completed"', () => {
    const chat = chatSummaryMarkdown(runSummary(partial));
    assert.match(chat, /finished with 1 failed step and 1 skipped/);
    assert.match(chat, /- ✗ Run the tests/);
    assert.doesNotMatch(chat, /completed in/);
    const lines = summaryText(runSummary(partial));
    assert.equal(lines[0], 'Run run-1 finished with 1 failed step and 1 skipped in 5.0 s: 0 of 3 steps completed, 1 skipped as planned.');
    assert.match(lines.join('\n'), /^ {2}✘ test Run the tests: failed \(did not stop the run\)/m);
    // The headline counts what is not done and each step's line says it: a reason listing them again would be a third time.
    assert.equal(runSummary(partial).reason, undefined);
    assert.doesNotMatch(lines.join('\n'), /Reason:/);
    assert.doesNotMatch(chat, /Step test failed; step fix was skipped/);
  });

  it('the panel, the Runs view, the Plan tree and the Markdown checklist tell it apart from a completed run', () => {
    const body = buildPanelViewModel(undefined, { state: partial, now: 2_000_000 });
    assert.ok(body.mode === 'run');
    assert.equal(body.run.status, 'partial');
    assert.deepEqual(body.run.progress, { total: 3, completed: 0, failed: 1, rejected: 0, skipped: 2, notNeeded: 0, doneInSource: 0 });
    assert.equal(body.run.summary?.status, 'partial');
    const [row] = runListModel([{ state: partial, updatedAt: 0, active: false, undone: false, undoable: false }], () => 'now');
    // Not one step completed: "partly done" told a newcomer that some of it was (a trial of 2026-12-06).
    assert.equal(row?.description, 'nothing done · 0/3 · now');
    assert.equal(row?.icon, 'warning');
    assert.equal(row?.contextValue, 'run.partial');
    const [test] = planTreeModel(plan, 'flat', partial);
    assert.equal(test?.icon, 'error');
    assert.match(test?.description ?? '', /failed \(did not stop the run\)/);
    assert.equal(body.run.summary?.reason, undefined, 'the panel shows the headline, not a reason that repeats it');
    assert.equal(test?.contextValue, 'step.agent.skipped', 'menus still see the step status');
    const markdown = planMarkdown(plan, partial);
    assert.match(markdown, /· run nothing done_/);
    assert.match(markdown, /\*\*test\*\* Run the tests \(agent: default\) — failed/);
  });

  it('a run with some steps completed and some not reads "partly done" in the Runs view and the checklist; one with none, "nothing done"', () => {
    const some = stateOf([
      { type: 'run_started', plan },
      { type: 'step_skipped', stepId: 'notes', reason: 'skipped in the plan', cause: 'plan' },
      { type: 'step_started', stepId: 'test', attempt: 1 },
      { type: 'step_completed', stepId: 'test', result: 'red' },
      { type: 'step_started', stepId: 'fix', attempt: 1 },
      { type: 'step_failed', stepId: 'fix', attempt: 1, error: 'could not fix', disposition: 'skip' },
      { type: 'run_completed' },
    ]);
    assert.equal(some.status, 'partial');
    const [row] = runListModel([{ state: some, updatedAt: 0, active: false, undone: false, undoable: false }], () => 'now');
    assert.equal(row?.description, 'partly done · 1/3 · now');
    assert.match(planMarkdown(plan, some), /· run partly done_/);
    assert.equal(runStatusLabel('partial', []), 'nothing done');
    assert.equal(runStatusLabel('failed', []), 'failed', 'only a partial run reads otherwise with no step completed');
    assert.equal(runStatusLabel('partial', [{ status: 'failed' }, { status: 'completed' }]), 'partly done');
  });

  it('a run whose only skips are as planned is completed, and says so', () => {
    const done = stateOf([
      { type: 'run_started', plan },
      { type: 'step_skipped', stepId: 'notes', reason: 'skipped in the plan', cause: 'plan' },
      { type: 'step_started', stepId: 'test', attempt: 1 },
      { type: 'step_completed', stepId: 'test', result: 'green' },
      { type: 'step_started', stepId: 'fix', attempt: 1 },
      { type: 'step_completed', stepId: 'fix', result: 'nothing to fix' },
      { type: 'run_completed' },
    ]);
    assert.equal(done.status, 'completed');
    assert.match(runSummary(done).headline, /^completed in 6\.0 s: 2 of 3 steps completed, 1 skipped\.$/);
  });

  it('tests green at the first try: the fix is "not needed" in every view and the run completed, never "skipped" or partly done', () => {
    const testAndFix = makePlan([
      makeStep('test', { title: 'Run the tests' }),
      makeStep('fix', { title: 'Fix the failure', dependsOn: ['test'], when: 'depends.test.exitCode !== 0 || "`pytest` passed, nothing to fix"' }),
    ]);
    const reason = '`pytest` passed, nothing to fix';
    const skipped: RunEventBody = { type: 'step_skipped', stepId: 'fix', reason, cause: 'condition' };
    const green = stateOf([
      { type: 'run_started', plan: testAndFix },
      { type: 'step_started', stepId: 'test', attempt: 1 },
      { type: 'step_completed', stepId: 'test', result: { exitCode: 0, stdout: '3 passed', stderr: '' } },
      skipped,
      { type: 'run_completed' },
    ]);
    assert.equal(green.status, 'completed');
    const summary = runSummary(green);
    assert.equal(summary.headline, 'completed in 4.0 s: 1 of 2 steps completed, 1 not needed.');
    assert.deepEqual(summary.steps[1]?.line, 'not needed: `pytest` passed, nothing to fix');
    const lines = summaryText(summary);
    assert.equal(lines[0], 'Run run-1 completed in 4.0 s: 1 of 2 steps completed, 1 not needed.');
    assert.match(lines.join('\n'), /^ {2}↷ fix Fix the failure: not needed: `pytest` passed, nothing to fix$/m);
    assert.match(chatSummaryMarkdown(summary), /Fix the failure — not needed\\: .*pytest.* passed, nothing to fix/);
    assert.equal(chatEventMarkdown(stampEvent(skipped, 'run-1', 4, 0), (id) => id), '- ↷ fix not needed: \\`pytest\\` passed, nothing to fix\n');
    const body = buildPanelViewModel(undefined, { state: green, now: 2_000_000 });
    assert.ok(body.mode === 'run');
    assert.deepEqual(body.run.progress, { total: 2, completed: 1, failed: 0, rejected: 0, skipped: 0, notNeeded: 1, doneInSource: 0 });
    assert.equal(body.run.steps[1]?.statusLabel, 'not needed');
    assert.equal(body.run.steps[0]?.statusLabel, undefined, 'a status that says it all has no label of its own');
    const [row] = runListModel([{ state: green, updatedAt: 0, active: false, undone: false, undoable: false }], () => 'now');
    assert.equal(row?.icon, runListModel([{ state: stateOf([{ type: 'run_started', plan: testAndFix }, { type: 'run_completed' }]), updatedAt: 0, active: false, undone: false, undoable: false }], () => 'now')[0]?.icon);
    const [, fix] = planTreeModel(testAndFix, 'flat', green);
    assert.match(fix?.description ?? '', / · not needed/);
    assert.match(fix?.tooltip ?? '', /Reason: `pytest` passed, nothing to fix/);
    assert.match(planMarkdown(testAndFix, green), /\*\*fix\*\* Fix the failure \(agent: default\) — not needed/);
  });

  it('the headline\'s first count names what it counts, in the plural too, and lists three counts with one "and"', () => {
    const four = makePlan([makeStep('a'), makeStep('b'), makeStep('c'), makeStep('d', { dependsOn: ['c'] }), makeStep('e', { dependsOn: ['c'] })]);
    const ended = (bodies: RunEventBody[]): string => runSummary(stateOf([{ type: 'run_started', plan: four }, ...bodies, { type: 'run_completed' }])).headline;
    const failed = (stepId: string): RunEventBody[] => [
      { type: 'step_started', stepId, attempt: 1 },
      { type: 'step_failed', stepId, attempt: 1, error: 'exit 1', disposition: 'skip' },
    ];
    const skippedAfterC: RunEventBody[] = [
      { type: 'step_skipped', stepId: 'd', reason: 'dependency c was skipped', cause: 'dependency' },
      { type: 'step_skipped', stepId: 'e', reason: 'dependency c was skipped', cause: 'dependency' },
    ];
    assert.match(ended([...failed('a'), ...failed('b'), ...failed('c'), ...skippedAfterC]), /^finished with 3 failed steps and 2 skipped in /);
    assert.match(ended([{ type: 'step_skipped', stepId: 'a', reason: 'Rejected by you', cause: 'rejected' }, { type: 'step_skipped', stepId: 'b', reason: 'Rejected by you', cause: 'rejected' }]),
      /^finished with 2 steps rejected by you in /);
    assert.match(ended([...failed('a'), { type: 'step_skipped', stepId: 'b', reason: 'Rejected by you', cause: 'rejected' }, ...failed('c'), ...skippedAfterC]),
      /^finished with 2 failed steps, 1 rejected by you and 2 skipped in /);
  });

  it('a step whose change the user rejected is said "rejected by you" once, with your reason, never a bare "skipped"', () => {
    const writes = makePlan([makeStep('one', { title: 'Write one.txt' }), makeStep('two', { title: 'Write two.txt' }), makeStep('after', { dependsOn: ['two'] })]);
    const rejected: RunEventBody = { type: 'step_skipped', stepId: 'two', reason: 'Rejected by you: too long', cause: 'rejected' };
    const state = stateOf([
      { type: 'run_started', plan: writes },
      { type: 'step_started', stepId: 'one', attempt: 1 },
      { type: 'step_completed', stepId: 'one', result: 'written' },
      { type: 'step_started', stepId: 'two', attempt: 1 },
      rejected,
      { type: 'step_skipped', stepId: 'after', reason: 'dependency two was rejected', cause: 'dependency' },
      { type: 'run_completed' },
    ]);
    assert.equal(state.status, 'partial');
    assert.equal(state.reason, 'Step two was rejected by you; step after was skipped.');
    const summary = runSummary(state);
    // The headline, read first, counts it; the step's line says it with your reason; nothing says it again.
    assert.equal(summary.headline, 'finished with 1 step rejected by you and 1 skipped in 6.0 s: 1 of 3 steps completed.');
    assert.equal(summary.reason, undefined);
    assert.deepEqual(summary.notDone, { failed: [], rejected: ['two'], skipped: ['after'] });
    // Counted apart in every view's counts too (the panel's, the status bar's, the Runs view's), not as "2 skipped".
    assert.deepEqual(summary.progress, { total: 3, completed: 1, failed: 0, rejected: 1, skipped: 1, notNeeded: 0, doneInSource: 0 });
    assert.equal(summary.steps[1]?.line, 'rejected by you: too long');
    assert.equal(summary.steps[2]?.line, 'skipped: dependency two was rejected');
    const [headline, ...rest] = summaryText(summary);
    assert.match(headline ?? '', /1 step rejected by you/);
    assert.equal(rest.join('\n').match(/rejected by you/g)?.length, 1, rest.join('\n'));
    assert.equal(rest.join('\n').match(/too long/g)?.length, 1, 'your reason is said once, on the step you rejected');
    assert.match(rest.join('\n'), /^ {2}↷ two Write two\.txt: rejected by you: too long$/m);
    const chat = chatSummaryMarkdown(summary);
    assert.match(chat, /Write two\\\.txt — rejected by you\\: too long/);
    assert.equal(chat.match(/rejected by you/g)?.length, 2, 'the headline and the line of the step');
    assert.equal(chatEventMarkdown(stampEvent(rejected, 'run-1', 5, 0), (id) => id), '- ↷ two rejected by you: too long\n');
    // The panel's timeline says it too, and draws it orange, not as a grey "skipped" (a newcomer's trial).
    const panel = buildPanelViewModel(undefined, { state, now: 2_000_000 });
    assert.ok(panel.mode === 'run');
    const bar = panel.run.timeline.bars.find((shown) => shown.stepId === 'two');
    assert.equal(bar?.statusLabel, 'rejected by you');
    assert.equal(bar && stepDot(bar), 'partial');
    assert.equal(panel.run.timeline.bars.find((shown) => shown.stepId === 'one')?.statusLabel, undefined, 'a completed step is said by its status');
    const bare = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('two')]) },
      { type: 'step_skipped', stepId: 'two', reason: 'Rejected by the user', cause: 'rejected' },
      { type: 'run_completed' },
    ]);
    assert.equal(runSummary(bare).steps[0]?.line, 'rejected by you');
    assert.equal(bare.reason, 'Step two was rejected by you.');
  });

  it('a halted run says of a step that failed before or as it halted what is true: it did not stop the run, never that the run went on', () => {
    const halting = makePlan([makeStep('opt', { title: 'Read an optional file', critical: false }), makeStep('must', { title: 'Read a required file' }), makeStep('later', { dependsOn: ['opt', 'must'] })]);
    const halted = stateOf([
      { type: 'run_started', plan: halting },
      { type: 'step_started', stepId: 'opt', attempt: 1 },
      { type: 'step_started', stepId: 'must', attempt: 1 },
      { type: 'step_failed', stepId: 'opt', attempt: 1, error: 'File not found: missing1.txt', disposition: 'skip' },
      { type: 'step_skipped', stepId: 'later', reason: 'dependency opt failed', cause: 'dependency' },
      { type: 'step_failed', stepId: 'must', attempt: 1, error: 'File not found: missing2.txt', disposition: 'fail' },
      { type: 'run_failed', reason: 'Critical step must failed: File not found: missing2.txt' },
    ]);
    assert.equal(halted.status, 'failed');
    const summary = runSummary(halted);
    assert.deepEqual(
      summary.steps.map((step) => [step.id, step.status, step.line]),
      [
        ['opt', 'failed', 'failed (did not stop the run): File not found: missing1.txt'],
        ['must', 'failed', 'failed: File not found: missing2.txt'],
        ['later', 'skipped', 'skipped: dependency opt failed'],
      ],
    );
    const every = [
      summaryText(summary).join('\n'),
      chatSummaryMarkdown(summary),
      planTreeModel(halting, 'flat', halted).map((node) => `${node.description ?? ''}\n${node.tooltip ?? ''}`).join('\n'),
      JSON.stringify(buildPanelViewModel(undefined, { state: halted, now: 2_000_000 })),
    ];
    for (const text of every) assert.doesNotMatch(text, /went on without it/);
    assert.match(planTreeModel(halting, 'flat', halted)[0]?.description ?? '', /failed \(did not stop the run\)/);
  });

  it('a critical step the user rejected fails the run, and the counts say it was rejected, not "0 failed" and skipped', () => {
    const critical = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('one'), makeStep('two', { critical: true }), makeStep('after', { dependsOn: ['two'] })]) },
      { type: 'step_started', stepId: 'one', attempt: 1 },
      { type: 'step_completed', stepId: 'one', result: 'done' },
      { type: 'step_skipped', stepId: 'two', reason: 'Rejected by the user', cause: 'rejected' },
      { type: 'step_skipped', stepId: 'after', reason: 'the run halted', cause: 'halted' },
      { type: 'run_failed', reason: 'Step two was rejected by the user.' },
    ]);
    const summary = runSummary(critical);
    assert.equal(summary.status, 'failed');
    assert.equal(summary.headline, 'failed in 5.0 s: 1 of 3 steps completed, 1 rejected by you, 1 skipped.');
  });
});
