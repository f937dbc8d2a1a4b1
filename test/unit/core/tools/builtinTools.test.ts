import assert from 'node:assert/strict';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { createSessionPlanner } from '../../../../src/core/session/createSessionPlanner';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const names = [
  'read_file', 'list_files', 'search_text', 'write_file', 'edit_file', 'create_directory', 'delete_file', 'run_command', 'ask_user',
  'planning_setup_plan', 'planning_add_step', 'planning_update_step', 'planning_mark_step', 'planning_clear_plan', 'planning_read_plan',
];

describe('builtinTools', () => {
  it('registers every built-in tool with its effect and an OpenAI definition', () => {
    const registry = createToolRegistry(builtinTools());
    assert.deepEqual(registry.names(), names);
    const effects = Object.fromEntries(registry.list().map((tool) => [tool.name, tool.effects]));
    assert.deepEqual(
      [effects.read_file, effects.write_file, effects.edit_file, effects.delete_file, effects.run_command, effects.ask_user],
      ['read', 'write', 'write', 'delete', 'command', 'interaction'],
    );
    for (const definition of registry.toOpenAiTools()) {
      assert.equal(definition.function.parameters.type, 'object', definition.function.name);
      assert.ok(definition.function.description.length > 20, definition.function.name);
    }
  });

  it('lets validatePlan check tool names and arguments against the registry', () => {
    const step = (id: string, tool: string, args: Record<string, unknown>) => ({
      id, title: id, kind: 'tool' as const, dependsOn: [], tool, args, onFailure: 'stop' as const, maxAttempts: 1, critical: true, onVerificationFailure: 'stop' as const,
    });
    const plan: Plan = {
      id: 'p', version: 1, objective: 'o', createdAt: '2026-01-01T00:00:00.000Z', agents: {},
      steps: [step('a', 'read_file', { path: 'README.md' }), step('b', 'edit_file', { path: 'x', edits: [] }), step('c', 'format_disk', {}), step('d', 'write_file', { path: 'x', content: 'y', approved: true })],
    };
    const diagnostics = validatePlan(plan, { tools: createToolRegistry(builtinTools()) });
    assert.deepEqual(diagnostics.map((d) => `${d.stepId}:${d.code}`), ['b:invalid_args', 'c:unknown_tool', 'd:invalid_args']);
  });

  it('keeps one session plan per run unless given a planner', async () => {
    const tools = builtinTools();
    const setupTool = tools.find((tool) => tool.name === 'planning_setup_plan')!;
    const readTool = tools.find((tool) => tool.name === 'planning_read_plan')!;
    await setupTool.run(makeToolContext({ runId: 'r1' }), { objective: 'one' }, neverAborted);
    await assert.rejects(readTool.run(makeToolContext({ runId: 'r2' }), {}, neverAborted), /There is no session plan yet/);
    assert.ok(await readTool.run(makeToolContext({ runId: 'r1' }), {}, neverAborted));
    const shared = createSessionPlanner();
    await builtinTools({ sessionPlanner: shared }).find((tool) => tool.name === 'planning_setup_plan')!.run(makeToolContext({ runId: 'any' }), { objective: 'shared' }, neverAborted);
    assert.equal(shared.current()?.objective, 'shared');
  });
});
