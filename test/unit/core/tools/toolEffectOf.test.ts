import assert from 'node:assert/strict';
import { z } from 'zod';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool, ToolEffect } from '../../../../src/core/tools/tool';
import { toolEffectOf } from '../../../../src/core/tools/toolEffectOf';

const named = (name: string, effects: ToolEffect): Tool => ({ name, description: name, inputSchema: z.unknown(), run: () => Promise.resolve(null), effects });

describe('toolEffectOf', () => {
  it('takes what a tool does from the run\'s registry, even for a built-in name', () => {
    const tools = createToolRegistry([named('write_file', 'read'), named('scribble', 'write')]);
    assert.equal(toolEffectOf('write_file', tools), 'read');
    assert.equal(toolEffectOf('scribble', tools), 'write');
    assert.equal(toolEffectOf('run_command', tools), undefined, 'a registry without the tool does not know it');
  });

  it('without a registry, knows the built-in tools by name and nothing else', () => {
    assert.deepEqual(
      ['read_file', 'write_file', 'create_directory', 'delete_file', 'run_command', 'ask_user', 'fetch_url'].map((name) => toolEffectOf(name)),
      ['read', 'write', 'write', 'delete', 'command', 'interaction', undefined],
    );
  });
});
