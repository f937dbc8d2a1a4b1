import assert from 'node:assert/strict';
import { addSteps, clearPlan, markStep, nextNumber, setupPlan, updateStep } from '../../../../src/core/session/sessionPlan';
import type { SessionPlan } from '../../../../src/core/session/sessionPlan';
import { ToolValidationError } from '../../../../src/core/session/toolValidationError';

const refused = (fn: () => unknown, message: RegExp) => assert.throws(fn, (error: unknown) => error instanceof ToolValidationError && message.test(error.message));
const base = () => setupPlan({ objective: '  Ship the release  ', initialSteps: [{ title: ' Build ' }, { title: 'Test', details: '  run all suites ' }, { title: 'Tag', details: '   ' }] }).plan;

describe('session plan reducers', () => {
  it('sets up a plan with trimmed text, S### ids and blank details dropped', () => {
    const result = setupPlan({ objective: '  Ship the release  ', initialSteps: [{ title: ' Build ' }, { title: 'Test', details: '  run all suites ' }, { title: 'Tag', details: '   ' }] });
    assert.deepEqual(result.plan, {
      objective: 'Ship the release',
      status: 'active',
      version: 1,
      steps: [
        { id: 'S001', title: 'Build', status: 'pending', notes: [] },
        { id: 'S002', title: 'Test', details: 'run all suites', status: 'pending', notes: [] },
        { id: 'S003', title: 'Tag', status: 'pending', notes: [] },
      ],
    });
    assert.ok(!('details' in (result.plan.steps[2] as object)));
    assert.equal(result.message, 'Plan set up with 3 steps (S001-S003): Ship the release');
    assert.equal(setupPlan({ objective: 'x' }).message, 'Plan set up with no steps yet: x');
  });

  it('returns frozen snapshots and never changes an earlier one', () => {
    const first = base();
    const second = markStep(first, { stepId: 'S001', status: 'done' }).plan;
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.steps) && Object.isFrozen(first.steps[0]) && Object.isFrozen(first.steps[0]?.notes));
    assert.equal(first.steps[0]?.status, 'pending');
    assert.equal(second.steps[0]?.status, 'done');
    assert.equal(second.version, 2);
    assert.equal(second.steps[1], first.steps[1]);
  });

  it('enforces length limits (objective 1-240, title 1-160, details and notes up to 512), counting characters', () => {
    assert.equal(setupPlan({ objective: 'o'.repeat(240), initialSteps: [{ title: 't'.repeat(160), details: 'd'.repeat(512) }] }).plan.objective.length, 240);
    refused(() => setupPlan({ objective: 'o'.repeat(241) }), /^objective is 241 characters long; the limit is 240. Shorten it.$/);
    refused(() => setupPlan({ objective: '   ' }), /^objective is empty; give 1 to 240 characters. Nothing was changed.$/);
    refused(() => setupPlan({ objective: 'x', initialSteps: [{ title: 't'.repeat(161) }] }), /^initialSteps\[0\]\.title is 161 characters long; the limit is 160/);
    refused(() => setupPlan({ objective: 'x', initialSteps: [{ title: 'ok' }, { title: '' }] }), /^initialSteps\[1\]\.title is empty/);
    refused(() => setupPlan({ objective: 'x', initialSteps: [{ title: 't', details: 'd'.repeat(513) }] }), /^initialSteps\[0\]\.details is 513 characters long; the limit is 512/);
    refused(() => markStep(base(), { stepId: 'S001', status: 'done', note: 'n'.repeat(513) }), /^note is 513 characters long; the limit is 512/);
  });

  it('requires ASCII, checking the length first', () => {
    refused(() => setupPlan({ objective: 'Caf\u00e9 menu' }), /^objective must be plain ASCII; replace "\u00e9" \(U\+00E9\) with ASCII characters.$/);
    refused(() => setupPlan({ objective: '\u00e9'.repeat(241) }), /^objective is 241 characters long/);
    refused(() => setupPlan({ objective: 'x', initialSteps: [{ title: 'Use \u201cquotes\u201d' }] }), /^initialSteps\[0\]\.title must be plain ASCII; replace "\u201c"/);
    refused(() => addSteps(base(), { steps: [{ title: 'ok', details: '\u{1f600}' }] }), /^steps\[0\]\.details must be plain ASCII/);
    refused(() => updateStep(base(), { stepId: 'S001', title: 'na\u00efve' }), /^title must be plain ASCII/);
    refused(() => markStep(base(), { stepId: 'S001', status: 'done', note: '\u2014' }), /^note must be plain ASCII/);
    assert.equal([...'\u{1f600}'].length, 1);
    refused(() => setupPlan({ objective: '\u{1f600}'.repeat(240) + 'x' }), /is 241 characters long/);
  });

  it('adds steps with ids continuing after the highest, also after removals', () => {
    const added = addSteps(base(), { steps: [{ title: 'Announce' }, { title: 'Celebrate', details: 'cake' }] });
    assert.deepEqual(added.plan.steps.map((step) => step.id), ['S001', 'S002', 'S003', 'S004', 'S005']);
    assert.equal(added.message, 'Added 2 steps: S004, S005.');
    const withGap: SessionPlan = { ...base(), steps: [{ id: 'S001', title: 'a', status: 'done', notes: [] }, { id: 'S007', title: 'b', status: 'pending', notes: [] }] };
    assert.deepEqual(addSteps(withGap, { steps: [{ title: 'c' }] }).plan.steps.map((step) => step.id), ['S001', 'S007', 'S008']);
    const lastRemoved: SessionPlan = { ...base(), steps: [{ id: 'S002', title: 'b', status: 'pending', notes: [] }] };
    assert.equal(addSteps(lastRemoved, { steps: [{ title: 'c' }] }).plan.steps.at(-1)?.id, 'S003');
    assert.equal(nextNumber([{ id: 'S999', title: 'x', status: 'pending', notes: [] }, { id: 'custom', title: 'y', status: 'pending', notes: [] }]), 1000);
  });

  it('restarts ids at S001 after a new setup', () => {
    const grown = addSteps(base(), { steps: [{ title: 'More' }] }).plan;
    assert.equal(grown.steps.at(-1)?.id, 'S004');
    assert.deepEqual(setupPlan({ objective: 'Next task', initialSteps: [{ title: 'First' }] }).plan.steps.map((step) => step.id), ['S001']);
  });

  it('refuses calls with no plan', () => {
    for (const call of [
      () => addSteps(undefined, { steps: [{ title: 'x' }] }),
      () => updateStep(undefined, { stepId: 'S001', title: 'x' }),
      () => markStep(undefined, { stepId: 'S001', status: 'done' }),
      () => clearPlan(undefined),
    ]) {
      refused(call, /^There is no session plan yet; call planning_setup_plan with an objective and steps first.$/);
    }
  });

  it('refuses an empty add', () => {
    refused(() => addSteps(base(), { steps: [] }), /^Give at least one step to add \(each with a title\); nothing was added.$/);
  });

  it('updates title and details, and refuses an update that changes nothing', () => {
    const updated = updateStep(base(), { stepId: 'S002', title: 'Test everything', details: '' });
    assert.deepEqual(updated.plan.steps[1], { id: 'S002', title: 'Test everything', status: 'pending', notes: [] });
    assert.equal(updated.message, 'Updated S002.');
    assert.equal(updateStep(base(), { stepId: 's001', details: 'with esbuild' }).plan.steps[0]?.details, 'with esbuild');
    refused(() => updateStep(base(), { stepId: 'S001' }), /^Nothing to update for S001: give a new title or new details.$/);
    refused(() => updateStep(base(), { stepId: 'S002', title: ' Test ', details: 'run all suites' }), /^Nothing to update for S002: the title and details given are the same as now.$/);
  });

  it('refuses blank and unknown ids, listing the existing ones', () => {
    refused(() => updateStep(base(), { stepId: '  ', title: 'x' }), /^stepId is blank; give the id of a step, such as S001.$/);
    refused(() => markStep(base(), { stepId: '', status: 'done' }), /^stepId is blank/);
    refused(() => markStep(base(), { stepId: 'S009', status: 'done' }), /^There is no step "S009". Existing steps: S001, S002, S003.$/);
    refused(() => updateStep(base(), { stepId: 'S4', title: 'x' }), /^There is no step "S4"/);
  });

  it('refuses adding to or updating a non-active plan', () => {
    const completed = ['S001', 'S002', 'S003'].reduce((plan, stepId) => markStep(plan, { stepId, status: 'done' }).plan, base());
    assert.equal(completed.status, 'completed');
    refused(() => addSteps(completed, { steps: [{ title: 'x' }] }), /^The plan is completed; steps can only be added to an active plan. To continue, mark a step back to re-open it/);
    refused(() => updateStep(completed, { stepId: 'S001', title: 'x' }), /^The plan is completed; steps can only be updated in an active plan/);
    const abandoned = clearPlan(base()).plan;
    refused(() => addSteps(abandoned, { steps: [{ title: 'x' }] }), /^The plan is abandoned; steps can only be added to an active plan. To continue, call planning_setup_plan/);
    refused(() => updateStep(abandoned, { stepId: 'S001', title: 'x' }), /^The plan is abandoned/);
  });

  it('marks steps with notes, completes the plan when all are done and re-opens it when one is marked back', () => {
    let plan = markStep(base(), { stepId: 'S001', status: 'in_progress', note: '  started  ' }).plan;
    plan = markStep(plan, { stepId: 'S001', status: 'done', note: 'built in 3s' }).plan;
    refused(() => markStep(plan, { stepId: 'S002', status: 'blocked', note: '   ' }), /^note is empty; leave the note out, or give 1 to 512 characters\. Nothing was changed\.$/);
    plan = markStep(plan, { stepId: 'S002', status: 'blocked' }).plan;
    assert.deepEqual(plan.steps[0]?.notes, ['started', 'built in 3s']);
    assert.deepEqual(plan.steps[1]?.notes, []);
    plan = markStep(plan, { stepId: 'S002', status: 'done' }).plan;
    const last = markStep(plan, { stepId: 'S003', status: 'done' });
    assert.equal(last.plan.status, 'completed');
    assert.equal(last.message, 'S003 marked done. Every step is done: the plan is completed.');
    const reopened = markStep(last.plan, { stepId: 'S002', status: 'in_progress' });
    assert.equal(reopened.plan.status, 'active');
    assert.equal(reopened.message, 'S002 marked in_progress. The plan is active again.');
    refused(() => markStep(plan, { stepId: 'S001', status: 'finished' as never }), /^"finished" is not a step status; use one of pending, in_progress, blocked, done.$/);
  });

  it('clears to an abandoned plan with no steps, refusing to mark on it or clear it again', () => {
    const cleared = clearPlan(base());
    assert.deepEqual([cleared.plan.status, cleared.plan.steps.length, cleared.message], ['abandoned', 0, 'Plan cleared: it is abandoned and has no steps.']);
    refused(() => markStep(cleared.plan, { stepId: 'S001', status: 'done' }), /^The plan was abandoned; steps can no longer be marked. Call planning_setup_plan to start a new plan.$/);
    refused(() => clearPlan(cleared.plan), /^The plan is already abandoned; call planning_setup_plan to start a new one.$/);
    assert.equal(clearPlan(markStep(markStep(markStep(base(), { stepId: 'S001', status: 'done' }).plan, { stepId: 'S002', status: 'done' }).plan, { stepId: 'S003', status: 'done' }).plan).plan.status, 'abandoned');
  });
});
