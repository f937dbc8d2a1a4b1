import assert from 'node:assert/strict';
import { callAgentTool, toolDefinition } from '../../../../src/core/agent/agentToolCall';
import { askUserTool } from '../../../../src/core/tools/askUserTool';
import { DeferredError } from '../../../../src/core/tools/deferral';
import type { Tool } from '../../../../src/core/tools/tool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('callAgentTool', () => {
  const tools = new Map<string, Tool>([writeFileTool, askUserTool].map((tool) => [tool.name, tool as Tool]));

  it('describes a tool by its input JSON Schema', () => {
    const definition = toolDefinition(writeFileTool as Tool);
    assert.equal(definition.name, 'write_file');
    assert.deepEqual((definition.parameters as { required: string[] }).required, ['path', 'content']);
    assert.equal(toolDefinition(writeFileTool as Tool), definition, 'cached');
  });

  it('rethrows a deferral so the step is suspended, for approvals and questions alike', async () => {
    const ctx = makeToolContext({ interaction: new ScriptedInteraction({ approvals: ['defer'], clarifications: ['defer'] }) });
    await assert.rejects(callAgentTool({ id: '1', name: 'write_file', arguments: '{"path":"a.txt","content":"x"}' }, tools, ctx, neverAborted, 100), DeferredError);
    await assert.rejects(callAgentTool({ id: '2', name: 'ask_user', arguments: '{"question":"Why?"}' }, tools, ctx, neverAborted, 100), DeferredError);
  });

  it('cuts long results by tokens inside the untrusted envelope', async () => {
    const workspace = createMemoryWorkspace();
    const ctx = makeToolContext({ workspace, interaction: new ScriptedInteraction({ clarifications: ['word '.repeat(500)] }) });
    const outcome = await callAgentTool({ id: '1', name: 'ask_user', arguments: '{"question":"Say a lot"}' }, tools, ctx, neverAborted, 50);
    const envelope = JSON.parse(outcome.content) as { untrusted_data: string };
    assert.ok(outcome.ok);
    assert.match(envelope.untrusted_data, /\(cut: read a smaller part for the rest\)$/);
    assert.ok(envelope.untrusted_data.length < 400);
  });
});
