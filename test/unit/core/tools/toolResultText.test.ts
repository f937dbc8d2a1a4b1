import assert from 'node:assert/strict';
import { z } from 'zod';
import { callAgentTool } from '../../../../src/core/agent/agentToolCall';
import { withReferenceTexts } from '../../../../src/core/engine/executors/referenceTexts';
import { mcpTools } from '../../../../src/core/mcp/mcpTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import type { Tool } from '../../../../src/core/tools/tool';
import { toolResultText } from '../../../../src/core/tools/toolResultText';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';
import { makePlan, makeStep } from '../../../support/randomPlans';

describe('toolResultText: one text form of a tool result', () => {
  const serverText = 'rows:\n"a"\t1';
  const [mcpTool] = mcpTools(
    [{ name: 'db', allowedTools: ['*'], tools: [{ name: 'query', description: 'Runs SQL.', inputSchema: { type: 'object' } }], callTool: () => Promise.resolve({ content: [{ type: 'text', text: serverText }] }) }],
    new Set(),
  ) as [Tool];

  it('an MCP text result reaches the next prompt once: the agent\'s envelope carries the server\'s text, not its JSON encoded again', async () => {
    const outcome = await callAgentTool({ id: '1', name: mcpTool.name, arguments: '{}' }, new Map([[mcpTool.name, mcpTool]]), makeToolContext(), neverAborted, 1000);
    assert.equal(outcome.ok, true);
    assert.equal((JSON.parse(outcome.content) as { untrusted_data: unknown }).untrusted_data, serverText);
    assert.ok(outcome.content.includes(JSON.stringify(serverText)), 'the text is JSON-encoded exactly once in the message');
  });

  it('a "$<id>" reference to the same result gets the same text the agent got', async () => {
    const output = await mcpTool.run(makeToolContext(), {}, neverAborted);
    const plan = makePlan([makeStep('S1', { kind: 'tool', tool: mcpTool.name, args: {} })]);
    const context = { written: { path: 'a', content: '$S1' }, results: () => ({ S1: output }), plan, tools: createToolRegistry([mcpTool]) };
    const file = z.object({ path: z.string(), content: z.string() });
    assert.deepEqual(withReferenceTexts(file, { path: 'a', content: output }, context), { path: 'a', content: serverText });
    assert.equal(toolResultText(mcpTool, output), serverText);
  });

  it('a tool without its own text form gives compact JSON; no tool at all too', () => {
    const plain = { name: 'plain', description: 'p', effects: 'read', inputSchema: z.object({}), run: () => Promise.resolve({ n: 1 }) } as unknown as Tool;
    assert.equal(toolResultText(plain, { n: 1 }), '{"n":1}');
    assert.equal(toolResultText(undefined, 'text'), 'text');
  });
});
