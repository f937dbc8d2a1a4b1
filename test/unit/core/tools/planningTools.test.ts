import assert from 'node:assert/strict';
import { createSessionPlanner } from '../../../../src/core/session/createSessionPlanner';
import { createPlanningTools } from '../../../../src/core/tools/planningTools';
import type { SessionPlan } from '../../../../src/core/session/sessionPlan';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('planning tools', () => {
  const planner = createSessionPlanner();
  const tools = new Map(createPlanningTools(() => planner).map((tool) => [tool.name, tool]));
  const call = async (name: string, input: unknown) => {
    const tool = tools.get(name);
    assert.ok(tool, name);
    const parsed = tool.inputSchema.parse(input);
    return (await tool.run(makeToolContext(), parsed, neverAborted)) as { plan: SessionPlan; message: string };
  };

  it('exposes the six tools, none of which needs approval', () => {
    assert.deepEqual([...tools.keys()], ['planning_setup_plan', 'planning_add_step', 'planning_update_step', 'planning_mark_step', 'planning_clear_plan', 'planning_read_plan']);
    for (const tool of tools.values()) assert.equal(tool.effects, 'read');
  });

  it('drives the planner end to end and returns { plan, message }', async () => {
    assert.equal((await call('planning_setup_plan', { objective: 'Refactor', initialSteps: [{ title: 'Read code' }] })).message, 'Plan set up with 1 step (S001): Refactor');
    assert.equal((await call('planning_add_step', { steps: [{ title: 'Change code', details: 'small commits' }] })).message, 'Added 1 step: S002.');
    assert.equal((await call('planning_update_step', { stepId: 'S002', title: 'Change the code' })).plan.steps[1]?.title, 'Change the code');
    assert.equal((await call('planning_mark_step', { stepId: 'S001', status: 'done' })).plan.steps[0]?.status, 'done');
    assert.match((await call('planning_read_plan', {})).message, /^Current plan \(active, 2 steps, 1 done\): Refactor/);
    assert.equal((await call('planning_clear_plan', {})).plan.status, 'abandoned');
    await assert.rejects(call('planning_clear_plan', {}), /The plan is already abandoned/);
  });

  it('says what it did in counts, and refuses a blank objective or note as empty', async () => {
    assert.equal(
      (await call('planning_setup_plan', { objective: 'Ship', initialSteps: [{ title: 'Build' }, { title: 'Test' }] })).message,
      'Plan set up with 2 steps (S001-S002): Ship',
    );
    assert.equal((await call('planning_add_step', { steps: [{ title: 'Tag' }, { title: 'Announce' }] })).message, 'Added 2 steps: S003, S004.');
    assert.match((await call('planning_read_plan', {})).message, /^Current plan \(active, 4 steps, 0 done\): Ship\n- S001 \[pending\] Build/);
    await call('planning_clear_plan', {});
    assert.match((await call('planning_read_plan', {})).message, /^Current plan \(abandoned, no steps, 0 done\): Ship\n- \(no steps\)$/);
    await assert.rejects(call('planning_setup_plan', { objective: '  \t ' }), /^ToolValidationError: objective is empty; give 1 to 240 characters\. Nothing was changed\.$/);
    await call('planning_setup_plan', { objective: 'Again', initialSteps: [{ title: 'One' }] });
    await assert.rejects(call('planning_mark_step', { stepId: 'S001', status: 'blocked', note: ' ' }), /note is empty; leave the note out, or give 1 to 512 characters/);
    assert.deepEqual((await call('planning_read_plan', {})).plan.steps[0]?.status, 'pending');
  });

  it('refuses bad shapes in the schema and bad content with the planner\'s message', async () => {
    assert.equal(tools.get('planning_mark_step')?.inputSchema.safeParse({ stepId: 'S001', status: 'finished' }).success, false);
    assert.equal(tools.get('planning_add_step')?.inputSchema.safeParse({ steps: [{ title: 'x', priority: 1 }] }).success, false);
    await call('planning_setup_plan', { objective: 'Again' });
    await assert.rejects(call('planning_add_step', { steps: [] }), /Give at least one step to add/);
  });
});
