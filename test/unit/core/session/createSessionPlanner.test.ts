import assert from 'node:assert/strict';
import { createSessionPlanner } from '../../../../src/core/session/createSessionPlanner';
import type { SessionPlan } from '../../../../src/core/session/sessionPlan';
import { ToolValidationError } from '../../../../src/core/session/toolValidationError';

describe('createSessionPlanner', () => {
  it('keeps the latest snapshot, notifies listeners, and leaves it untouched on a refusal', () => {
    const planner = createSessionPlanner();
    const seen: number[] = [];
    const unsubscribe = planner.onChange((plan) => seen.push(plan.version));
    assert.equal(planner.current(), undefined);
    assert.throws(() => planner.readPlan(), ToolValidationError);
    planner.setupPlan({ objective: 'Fix the bug', initialSteps: [{ title: 'Reproduce' }, { title: 'Fix' }] });
    const before = planner.current();
    assert.throws(() => planner.markStep({ stepId: 'S404', status: 'done' }), /There is no step "S404"/);
    assert.equal(planner.current(), before);
    planner.markStep({ stepId: 'S001', status: 'done', note: 'fails on empty input' });
    unsubscribe();
    planner.addStep({ steps: [{ title: 'Add a test' }] });
    assert.deepEqual(seen, [1, 2]);
    const read = planner.readPlan();
    assert.equal(read.plan, planner.current());
    assert.equal(read.message, ['Current plan (active, 3 steps, 1 done): Fix the bug', '- S001 [done] Reproduce', '  note: fails on empty input', '- S002 [pending] Fix', '- S003 [pending] Add a test'].join('\n'));
  });

  it('resumes from a saved snapshot with ids continuing', () => {
    const saved: SessionPlan = { objective: 'o', status: 'active', version: 4, steps: [{ id: 'S001', title: 'a', status: 'done', notes: [] }, { id: 'S005', title: 'b', status: 'pending', notes: [] }] };
    const planner = createSessionPlanner(JSON.parse(JSON.stringify(saved)) as SessionPlan);
    assert.equal(planner.addStep({ steps: [{ title: 'c' }] }).message, 'Added 1 step: S006.');
    assert.equal(planner.setupPlan({ objective: 'new', initialSteps: [{ title: 'x' }] }).plan.steps[0]?.id, 'S001');
  });
});
