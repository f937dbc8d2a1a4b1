import assert from 'node:assert/strict';
import { initialRunState, reduceRunEvent } from '../../../../src/core/engine/reduceRunEvent';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { reduceExecutionEvent } from '../../../../src/core/replan/reduceExecutionEvent';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../src/core/tools/tool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { PanelSession } from '../../../../src/core/view/panelSession';
import type { PanelViewModel } from '../../../../src/shared/panelViewModel';
import { makePlan, makeStep } from '../../../support/randomPlans';

const tools = [readFileTool, writeFileTool] as Tool[];
const plan = makePlan([makeStep('A', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, agent: undefined }), makeStep('B', { kind: 'tool', tool: 'read_file', args: { path: 'b.txt' }, agent: undefined, dependsOn: ['A'] })]);

type EventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'runId' | 'seq' | 'time'> : never) : never;

/** Numbers events of `runId` from `firstSeq`, one millisecond apart. */
function events(runId: string, bodies: EventBody[], firstSeq = 1): RunEvent[] {
  return bodies.map((body, index) => ({ ...body, runId, seq: firstSeq + index, time: 1_000 + index }));
}

function runOf(model: PanelViewModel) {
  assert.equal(model.mode, 'run');
  return model.mode === 'run' ? model.run : undefined!;
}

