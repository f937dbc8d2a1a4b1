import assert from 'node:assert/strict';
import { StepFailure } from '../../../../src/core/tools/stepFailure';
import { type McpCallResult, maxMcpStructuredDepth, mcpResultText, mcpStepOutput } from '../../../../src/core/mcp/mcpResult';
import { type McpSession, mcpTools } from '../../../../src/core/mcp/mcpTools';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { textCaps } from '../../../../src/core/text/capText';
import { isApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { toolParameters } from '../../../../src/core/tools/toolParameters';
import { answeringInteraction } from '../../../fakes/answeringInteraction';
import { makeToolContext } from '../../../fakes/toolContext';

function session(overrides: Partial<McpSession> = {}): McpSession & { calls: { tool: string; args: unknown }[] } {
  const calls: { tool: string; args: unknown }[] = [];
  return {
    name: 'db',
    allowedTools: [],
    tools: [{ name: 'query', description: 'Runs SQL.', inputSchema: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] } }],
    callTool: (tool, args) => {
      calls.push({ tool, args });
      return Promise.resolve({ content: [{ type: 'text', text: 'one row' }] });
    },
    calls,
    ...overrides,
  };
}

describe('mcpTools', () => {
  it('makes each server tool an external tool whose arguments are checked against its schema', () => {
    const [tool] = mcpTools([session()], new Set());
    assert.ok(tool);
    assert.equal(tool.name, 'mcp__db__query');
    assert.equal(tool.effects, 'external');
    assert.match(tool.description, /^Runs SQL\.\n\(Tool "query" of MCP server "db"\.\)$/);
    assert.deepEqual(toolParameters(tool).required, ['sql']);
    assert.equal(tool.inputSchema.safeParse({ sql: 'select 1' }).success, true);
    assert.equal(tool.inputSchema.safeParse({ sql: 5 }).success, false);
  });

  it('asks before each call, naming the tool, the server and the arguments; a "no" calls nothing', async () => {
    const asked: ApprovalRequest[] = [];
    const server = session();
    const [tool] = mcpTools([server], new Set());
    const ctx = makeToolContext({
      interaction: answeringInteraction({ approval: (request) => (asked.push(request), { approved: false, reason: 'not today' }) }),
    });
    await assert.rejects(
      tool!.run(ctx, { sql: 'drop table x' }, new AbortController().signal),
      (error: unknown) => isApprovalRejectedError(error) && /not today/.test((error as Error).message),
    );
    assert.deepEqual(asked, [{ kind: 'tool', stepId: 'S1', title: 'Test step', tool: 'query', source: 'MCP server "db"', input: { sql: 'drop table x' } }]);
    assert.deepEqual(server.calls, []);
    const approving = makeToolContext({ interaction: answeringInteraction({ approval: () => ({ approved: true }) }) });
    assert.deepEqual(await tool!.run(approving, { sql: 'select 1' }, new AbortController().signal), { text: 'one row' });
    assert.deepEqual(server.calls, [{ tool: 'query', args: { sql: 'select 1' } }]);
  });

  it('offers to remember the answer under the session\'s key, and asks no more once the host remembered it (read at each call)', async () => {
    const allowedHere = new Set<string>();
    const server = session({ remembered: { allows: (tool) => allowedHere.has(`key:${tool}`), keyOf: (tool) => `key:${tool}` } });
    const [tool] = mcpTools([server], new Set());
    const asked: ApprovalRequest[] = [];
    const ctx = makeToolContext({
      interaction: answeringInteraction({
        approval: (request) => {
          asked.push(request);
          // The editor stores "Always allow in this workspace" under the offered key.
          if (request.kind === 'tool' && request.rememberAs !== undefined) allowedHere.add(request.rememberAs);
          return { approved: true };
        },
      }),
    });
    await tool!.run(ctx, { sql: 'select 1' }, new AbortController().signal);
    await tool!.run(ctx, { sql: 'select 2' }, new AbortController().signal);
    assert.deepEqual(asked, [{ kind: 'tool', stepId: 'S1', title: 'Test step', tool: 'query', source: 'MCP server "db"', input: { sql: 'select 1' }, rememberAs: 'key:query' }]);
    assert.equal(server.calls.length, 2);
    // What was remembered for one tool allows no other.
    const other = session({
      tools: [{ name: 'drop', inputSchema: { type: 'object' } }],
      remembered: { allows: (name) => allowedHere.has(`key:${name}`), keyOf: (name) => `key:${name}` },
    });
    const [drop] = mcpTools([other], new Set());
    const refusing = makeToolContext({ interaction: answeringInteraction({ approval: () => ({ approved: false, reason: 'no' }) }) });
    await assert.rejects(drop!.run(refusing, {}, new AbortController().signal), (error: unknown) => isApprovalRejectedError(error));
  });

  it('calls without asking only the tools the user allowed', async () => {
    const deferring = makeToolContext({ interaction: answeringInteraction({}) });
    const [all] = mcpTools([session({ allowedTools: ['*'] })], new Set());
    assert.deepEqual(await all!.run(deferring, { sql: 'x' }, new AbortController().signal), { text: 'one row' });
    const [named] = mcpTools([session({ allowedTools: ['query'] })], new Set());
    assert.deepEqual(await named!.run(deferring, { sql: 'x' }, new AbortController().signal), { text: 'one row' });
    const [other] = mcpTools([session({ allowedTools: ['other'] })], new Set());
    await assert.rejects(other!.run(deferring, { sql: 'x' }, new AbortController().signal), /approval/i);
  });

  it('fails the step with the server text of an isError result, not retried', async () => {
    const [tool] = mcpTools(
      [session({ allowedTools: ['*'], callTool: () => Promise.resolve({ isError: true, content: [{ type: 'text', text: 'syntax error near "drop"' }] }) })],
      new Set(),
    );
    await assert.rejects(
      tool!.run(makeToolContext(), { sql: 'x' }, new AbortController().signal),
      (error: unknown) =>
        error instanceof StepFailure && !error.retryable && error.message === 'Tool "query" of MCP server "db" reported an error: syntax error near "drop"',
    );
  });

  it('bounds a hostile description and replaces a huge schema by "an object"', () => {
    const huge = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`p${index}`, { type: 'string', description: 'x'.repeat(20) }])),
    };
    const [tool] = mcpTools([session({ tools: [{ name: 't', description: 'd'.repeat(100_000), inputSchema: huge }] })], new Set());
    assert.ok(tool!.description.length <= 2000);
    assert.deepEqual(toolParameters(tool!), { type: 'object' });
    const [small] = mcpTools([session({ tools: [{ name: 't', description: 'Short.', inputSchema: huge }] })], new Set());
    assert.match(small!.description, /Its input schema is too large to show: the server checks the arguments\.\)$/);
    const looping = { type: 'object', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, properties: { x: { $ref: '#/$defs/a' } } };
    const [loop] = mcpTools([session({ tools: [{ name: 't', inputSchema: looping }] })], new Set());
    assert.equal(typeof loop!.inputSchema.safeParse({ x: 1 }).success, 'boolean', 'a looping schema is checked without hanging or throwing');
  });
});

