import assert from 'node:assert/strict';
import { z } from 'zod';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool } from '../../../../src/core/tools/tool';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { readFileTool } from '../../../../src/core/tools/readFileTool';

const echo = (name: string): Tool => ({
  name,
  description: 'Echo.',
  inputSchema: z.strictObject({ text: z.string(), times: z.int().min(1).default(1) }),
  effects: 'read',
  run: async (_ctx, input) => input,
});

describe('createToolRegistry', () => {
  it('looks tools up by name and keeps registration order', () => {
    const registry = createToolRegistry([echo('b_tool'), echo('a_tool')]);
    assert.deepEqual(registry.names(), ['b_tool', 'a_tool']);
    assert.equal(registry.get('a_tool')?.name, 'a_tool');
    assert.equal(registry.get('missing'), undefined);
    assert.deepEqual(registry.list().map((tool) => tool.name), ['b_tool', 'a_tool']);
  });

  it('refuses duplicate and invalid names with a clear message', () => {
    assert.throws(() => createToolRegistry([echo('same'), echo('same')]), /Two tools are named "same"/);
    assert.throws(() => createToolRegistry([echo('has space')]), /Tool name "has space" is invalid/);
    assert.throws(() => createToolRegistry([echo('x'.repeat(65))]), /is invalid/);
  });

  it('exports OpenAI tool definitions with JSON Schema from zod, input side', () => {
    const [definition] = createToolRegistry([echo('echo')]).toOpenAiTools();
    assert.deepEqual(definition, {
      type: 'function',
      function: {
        name: 'echo',
        description: 'Echo.',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 } },
          required: ['text'],
          additionalProperties: false,
        },
      },
    });
  });

  it('describes the built-in file tools, including nested arrays and field descriptions', () => {
    const registry = createToolRegistry([readFileTool, editFileTool]);
    const [edit] = registry.toOpenAiTools(['edit_file']);
    const parameters = edit?.function.parameters as { properties: { edits: { type: string; minItems: number; items: { required: string[] } } }; required: string[] };
    assert.equal(parameters.properties.edits.type, 'array');
    assert.equal(parameters.properties.edits.minItems, 1);
    assert.deepEqual(parameters.properties.edits.items.required, ['search', 'replace']);
    assert.deepEqual(parameters.required, ['path', 'edits']);
    assert.throws(() => registry.toOpenAiTools(['nope']), /Unknown tool "nope". Available tools: read_file, edit_file/);
  });
});
