import assert from 'node:assert/strict';
import { z } from 'zod';
import { parsePlan, type ParsePlanResult } from '../../../../src/core/plan/parsePlan';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import { critiquePlan } from '../../../../src/core/plan/critiquePlan';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { Tool } from '../../../../src/core/tools/tool';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { ManualClock } from '../../../fakes/manualClock';

// Attacks as a hostile model on the plans it writes: nothing may crash, hang, or run what the review did not show.
const tools = createToolRegistry(builtinTools());

function planOf(result: ParsePlanResult): Plan {
  if (!result.ok) assert.fail(`expected a plan, got: ${result.errors.join('; ')}`);
  return result.plan;
}

const echo: Tool<{ value: unknown }> = {
  name: 'echo',
  description: 'returns its args',
  inputSchema: z.object({ value: z.unknown() }),
  effects: 'read',
  run: async (_ctx, input) => input,
};

async function run(plan: Plan) {
  const clock = new ManualClock(0, { autoAdvance: true });
  const events: RunEvent[] = [];
  const handle = runPlan(plan, { idSource: () => 'run-1', clock, tools: [echo], stepRunner: async (step) => `result of ${step.id}` });
  handle.events.subscribe((event) => events.push(event));
  return { result: await handle.result, events };
}

describe('attack: plans a hostile model writes', function () {
  this.timeout(60_000);

  it('__proto__ and constructor keys in a plan and in args pollute no prototype and crash nothing', () => {
    const text = '{"__proto__":{"polluted":1},"steps":[{"id":"a","tool":"read_file","args":{"path":"x","__proto__":{"polluted":2},"constructor":{"prototype":{"polluted":3}}}}]}';
    const parsed = parsePlan(text);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.ok(parsed.ok);
    assert.doesNotThrow(() => critiquePlan(parsed.plan, { tools }));
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  it('step ids that name Object.prototype members (constructor, toString, hasOwnProperty) run as ordinary steps, and results keyed by them are their own', async () => {
    const plan = planOf(
      parsePlan({
        steps: [
          { id: 'constructor', input: 'x' },
          { id: 'toString', tool: 'echo', args: { value: '$constructor' }, dependsOn: ['constructor'] },
          { id: 'hasOwnProperty', tool: 'echo', args: { value: '$valueOf' }, dependsOn: ['toString'] },
        ],
      }),
    );
    const { result } = await run(plan);
    assert.equal(result.status, 'completed');
    const results = new Map(Object.entries(result.results));
    assert.deepEqual(results.get('toString'), { value: 'result of constructor' });
    // `valueOf` is no step: the reference stays verbatim, never Object.prototype.valueOf.
    assert.deepEqual(results.get('hasOwnProperty'), { value: '$valueOf' });
  });

  it('1e309, negative and NaN limits become safe defaults, never Infinity or a crash', () => {
    const plan = planOf(parsePlan('{"steps":[{"id":"a","input":"x","timeoutMs":1e309,"maxAttempts":1e309},{"id":"b","input":"x","timeoutMs":-5,"maxAttempts":-1}]}'));
    for (const step of plan.steps) {
      assert.equal(step.timeoutMs, undefined);
      assert.equal(step.maxAttempts, 1);
    }
  });

  it('deeply nested JSON (200,000 levels) is refused with an error, not a crash', () => {
    const result = parsePlan(`{"steps":[{"id":"a","tool":"read_file","args":{"path":"x","deep":${'['.repeat(200_000)}${']'.repeat(200_000)}}}]}`);
    assert.equal(result.ok, false);
  });

  it('a dependency cycle written through field aliases (depends_on, requires, phases) is reported', () => {
    for (const raw of [
      { steps: [{ id: 'a', input: 'x', depends_on: ['b'] }, { id: 'b', input: 'y', requires: 'a' }] },
      { steps: [{ id: 'P', tasks: [{ id: 'a', input: 'x' }], dependsOn: ['b'] }, { id: 'b', input: 'y', dependsOn: ['P'] }] },
    ]) {
      assert.ok(validatePlan(planOf(parsePlan(raw))).some((diagnostic) => diagnostic.code === 'cycle'), JSON.stringify(raw));
    }
  });

  // docs/architecture.md §3: "never one that closes a cycle"; referencedDependencies.ts: "(validation reports what remains)".
  for (const [name, raw] of [
    ['a reference each way ({{results}})', { steps: [{ id: 'a', input: 'use {{results.b}}' }, { id: 'b', input: 'use {{results.a}}' }] }],
    ['a reference each way ("$id" args)', { steps: [{ id: 'a', tool: 'write_file', args: { path: 'x', content: '$b' } }, { id: 'b', tool: 'write_file', args: { path: 'y', content: '$a' } }] }],
    ['a reference to a step that depends on it', { steps: [{ id: 'a', input: 'x', dependsOn: ['b'] }, { id: 'b', input: 'use {{results.a}}' }] }],
  ] as const) {
    it(`a reference to a step that can only run later is reported by validation, not dropped in silence: ${name}`, () => {
      const parsed = parsePlan(raw);
      const plan = planOf(parsed);
      const b = plan.steps.find((step) => step.id === 'b')!;
      const reported = [
        ...validatePlan(plan, { tools }).filter((diagnostic) => diagnostic.stepId === 'b').map((diagnostic) => diagnostic.message),
        ...(parsed.ok ? parsed.warnings : []).filter((warning) => warning.startsWith('Step "b"')),
      ];
      assert.ok(
        reported.length > 0,
        `step b (dependsOn ${JSON.stringify(b.dependsOn)}) uses the result of a, which runs after it; nothing says so. Warnings: ${JSON.stringify((parsed.ok ? parsed.warnings : []))}; critique: ${JSON.stringify(critiquePlan(plan, { tools }).issues.map((issue) => issue.message))}`,
      );
    });
  }

  it('a step id holding a line break or a direction override is refused or renamed', () => {
    const plan = planOf(parsePlan({ steps: [{ id: 'a\n[2/2] ✔ deploy', input: 'x' }, { id: 'b\u202Eexe.txt', input: 'y' }] }));
    for (const step of plan.steps) assert.doesNotMatch(step.id, /[\n\r\u202a-\u202e\u2066-\u2069]/, JSON.stringify(step.id));
  });

});
