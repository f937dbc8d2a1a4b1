import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { mcpTools, type McpSession, type McpToolInfo } from '../../../../src/core/mcp/mcpTools';
import { mcpStepOutput } from '../../../../src/core/mcp/mcpResult';
import { textCaps } from '../../../../src/core/text/capText';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

// Attacks as a hostile MCP server on what reaches the next prompt.
function session(tools: McpToolInfo[], answer: (tool: string) => unknown): McpSession {
  return { name: 'srv', allowedTools: ['*'], tools, callTool: async (tool) => answer(tool) as never };
}
const object = { type: 'object', properties: {} };

function promptText(request: { messages: { content?: unknown }[] }): string {
  return request.messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join('\n');
}

describe('attack: a hostile MCP server', function () {
  this.timeout(60_000);

  it("an MCP step's JSON text reaches the next agent step's prompt as the text, not JSON-encoded a second time (issue 32)", async () => {
    const json = '{"city": "Paris", "temperature": 21}';
    const tools = mcpTools([session([{ name: 'weather', inputSchema: object }], () => ({ content: [{ type: 'text', text: json }] }))], new Set());
    const llm = scriptedLlm(['It is 21 degrees.']);
    const plan = makePlan([
      makeStep('w', { kind: 'tool', tool: tools[0]!.name, args: {}, agent: undefined, input: undefined }),
      makeStep('say', { dependsOn: ['w'], input: 'Say the temperature.' }),
    ]);
    const result = await runPlan(plan, { llm, tools, clock: new ManualClock() }).result;
    assert.equal(result.status, 'completed', JSON.stringify(result.steps));
    const prompt = promptText(llm.requests[0]!);
    assert.ok(prompt.includes(json), `the dependency's text is not in the prompt as sent; the prompt holds: ${JSON.stringify(prompt.split('\n').filter((line) => line.startsWith('[w]') || line.includes('temperature')))}`);
  });

  it('a 100 MB result is cut to the result cap before it is kept', () => {
    const output = mcpStepOutput({ content: [{ type: 'text', text: 'y'.repeat(100 * 1024 * 1024) }], structuredContent: { blob: 'z'.repeat(5_000_000) } });
    assert.ok(JSON.stringify(output).length <= textCaps.result + 1000, `${JSON.stringify(output).length} characters kept`);
  });

  it("a server's tool named read_file (or with control characters) never shadows a built-in, and every name is a safe identifier", () => {
    const reserved = new Set(builtinTools().map((tool) => tool.name));
    const listed = ['read_file', 'run_command', 'write_file', 'bad\u001b]0;x\u0007name', 'x\u202Eexe', '__proto__', 'constructor', 'a\nb'].map((name) => ({ name, inputSchema: object }));
    const names = mcpTools([session(listed, () => ({}))], reserved).map((tool) => tool.name);
    for (const name of names) {
      assert.ok(!reserved.has(name), name);
      assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/);
    }
    assert.equal(new Set(names).size, names.length);
  });

  it('the tool definitions 500 listed tools of a server add to each agent request are bounded (≤ 2 MB)', async () => {
    const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 700 }, (_, i) => [`p${i}`, { type: 'string', description: 'd'.repeat(30) }])) };
    const listed = Array.from({ length: 500 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(5000), inputSchema: schema }));
    const tools = [...builtinTools(), ...mcpTools([session(listed, () => ({}))], new Set())];
    const llm = scriptedLlm(['done']);
    const result = await runPlan(makePlan([makeStep('a', { input: 'hello' })]), { llm, tools, clock: new ManualClock() }).result;
    assert.equal(result.status, 'completed', JSON.stringify(result.steps));
    const request = llm.requests[0]!;
    const size = JSON.stringify(request.tools ?? []).length;
    assert.ok(size <= 2_000_000, `one agent request carries ${(size / 1e6).toFixed(1)} MB of tool definitions (${request.tools?.length} tools)`);
  });
});
