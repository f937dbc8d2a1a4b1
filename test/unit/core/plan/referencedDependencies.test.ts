import assert from 'node:assert/strict';
import { parsePlan } from '../../../../src/core/plan/parsePlan';
import type { Plan } from '../../../../src/core/plan/planSchema';

function parsed(raw: unknown): { plan: Plan; warnings: string[] } {
  const result = parsePlan(raw);
  assert.ok(result.ok, result.ok ? '' : result.errors.join('\n'));
  return { plan: result.plan, warnings: result.warnings };
}
const depsOf = (plan: Plan) => Object.fromEntries(plan.steps.map((step) => [step.id, step.dependsOn]));

describe('parsePlan: a step that uses another\'s result runs after it', () => {
  it('adds the dependency a "$<id>" argument, a path into it or a placeholder implies, and says so', () => {
    const { plan, warnings } = parsed({
      steps: [
        { id: 'step_1', tool: 'read_file', args: { path: 'data.json' } },
        { id: 'step_2', tool: 'write_file', args: { path: 'processed.json', content: '$step_1' } },
        { id: 'step_3', tool: 'run_command', args: { argv: ['echo', '$step_1.content', '{{results.step_2.path}}'] } },
        { id: 'step_4', input: 'Summarise {{results.step_3}}', dependsOn: ['step_3'] },
      ],
    });
    assert.deepEqual(depsOf(plan), { step_1: [], step_2: ['step_1'], step_3: ['step_1', 'step_2'], step_4: ['step_3'] });
    assert.deepEqual(warnings, [
      'Step "step_2" uses the result of "step_1", so it now runs after it (added to its dependsOn).',
      'Step "step_3" uses the result of "step_1", "step_2", so it now runs after them (added to its dependsOn).',
    ]);
  });

  it('finds a dotted id by its longest prefix, ignores a reference to no step, and adds no edge to itself or that would close a cycle, saying why', () => {
    const { plan, warnings } = parsed({
      steps: [
        { id: 'v1', input: 'first' },
        { id: 'v1.2', input: 'uses {{results.v1.2.answer}} and {{results.ghost}} and {{results.v1.2}}', dependsOn: [] },
        { id: 'a', tool: 'write_file', args: { path: 'a.txt', content: '$b' } },
        { id: 'b', tool: 'write_file', args: { path: 'b.txt', content: '$a' }, dependsOn: ['a'] },
        { id: 'self', tool: 'write_file', args: { path: 's.txt', content: '$self' } },
      ],
    });
    assert.deepEqual(depsOf(plan), { v1: [], 'v1.2': [], a: [], b: ['a'], self: [] });
    // An outside attack (2026-12-03): such a reference was dropped in silence and stayed verbatim at run time.
    const unresolved = 'so the reference finds no result and stays as written';
    assert.deepEqual(warnings, [
      `Step "v1.2" uses its own result, which it has only once it ended, ${unresolved}.`,
      `Step "a" uses the result of "b", which can only run after it (it depends on "a"), ${unresolved}: let each result flow to steps that run later.`,
      `Step "self" uses its own result, which it has only once it ended, ${unresolved}.`,
    ]);
  });
});