describe('mcpStepOutput', () => {
  it('keeps text and structured content, describes images and audio without their bytes, lists resources', () => {
    const output = mcpStepOutput({
      structuredContent: { temperature: 20 },
      content: [
        { type: 'text', text: 'Sunny' },
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
        { type: 'resource', resource: { uri: 'test://r', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource', resource: { uri: 'test://b', blob: 'AAAA' } },
        'junk',
        { type: 'text', text: 5 },
      ],
    });
    assert.deepEqual(output, {
      text: 'Sunny\n[image image/png, 5 bytes]\n[audio audio/wav, 3 bytes]\n[resource file:///a.txt]\n[resource test://r]\ninside\n[resource test://b (3 bytes)]',
      structuredContent: { temperature: 20 },
      media: [
        { type: 'image', mimeType: 'image/png', bytes: 5 },
        { type: 'audio', mimeType: 'audio/wav', bytes: 3 },
      ],
      resources: [{ uri: 'file:///a.txt', name: 'a' }, { uri: 'test://r', mimeType: 'text/plain', text: 'inside' }, { uri: 'test://b' }],
    });
    assert.equal(mcpResultText(output), output.text);
    assert.equal(mcpResultText({ other: 1 }), '{"other":1}');
  });

  it('caps 50 MB of text and a huge structured result within the result cap', () => {
    const text = mcpStepOutput({
      content: [
        { type: 'text', text: 'y'.repeat(50 * 1024 * 1024) },
        { type: 'text', text: 'more' },
      ],
    });
    assert.ok(text.text.length <= 200_001, `${text.text.length}`);
    assert.match(text.text, /more characters cut\)$/);
    const structured = mcpStepOutput({ structuredContent: { rows: Array.from({ length: 100_000 }, (_, index) => ({ index, value: 'v'.repeat(50) })) } });
    assert.ok(JSON.stringify(structured).length <= textCaps.result * 1.1);
  });
  it('attack: keeps a structured result nested 100 000 levels deep (as JSON.parse reads it) writable: levels below 64 are cut with a marker', () => {
    for (const [open, close] of [['[', ']'], ['{"a":', '}']] as const) {
      const depth = 100_000;
      const sent = JSON.parse(`{"structuredContent":{"v":${open.repeat(depth)}1${close.repeat(depth)}},"content":[{"type":"text","text":"x"}]}`) as McpCallResult;
      const output = mcpStepOutput(sent);
      const json = JSON.stringify(output);
      assert.ok(json.length <= textCaps.result, `${json.length}`);
      assert.match(json, /"… \(nested deeper than 64 levels, cut\)"/);
      // 64 levels are kept: the content object and 63 of the nesting; the 64th nested value is the marker.
      let level = (output.structuredContent as Record<string, unknown>)['v'];
      for (let kept = 1; kept < maxMcpStructuredDepth; kept++) level = open === '[' ? (level as unknown[])[0] : (level as Record<string, unknown>)['a'];
      assert.equal(level, '… (nested deeper than 64 levels, cut)');
    }
    assert.deepEqual(mcpStepOutput({ structuredContent: { a: [{ b: null }, 2, 'c'] } }).structuredContent, { a: [{ b: null }, 2, 'c'] }, 'a shallow result is kept as sent');
  });
});