describe('PanelSession', () => {
  it('Regenerate without a model is refused with the reason, which the review shows; the plan stays', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    assert.equal(session.regenerateBlockedReason(), undefined);
    const reason = 'Regenerate needs a model to take your feedback into account.';
    session.setRegenerateBlocked(reason);
    assert.equal(session.regenerateBlockedReason(), reason);
    const model = session.snapshot(0);
    assert.equal(model.mode === 'review' && model.review.regenerateBlockedReason, reason);
    assert.equal(model.mode === 'review' && model.review.steps.length, 2);
    session.setRegenerateBlocked(undefined);
    const offered = session.snapshot(0);
    assert.equal(offered.mode === 'review' && 'regenerateBlockedReason' in offered.review, false);
  });

  it('reviews a plan: edits go through editPlan, refusals say why, every snapshot has the next version', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    assert.equal(session.isReviewing(), true);
    const first = session.snapshot(0);
    assert.equal(first.mode, 'review');
    assert.equal(first.version, 1);
    const edited = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { title: 'Read a.txt first' } });
    assert.equal(edited.ok, true);
    assert.equal(session.currentPlan()?.version, 2);
    const refused = session.applyEdit({ type: 'moveStep', stepId: 'B', toIndex: 0 });
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.error, /dependenc/);
    const second = session.snapshot(0);
    assert.equal(second.version, 2);
    assert.equal(second.mode === 'review' && second.review.steps[0]?.title, 'Read a.txt first');
  });

  it('keeps every version of the plan (edits, Regenerate, going back), and going back makes the next version', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    assert.equal(session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { title: 'Read a.txt first' } }).ok, true);
    // the planner numbered its version from the one it was given: it must not replace the edit
    const regenerated = { ...plan, version: 2, steps: [plan.steps[0]!] };
    session.setRegenerated(regenerated, '  add   tests, and keep the README steps as they were please  ');
    assert.equal(session.currentPlan()?.version, 3);
    const review = (model: PanelViewModel) => (model.mode === 'review' ? model.review : assert.fail(`expected a review, got ${model.mode}`));
    assert.deepEqual(review(session.snapshot(0)).versions, [
      { version: 3, label: 'v3 · regenerated with "add tests, and keep the README steps as…"' },
      { version: 2, label: 'v2 · edited A' },
      { version: 1, label: 'v1 · planned' },
    ]);
    const back = session.restoreVersion(1);
    assert.ok(back.ok);
    assert.equal(back.plan.version, 4);
    assert.deepEqual(back.plan.steps, plan.steps);
    const shown = review(session.snapshot(0));
    assert.deepEqual(shown.steps.map((step) => step.title), plan.steps.map((step) => step.title));
    assert.deepEqual(shown.versions.map((version) => version.label), ['v4 · back to v1', 'v3 · regenerated with "add tests, and keep the README steps as…"', 'v2 · edited A', 'v1 · planned']);
    assert.deepEqual(shown.changes && [shown.changes.fromVersion, shown.changes.toVersion, shown.changes.added], [3, 4, ['B']]);
    // the edited version is still there after going back
    const edited = session.restoreVersion(2);
    assert.ok(edited.ok);
    assert.equal(edited.plan.steps[0]!.title, 'Read a.txt first');
    assert.deepEqual(session.restoreVersion(5), { ok: false, error: 'Version 5 is the one shown.' });
    assert.deepEqual(session.restoreVersion(9), { ok: false, error: 'There is no version 9 of this plan: pick one of 5, 4, 3, 2, 1.' });
    session.setPlan({ ...plan, id: 'other' });
    assert.deepEqual(review(session.snapshot(0)).versions, [{ version: 1, label: 'v1 · planned' }]);
  });

  it('shows an earlier version picked in the list, read only, until the user goes back to it or returns to the newest (a newcomer\'s trial: the picker showed the newest steps)', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    assert.ok(session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { title: 'Read a.txt first' } }).ok);
    assert.ok(session.applyEdit({ type: 'removeStep', stepId: 'B' }).ok);
    const review = (model: PanelViewModel) => (model.mode === 'review' ? model.review : assert.fail(`expected a review, got ${model.mode}`));
    assert.equal(review(session.snapshot(0)).viewing, undefined);
    assert.deepEqual(session.viewVersion(1), { ok: true });
    const looking = review(session.snapshot(0));
    assert.equal(looking.planVersion, 3, 'the plan under review is still the newest');
    assert.equal(looking.viewing?.version, 1);
    assert.deepEqual(looking.viewing?.steps.map((step) => [step.id, step.title]), plan.steps.map((step) => [step.id, step.title]));
    assert.deepEqual(looking.steps.map((step) => step.title), ['Read a.txt first'], "the plan's own steps stay as they are");
    // The second trial: the earlier version lost its steps' "Based on"; it shows them as the plan does.
    const grounded = new PanelSession('s2', tools);
    grounded.setPlan({ ...plan, steps: plan.steps.map((step) => ({ ...step, basedOn: ['src/cli.js'] })) });
    assert.ok(grounded.applyEdit({ type: 'removeStep', stepId: 'B' }).ok);
    assert.deepEqual(grounded.viewVersion(1), { ok: true });
    assert.deepEqual(review(grounded.snapshot(0)).viewing?.steps.map((step) => step.basedOn), ['src/cli.js', 'src/cli.js']);
    // Start and edits act on the plan under review: the newest, never the one looked at.
    assert.equal(session.currentPlan()?.version, 3);
    assert.deepEqual(session.viewVersion(undefined), { ok: true });
    assert.equal(review(session.snapshot(0)).viewing, undefined);
    assert.deepEqual(session.viewVersion(3), { ok: true }, 'the newest is shown as the plan itself');
    assert.equal(review(session.snapshot(0)).viewing, undefined);
    assert.deepEqual(session.viewVersion(9), { ok: false, error: 'There is no version 9 of this plan: pick one of 3, 2, 1.' });
    // Going back to it, or any change of the plan, shows the plan under review again.
    session.viewVersion(2);
    assert.ok(session.restoreVersion(2).ok);
    assert.equal(review(session.snapshot(0)).viewing, undefined);
    session.viewVersion(1);
    assert.ok(session.applyEdit({ type: 'skipStep', stepId: 'A' }).ok);
    assert.equal(review(session.snapshot(0)).viewing, undefined);
  });

  it('does not go back to another version while Regenerate is under way or once the plan runs', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    session.applyEdit({ type: 'skipStep', stepId: 'B' });
    session.setRegenerating(true);
    assert.deepEqual(session.restoreVersion(1), { ok: false, error: 'Wait until Regenerate is done, then pick the version.' });
    session.setRegenerating(false);
    session.showRun(initialRunState('run-1'), true);
    assert.deepEqual(session.restoreVersion(1), { ok: false, error: 'Only a plan under review can go back to an earlier version; plan again to change it.' });
  });

  it('shows the states the runner folded, numbers output chunks, and takes no state once the execution ended', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    session.showRun(initialRunState('run-1'), true);
    assert.equal(session.isReviewing(), false);
    assert.equal(session.isFollowingRun(), true);
    let state = initialRunState('run-1');
    const chunks = events('run-1', [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_output', stepId: 'A', text: 'hello ' },
      { type: 'step_output', stepId: 'A', text: 'world' },
    ]).map((event) => session.updateRun(event, (state = reduceRunEvent(state, event))));
    assert.deepEqual(chunks.slice(2).map((chunk) => chunk?.seq), [1, 2]);
    const run = runOf(session.snapshot(5));
    assert.equal(run.steps.find((step) => step.id === 'A')?.status, 'running');
    assert.deepEqual(session.outputResync(), { type: 'outputResync', runId: 'run-1', seq: 2, tails: { A: 'hello world' } });
    assert.equal(session.applyEdit({ type: 'skipStep', stepId: 'B' }).ok, false, 'a running plan cannot be edited');
    session.endRun();
    assert.equal(session.isFollowingRun(), false);
    const later = reduceRunEvent(state, events('run-1', [{ type: 'step_completed', stepId: 'A', result: 'x' }], 5)[0]!);
    assert.equal(session.updateRun(events('run-1', [{ type: 'step_output', stepId: 'A', text: '!' }], 6)[0]!, later), undefined);
    assert.equal(runOf(session.snapshot(6)).steps.find((step) => step.id === 'A')?.status, 'running', 'a state after the end is not shown');
  });

  it("starts a step's next attempt under a line naming it in its output, so two attempts do not run together (a trial)", () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    session.showRun(initialRunState('run-1'), true);
    let state = initialRunState('run-1');
    const chunks = events('run-1', [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_output', stepId: 'A', text: 'first try' },
      { type: 'step_failed', stepId: 'A', attempt: 1, error: 'no', disposition: 'retry', retryInMs: 0 },
      { type: 'step_started', stepId: 'A', attempt: 2 },
      { type: 'step_output', stepId: 'A', text: 'second try' },
      { type: 'step_started', stepId: 'B', attempt: 2 },
    ]).map((event) => session.updateRun(event, (state = reduceRunEvent(state, event))));
    assert.deepEqual(chunks.map((chunk) => chunk?.seq), [undefined, undefined, 1, undefined, 2, 3, undefined], 'none for a step with no output yet');
    assert.deepEqual(session.outputResync()?.tails, { A: 'first try\n── attempt 2 ──\nsecond try' });
  });

  // A trial (2026-12-07): read again after a reload, a failed step said "No output: failed." while its output was journaled.
  it('shows a stored run\'s output from its journals\' events, attempts apart, and only for the run it shows and does not follow', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(plan);
    const stored = events('run-1', [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_output', stepId: 'A', text: 'first try' },
      { type: 'step_started', stepId: 'A', attempt: 2 },
      { type: 'step_output', stepId: 'A', text: 'second try' },
    ]);
    session.showRun(initialRunState('run-1'), false);
    assert.equal(session.storedOutput('run-2', stored), undefined, 'another run than the one shown');
    assert.deepEqual(session.storedOutput('run-1', stored)?.tails, { A: 'first try\n── attempt 2 ──\nsecond try' });
    assert.deepEqual(session.storedOutput('run-1', stored)?.tails, { A: 'first try\n── attempt 2 ──\nsecond try' }, 'read twice, said once');
    session.showRun(initialRunState('run-1'), true);
    assert.equal(session.storedOutput('run-1', stored), undefined, 'a run followed live has its output from its events');
  });

  it('follows a repair run through the state the runner gives, whatever its id', () => {
    const session = new PanelSession('s1', tools);
    const first = reduceExecutionEvent(undefined, events('run-7', [{ type: 'run_started', plan }])[0]!);
    session.showRun(first, true);
    const repair = reduceExecutionEvent(first, events('run-7-replan-1', [{ type: 'run_started', plan }])[0]!);
    session.updateRun(events('run-7-replan-1', [{ type: 'run_started', plan }])[0]!, repair);
    assert.equal(session.runId(), 'run-7-replan-1');
    assert.equal(session.isFollowingRun(), true);
  });

  it('joins a run already going from its snapshot, without the events before it', () => {
    const sofar = events('run-9', [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'A', attempt: 1 },
      { type: 'step_completed', stepId: 'A', result: 'contents of a' },
    ]).reduce(reduceRunEvent, initialRunState('run-9'));
    const session = new PanelSession('s1', tools);
    session.showRun(sofar, true);
    assert.equal(session.isRunning(), true);
    assert.equal(session.currentPlan()?.id, plan.id);
    const next = { type: 'step_started', stepId: 'B', attempt: 1, runId: 'run-9', seq: 4, time: 2_000 } as const;
    session.updateRun(next, reduceRunEvent(sofar, next));
    const run = runOf(session.snapshot(2_500));
    assert.deepEqual(
      run.steps.map((step) => [step.id, step.status]),
      [
        ['A', 'completed'],
        ['B', 'running'],
      ],
    );
  });

  it('shows a finished run without following it', () => {
    const session = new PanelSession('s1', tools);
    session.showRun(reduceRunEvent(initialRunState('run-2'), events('run-2', [{ type: 'run_started', plan }])[0]!), false);
    assert.equal(session.isFollowingRun(), false);
    assert.equal(session.currentPlan()?.id, plan.id);
    session.setPlan(plan);
    assert.equal(session.isReviewing(), true);
  });

  it('blocks Start while a run goes on and when there is no plan', () => {
    const session = new PanelSession('s1', tools);
    assert.match(session.startBlockedReason() ?? '', /no plan/);
    session.setPlan(plan);
    assert.equal(session.startBlockedReason(), undefined);
    session.showRun(reduceRunEvent(initialRunState('run-3'), events('run-3', [{ type: 'run_started', plan }])[0]!), true);
    assert.notEqual(session.startBlockedReason(), undefined);
  });

  it('reviews as Start validates: wrong tool arguments block Start and show on their step with the fix', () => {
    const session = new PanelSession('s1', tools);
    session.setPlan(makePlan([makeStep('A', { kind: 'tool', tool: 'read_file', args: { file: 'a.txt' }, agent: undefined })]));
    const model = session.snapshot(0);
    assert.ok(model.mode === 'review');
    assert.match(model.review.steps[0]!.problems.join('\n'), /^Error: Step "A": arguments for "read_file" are invalid: .*"read_file" takes: path \(required\), startLine, endLine\.$/);
    assert.match(session.startBlockedReason() ?? '', /Fix the error first/);
    assert.ok(model.review.findings.some((finding) => finding.check === 'invalid_args' && finding.name === 'Wrong tool arguments' && finding.blocking === true));
    assert.ok(model.review.score <= 3);
    const fixed = session.applyEdit({ type: 'updateStep', stepId: 'A', patch: { args: { path: 'a.txt' } } });
    assert.equal(fixed.ok, true);
    assert.equal(session.startBlockedReason(), undefined);
  });
});
