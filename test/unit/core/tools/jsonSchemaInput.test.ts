import assert from 'node:assert/strict';
import { jsonSchemaInput } from '../../../../src/core/tools/jsonSchemaInput';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { toolParameters } from '../../../../src/core/tools/toolParameters';
import { validatePlan } from '../../../../src/core/plan/validatePlan';
import type { Tool } from '../../../../src/core/tools/tool';
import type { Plan } from '../../../../src/core/plan/planSchema';

// As an MCP server built with zod-to-json-schema describes its input (draft-07).
const addSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' }, label: { type: 'string', pattern: '^[a-z]+$' } },
  required: ['a', 'b'],
  additionalProperties: false,
};

function externalTool(name: string, schema: Record<string, unknown>): Tool {
  const input = jsonSchemaInput(schema);
  return { name, description: 'An outside tool.', inputSchema: input.inputSchema, parameters: input.parameters, effects: 'network', run: async (_ctx, args) => args };
}

describe('jsonSchemaInput', () => {
  it('accepts arguments that match the schema, whatever draft it names', () => {
    const { inputSchema, unusable } = jsonSchemaInput(addSchema);
    assert.equal(unusable, undefined);
    assert.deepEqual(inputSchema.parse({ a: 1, b: 2, label: 'sum' }), { a: 1, b: 2, label: 'sum' });
  });

  it('names each mismatch at its place, in words', () => {
    const parsed = jsonSchemaInput(addSchema).inputSchema.safeParse({ a: 'one', label: 'UPPER', extra: true });
    assert.equal(parsed.success, false);
    const issues = parsed.error?.issues.map((issue) => ({ path: issue.path, message: issue.message })) ?? [];
    assert.deepEqual(issues, [
      { path: [], message: 'arguments.b: missing (required)' },
      { path: [], message: 'arguments: unexpected field "extra"' },
      { path: ['a'], message: 'arguments.a: expected number, got string' },
      { path: ['label'], message: 'arguments.label: must match pattern "^[a-z]+$", got "UPPER"' },
    ]);
  });

  it('refuses what is not an arguments object', () => {
    assert.equal(jsonSchemaInput(addSchema).inputSchema.safeParse(['a']).success, false);
    assert.equal(jsonSchemaInput(addSchema).inputSchema.safeParse(null).success, false);
  });

  it('shows models the schema without its $schema line', () => {
    const { parameters } = jsonSchemaInput(addSchema);
    assert.equal('$schema' in parameters, false);
    assert.deepEqual(parameters.required, ['a', 'b']);
    const tool = externalTool('add', addSchema);
    assert.deepEqual(toolParameters(tool), parameters);
    assert.deepEqual(createToolRegistry([tool]).toOpenAiTools()[0]?.function.parameters, parameters);
  });

  it('leaves validation to the tool owner when its schema cannot be used, and says why', () => {
    const hostile = { type: 'object', properties: { x: { type: 'string', pattern: '(a+)+\\1' } } };
    const input = jsonSchemaInput(hostile);
    assert.match(input.unusable ?? '', /^The input schema cannot be used: /);
    assert.equal(input.inputSchema.safeParse({ x: 'anything' }).success, true);
    assert.equal(input.inputSchema.safeParse('not an object').success, false);
    const looping = jsonSchemaInput({ $ref: '#' });
    assert.match(looping.unusable ?? '', /leads back to itself/);
  });

  it('lets validatePlan name a wrong argument and pass a reference filled in at run time', () => {
    const tools = createToolRegistry([externalTool('add', addSchema)]);
    const plan = (args: Record<string, unknown>): Plan =>
      ({
        version: 1,
        objective: 'Add.',
        agents: [],
        steps: [
          { id: 'first', title: 'First', kind: 'tool', tool: 'add', args: { a: 1, b: 2 }, dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: false },
          { id: 'second', title: 'Second', kind: 'tool', tool: 'add', args, dependsOn: ['first'], onFailure: 'stop', maxAttempts: 1, critical: false },
        ],
      }) as unknown as Plan;
    const wrong = validatePlan(plan({ a: 'x', b: 2 }), { tools }).filter((diagnostic) => diagnostic.severity === 'error');
    assert.equal(wrong.length, 1);
    assert.match(wrong[0]?.message ?? '', /arguments\.a: expected number, got string/);
    assert.deepEqual(validatePlan(plan({ a: '$first', b: 2 }), { tools }).filter((diagnostic) => diagnostic.severity === 'error'), []);
  });
});
