import assert from 'node:assert/strict';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { createPlanEditSession, planReadLimits } from '../../../../src/core/plan/planEditTools';
import { ToolValidationError } from '../../../../src/core/session/toolValidationError';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan: Plan = makePlan(
  [
    makeStep('read', { title: 'Read the code', input: 'Read src/app.ts' }),
    makeStep('fix', { title: 'Fix the bug', dependsOn: ['read'] }),
    makeStep('readme', { title: 'Update the README', dependsOn: ['fix'] }),
  ],
  { objective: 'Fix the login bug', version: 4 },
);

function sessionOf(initial: Plan = plan) {
  const session = createPlanEditSession(initial);
  const tools = new Map(session.tools.map((tool) => [tool.name, tool]));
  const call = async (name: string, input: unknown): Promise<{ message?: string; plan: string }> => {
    const tool = tools.get(name);
    assert.ok(tool, name);
    return (await tool.run(makeToolContext(), tool.inputSchema.parse(input), neverAborted)) as { message?: string; plan: string };
  };
  return { session, tools, call };
}

describe('createPlanEditSession', () => {
  it('offers the plan tools, none of which changes a file or asks approval', () => {
    const { tools } = sessionOf();
    assert.deepEqual([...tools.keys()], ['plan_read_plan', 'plan_remove_step', 'plan_update_step', 'plan_move_step', 'plan_set_dependencies', 'plan_skip_step', 'plan_unskip_step']);
    for (const tool of tools.values()) assert.equal(tool.effects, 'read');
  });

  it('plan_read_plan shows the objective and each step with position, id, kind, title, dependencies and instructions', async () => {
    const { call } = sessionOf();
    assert.equal(
      (await call('plan_read_plan', {})).plan,
      [
        'Objective: Fix the login bug',
        'Version 4, 3 steps:',
        '1. read [agent] Read the code',
        '   Read src/app.ts',
        '2. fix [agent] Fix the bug (after read)',
        '   do fix',
        '3. readme [agent] Update the README (after fix)',
        '   do readme',
      ].join('\n'),
    );
  });

  it('plan_read_plan bounds long titles and instructions and shows a tool step\'s arguments', async () => {
    const long = makePlan([makeStep('t', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, title: 'T'.repeat(5_000), input: undefined })]);
    const text = (await sessionOf(long).call('plan_read_plan', {})).plan;
    assert.ok(text.length < planReadLimits.title + 200, `${text.length} characters`);
    assert.match(text, /1\. t \[tool: read_file\] T+…\n {3}\{"path":"a\.txt"\}$/);
  });

  it('plan_read_plan lists at most planReadLimits.steps steps, counts the rest, and leaves out empty instructions', async () => {
    const many = makePlan(Array.from({ length: planReadLimits.steps + 2 }, (_, index) => makeStep(`s${index}`, { input: index === 0 ? '  ' : `do ${index}` })));
    const text = (await sessionOf(many).call('plan_read_plan', {})).plan;
    assert.match(text, /^Objective: .*\nVersion 1, 202 steps:\n1\. s0 \[agent\] Step s0\n2\. s1 \[agent\] Step s1\n {3}do 1\n/);
    assert.match(text, /\n200\. s199 \[agent\] Step s199\n {3}do 199\n\(2 more steps not shown\)$/);
  });

  it('"drop the README step": removes it through editPlan, a new version, and says what changed', async () => {
    const { session, call } = sessionOf();
    const result = await call('plan_remove_step', { stepId: 'readme' });
    assert.equal(result.message, 'Removed step readme (Update the README).');
    assert.deepEqual(session.plan().steps.map((step) => step.id), ['read', 'fix']);
    assert.equal(session.plan().version, 5);
    assert.deepEqual(session.changes(), ['Removed step readme (Update the README).']);
    assert.match(result.plan, /Version 5, 2 steps/);
    assert.equal(plan.steps.length, 3, 'the plan given is not mutated');
  });

  it('refuses an edit that would break the plan with editPlan\'s reason, changing nothing', async () => {
    const { session, call } = sessionOf();
    await assert.rejects(call('plan_remove_step', { stepId: 'fix' }), (error: unknown) => {
      assert.ok(error instanceof ToolValidationError);
      assert.match(error.message, /cannot be removed: "readme" depend on it/);
      return true;
    });
    await assert.rejects(call('plan_set_dependencies', { stepId: 'read', dependsOn: ['readme'] }), ToolValidationError);
    await assert.rejects(call('plan_remove_step', { stepId: 'nope' }), /There is no step "nope"/);
    assert.equal(session.plan(), plan);
    assert.deepEqual(session.changes(), []);
  });

  it('removes a step others depend on when asked: they then wait for what it waited for', async () => {
    const { session, call } = sessionOf();
    await call('plan_remove_step', { stepId: 'fix', dropDependencies: true });
    assert.deepEqual(session.plan().steps.map((step) => [step.id, step.dependsOn]), [['read', []], ['readme', ['read']]]);
  });

  it('updates a title and instructions; refuses an empty title or nothing to change', async () => {
    const { session, call } = sessionOf();
    assert.equal((await call('plan_update_step', { stepId: 'fix', title: '  Fix the login bug ', input: 'Check the session cookie' })).message, 'Changed step fix (Fix the login bug).');
    assert.deepEqual([session.plan().steps[1]?.title, session.plan().steps[1]?.input], ['Fix the login bug', 'Check the session cookie']);
    await assert.rejects(call('plan_update_step', { stepId: 'fix' }), /Give a new title or new instructions/);
    await assert.rejects(call('plan_update_step', { stepId: 'fix', title: '  ' }), /The title cannot be empty/);
    assert.equal(session.changes().length, 1);
  });

  it('moves by 1-based position, sets dependencies, skips and unskips', async () => {
    const independent = makePlan([makeStep('a'), makeStep('b'), makeStep('c')]);
    const { session, call } = sessionOf(independent);
    assert.equal((await call('plan_move_step', { stepId: 'c', position: 1 })).message, 'Moved step c to position 1.');
    assert.deepEqual(session.plan().steps.map((step) => step.id), ['c', 'a', 'b']);
    await assert.rejects(call('plan_move_step', { stepId: 'c', position: 9 }), /outside the plan/);
    assert.equal((await call('plan_set_dependencies', { stepId: 'b', dependsOn: ['a'] })).message, 'Step b now waits for a.');
    assert.equal((await call('plan_set_dependencies', { stepId: 'b', dependsOn: [] })).message, 'Step b now waits for no step.');
    assert.equal((await call('plan_skip_step', { stepId: 'a' })).message, 'Step a (Step a) will be skipped.');
    assert.equal(session.plan().steps[1]?.skipped, true);
    assert.match((await call('plan_read_plan', {})).plan, /2\. a \[agent\] Step a \(skipped\)/);
    assert.equal((await call('plan_unskip_step', { stepId: 'a' })).message, 'Step a (Step a) will run again.');
    assert.equal(session.plan().steps[1]?.skipped, undefined);
    assert.equal(session.changes().length, 5);
  });

  it('honours a cancelled signal', async () => {
    const { tools } = sessionOf();
    const tool = tools.get('plan_remove_step');
    assert.ok(tool);
    await assert.rejects(tool.run(makeToolContext(), { stepId: 'readme' }, AbortSignal.abort(new Error('stopped'))), /stopped/);
  });
});
