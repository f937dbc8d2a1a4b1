import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parsePlan } from '../../../../src/core/plan/parsePlan';
import { planFileJsonSchema, planFileSchema, planFileSchemaText } from '../../../../src/core/plan/planFileSchema';
import { stepSchema } from '../../../../src/core/plan/planSchema';
import { stepKinds } from '../../../../src/shared/vocabulary';
import { dagPlanArbitrary, makePlan, makeStep } from '../../../support/randomPlans';

interface SchemaNode {
  $schema?: string;
  type?: string;
  description?: string;
  required?: string[];
  additionalProperties?: unknown;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  enum?: string[];
  anyOf?: SchemaNode[];
}

const jsonSchema = planFileJsonSchema() as SchemaNode;
const stepNode = jsonSchema.properties?.steps?.items;

describe('planFileSchema', () => {
  it('accepts every canonical plan, as "Save plan as file" writes it', () => {
    fc.assert(fc.property(dagPlanArbitrary, (plan) => assert.ok(planFileSchema.safeParse(JSON.parse(JSON.stringify(plan))).success)), { numRuns: 50 });
    const full = makePlan([
      makeStep('a', { checks: [{ kind: 'command', argv: ['npm', 'test'], cwd: 'web', expectExitCode: 0, outputContains: 'ok' }], timeoutMs: 60_000, requiresApproval: true }),
      makeStep('b', { kind: 'tool', tool: 'read_file', args: { path: 'a.txt' }, dependsOn: ['a'], attachments: [{ kind: 'file', ref: 'a.txt#L1-L2', text: 'x' }], review: true }),
    ], { agents: { writer: { prompt: 'Write well.', tools: ['write_file'] } } });
    assert.deepEqual(planFileSchema.safeParse(full).error, undefined);
  });

  it('reads back, through parsePlan, exactly the plan that was saved', () => {
    fc.assert(
      fc.property(dagPlanArbitrary, (plan) => {
        const parsed = parsePlan(`${JSON.stringify(plan, null, 2)}\n`);
        assert.ok(parsed.ok);
        assert.deepEqual(parsed.plan, plan);
        assert.deepEqual(parsed.warnings, []);
      }),
      { numRuns: 50 },
    );
  });

  it('accepts a plan written by hand with only ids, inputs and tools, and parsePlan runs what it accepts', () => {
    const written = JSON.parse(readFileSync('test/fixtures/approve.plan.json', 'utf8')) as unknown;
    assert.equal(planFileSchema.safeParse(written).success, true);
    const parsed = parsePlan({ $schema: './plan.schema.json', ...(written as object) });
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.warnings, [], 'naming the schema is not an ignored field');
    assert.deepEqual(parsed.plan.steps.map((step) => step.kind), ['tool', 'tool']);
  });

  it('refuses a misspelt field of the plan, a step, a check or an agent, and a step without an id', () => {
    const wrong: unknown[] = [
      { objectve: 'x', steps: [{ id: 'a' }] },
      { objective: 'x', steps: [{ id: 'a', dependson: [] }] },
      { objective: 'x', steps: [{ id: 'a', checks: [{ kind: 'file_exists', path: 'a', pattern: 'x' }] }] },
      { objective: 'x', agents: { w: { prompt: 'p', tools: [], model: 'm' } }, steps: [{ id: 'a' }] },
      { objective: 'x', steps: [{ title: 'no id' }] },
      { objective: 'x', steps: [{ id: 'a', kind: 'shell' }] },
      { objective: 'x', steps: [{ id: 'a', maxAttempts: 0 }] },
      { objective: 'x', steps: [] },
    ];
    for (const plan of wrong) assert.equal(planFileSchema.safeParse(plan).success, false, JSON.stringify(plan));
  });

  it('describes, in its JSON Schema, every field of a step and of the plan, and allows no other', () => {
    assert.ok(stepNode?.properties);
    assert.deepEqual(Object.keys(stepNode.properties).sort(), Object.keys(stepSchema.shape).sort());
    for (const [name, field] of Object.entries({ ...stepNode.properties, ...jsonSchema.properties })) {
      assert.ok((field.description ?? '').length > 10, `${name} has a description`);
    }
    assert.equal(stepNode.additionalProperties, false);
    assert.equal(jsonSchema.additionalProperties, false);
    assert.deepEqual(stepNode.required, ['id']);
    assert.deepEqual(jsonSchema.required, ['objective', 'steps']);
    assert.deepEqual(stepNode.properties.kind?.enum, [...stepKinds]);
    const checks = stepNode.properties.checks?.items?.anyOf ?? [];
    assert.equal(checks.length, 5);
    for (const check of checks) assert.ok(check.description && check.additionalProperties === false);
  });

  it('writes the JSON Schema as draft-07 text that reads back as the same schema', () => {
    const text = planFileSchemaText();
    assert.ok(text.endsWith('}\n'));
    const fresh = planFileJsonSchema();
    assert.deepEqual(JSON.parse(text), fresh);
    // Read here, not from the module-level copy, so the schema is built while the test runs.
    assert.equal(fresh.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.equal(fresh.title, 'Task Planner plan');
    assert.deepEqual(fresh.required, ['objective', 'steps']);
  });
});
