import assert from 'node:assert/strict';
import { callAgentTool, notRunOutcome, toolDefinition } from '../../../../src/core/agent/agentToolCall';
import { askUserTool } from '../../../../src/core/tools/askUserTool';
import { DeferredError } from '../../../../src/core/tools/deferral';
import type { Tool } from '../../../../src/core/tools/tool';
import { z } from 'zod';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('callAgentTool', () => {
  const tools = new Map<string, Tool>([writeFileTool, askUserTool].map((tool) => [tool.name, tool as Tool]));

  it('describes a tool by its input JSON Schema', () => {
    const definition = toolDefinition(writeFileTool);
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
    const workspace = createMemoryWorkspace({ 'long.txt': 'word '.repeat(500) });
    const ctx = makeToolContext({ workspace });
    const outcome = await callAgentTool({ id: '1', name: 'read_file', arguments: '{"path":"long.txt"}' }, new Map([...tools, [readFileTool.name, readFileTool]]), ctx, neverAborted, 50);
    const envelope = JSON.parse(outcome.content) as { untrusted_data: string };
    assert.ok(outcome.ok);
    assert.match(envelope.untrusted_data, /\(cut: read a smaller part for the rest\)$/);
    assert.ok(envelope.untrusted_data.length < 400);
  });

  // From a newcomer's trial: the user's answer reached the agent as untrusted data, "not from the user", to be ignored.
  it("gives the user's answer to ask_user as their reply, cut by tokens, never as untrusted data", async () => {
    const ctx = makeToolContext({ interaction: new ScriptedInteraction({ clarifications: ['Yes, and also accept \\t'] }) });
    const outcome = await callAgentTool({ id: '1', name: 'ask_user', arguments: '{"question":"Also tab?"}' }, tools, ctx, neverAborted, 100);
    assert.deepEqual(JSON.parse(outcome.content), {
      tool: 'ask_user',
      status: 'ok',
      note: "user_reply is the user's own answer to your question: take it as their instruction for this step.",
      user_reply: 'Yes, and also accept \\t',
    });
    const long = makeToolContext({ interaction: new ScriptedInteraction({ clarifications: ['word '.repeat(500)] }) });
    const cut = JSON.parse((await callAgentTool({ id: '2', name: 'ask_user', arguments: '{"question":"Say a lot"}' }, tools, long, neverAborted, 50)).content) as { user_reply: string };
    assert.ok(cut.user_reply.endsWith('… (cut)') && cut.user_reply.length < 400, cut.user_reply);
  });

  /** A fresh tool (definitions are cached per tool object) that returns `value`. */
  const returning = (value: unknown, name = 'probe'): Tool => ({ name, description: 'returns a value', effects: 'read', inputSchema: z.object({ path: z.string().optional(), limit: z.number().default(10) }), run: async () => value });
  const dataOf = (content: string): unknown => (JSON.parse(content) as { untrusted_data: unknown }).untrusted_data;

  it('describes the input side of a fresh tool: fields with defaults are optional', () => {
    const definition = toolDefinition(returning('x'));
    assert.deepEqual(definition.parameters['required'], undefined);
    assert.equal(definition.description, 'returns a value');
    assert.equal(Object.hasOwn(definition.parameters, '$schema'), false);
  });

  it('names the available tools, or none, when the model calls another', async () => {
    const ctx = makeToolContext();
    const some = await callAgentTool({ id: '1', name: 'fly', arguments: '{}' }, tools, ctx, neverAborted, 100);
    const error = 'The tool "fly" is not available to this agent. Available tools: write_file, ask_user.';
    assert.deepEqual(some, { ok: false, error, content: JSON.stringify({ tool: 'fly', status: 'error', error }) });
    const none = await callAgentTool({ id: '1', name: 'fly', arguments: '{}' }, new Map(), ctx, neverAborted, 100);
    assert.match((JSON.parse(none.content) as { error: string }).error, /Available tools: none\.$/);
  });

  it('takes blank arguments as an empty object', async () => {
    const outcome = await callAgentTool({ id: '1', name: 'probe', arguments: '  ' }, new Map([['probe', returning('fine')]]), makeToolContext(), neverAborted, 100);
    assert.equal(outcome.ok, true);
    assert.equal(dataOf(outcome.content), 'fine');
  });

  it('gives strings as they are, other values as JSON, and says when there was no output', async () => {
    const cases: [unknown, string][] = [['plain text', 'plain text'], [{ files: ['a.ts'] }, '{"files":["a.ts"]}'], [undefined, '(no output)'], [10n, '10']];
    for (const [value, text] of cases) {
      const outcome = await callAgentTool({ id: '1', name: 'probe', arguments: '{}' }, new Map([['probe', returning(value)]]), makeToolContext(), neverAborted, 100);
      assert.equal(dataOf(outcome.content), text);
    }
  });

  it('marks an invalid call and a refused one as not ok', async () => {
    const invalid = await callAgentTool({ id: '1', name: 'probe', arguments: '{"limit": "ten"}' }, new Map([['probe', returning('x')]]), makeToolContext(), neverAborted, 100);
    assert.equal(invalid.ok, false);
    const notRun = notRunOutcome('probe', 'Not run: too many calls.');
    assert.deepEqual(notRun, { ok: false, content: JSON.stringify({ tool: 'probe', status: 'not_run', error: 'Not run: too many calls.' }) });
  });

  // The person reads a tool's error without advice meant for the model ("Use list_files…" named a tool they never called).
  it('tells the model what to do instead after a workspace error; the error itself names no tool', async () => {
    const ctx = makeToolContext({ workspace: createMemoryWorkspace({ 'src/a.ts': 'a' }) });
    const outcome = await callAgentTool({ id: '1', name: 'read_file', arguments: '{"path": "src/b.ts"}' }, new Map([['read_file', readFileTool]]), ctx, neverAborted, 100);
    assert.deepEqual(outcome, {
      ok: false,
      error: 'File not found: src/b.ts. Use list_files to see what exists.',
      content: JSON.stringify({ tool: 'read_file', status: 'error', error: 'File not found: src/b.ts. Use list_files to see what exists.' }),
    });
    await assert.rejects(readFileTool.run(ctx, { path: 'src/b.ts' }, neverAborted), { message: 'File not found: src/b.ts.' });
  });
});
