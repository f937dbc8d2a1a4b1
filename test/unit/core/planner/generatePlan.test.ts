import assert from 'node:assert/strict';
import { z } from 'zod';
import { isLlmError } from '../../../../src/core/llm/llmError';
import { createOpenAiClient } from '../../../../src/node/openAiClient';
import { countTokens } from '../../../../src/core/llm/tokenCount';
import { generatePlan } from '../../../../src/core/planner/generatePlan';
import type { PlannerStep } from '../../../../src/core/planner/planStepStream';
import type { LlmClient } from '../../../../src/core/servicePorts';
import type { Tool, ToolRegistry } from '../../../../src/core/tools/tool';
import { FakeOpenAiServer, matchers } from '../../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';

const readFile: Tool = { name: 'read_file', description: 'Reads a workspace file.', inputSchema: z.object({ path: z.string() }), effects: 'read', run: async () => '' };
const writeFile: Tool = { name: 'write_file', description: 'Writes a workspace file.', inputSchema: z.object({ path: z.string(), content: z.string() }), effects: 'write', run: async () => '' };
const registry: ToolRegistry = { names: () => [readFile.name, writeFile.name], get: (name) => [readFile, writeFile].find((tool) => tool.name === name) };

const goodPlan = {
  objective: 'Add a README',
  steps: [
    { id: 'S001', title: 'Read package.json', kind: 'tool', tool: 'read_file', args: { path: 'package.json' }, dependsOn: [] },
    { id: 'S002', title: 'Draft README', kind: 'agent', input: 'Write a README from {{results.S001}}', dependsOn: ['S001'] },
    { id: 'S003', title: 'Write README', kind: 'tool', tool: 'write_file', args: { path: 'README.md', content: '{{results.S002}}' }, dependsOn: ['S002'], verification: 'result !== undefined' },
  ],
};
const badPlan = { ...goodPlan, steps: [{ ...goodPlan.steps[0]!, tool: 'fetch_url' }, ...goodPlan.steps.slice(1)] };

describe('generatePlan against the fake OpenAI server', function () {
  this.timeout(10_000);
  let server: FakeOpenAiServer;
  let llm: LlmClient;
  const signal = new AbortController().signal;

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
    llm = createOpenAiClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini', clock: new ManualClock(0, { autoAdvance: true }) });
  });
  afterEach(() => server.close());

  it('asks with the planning prompt and plannerOutputSchema, and returns plan, critique and usage', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(goodPlan), usage: { prompt_tokens: 900, completion_tokens: 300 } });
    const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
    const result = await generatePlan('Add a README to this project', { llm, tools: registry, signal, clock, workspace: { files: ['package.json', 'src/index.ts'] } });
    assert.deepEqual(result.plan.steps.map((step) => step.id), ['S001', 'S002', 'S003']);
    assert.equal(result.plan.objective, 'Add a README to this project');
    assert.equal(result.plan.createdAt, '2026-03-01T10:00:00.000Z');
    assert.equal(result.plan.steps[1]?.onFailure, 'stop', 'defaults are filled in');
    assert.deepEqual(result.diagnostics, []);
    assert.ok(result.critique.score >= 1 && result.critique.score <= 10);
    assert.deepEqual(result.usage, { promptTokens: 900, completionTokens: 300 });
    assert.equal(result.requests, 1);
    assert.equal(result.repaired, false);
    const body = server.chatRequests[0]?.body;
    assert.equal(body?.response_format?.type, 'json_schema');
    assert.equal(body?.response_format?.json_schema?.name, 'task_plan');
    const system = String(body?.messages?.[0]?.content);
    assert.match(system, /read_file: Reads a workspace file\.\n {2}parameters: \{.*"path"/);
    assert.match(system, /Strategy: reason and act/);
    const user = String(body?.messages?.[1]?.content);
    assert.match(user, /Add a README to this project/);
    assert.match(user, /src\/index\.ts/);
  });

  it('sends validation errors back in one repair round and returns the repaired plan', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(badPlan) }, { kind: 'message', content: JSON.stringify(goodPlan) });
    const result = await generatePlan('Add a README', { llm, tools: registry, signal });
    assert.equal(result.repaired, true);
    assert.equal(result.requests, 2);
    assert.equal(result.plan.steps[0]?.tool, 'read_file');
    const repair = String(server.chatRequests[1]?.body?.messages?.at(-1)?.content);
    assert.match(repair, /step S001: .*"fetch_url", which is not available/);
  });

  // A newcomer's trial with a small local model: its first step had no `dependsOn`, and the one repair round asked only
  // about that, so the plan's real problem (a tool that does not exist) reached the user as a plan that cannot start.
  it('reads a step without dependsOn as depending on nothing, so the repair round goes to the plan\'s real problems', async () => {
    const { dependsOn: _left, ...firstStep } = badPlan.steps[0]!;
    const sloppy = `Here is the plan:\n\`\`\`json\n${JSON.stringify({ ...badPlan, steps: [firstStep, ...badPlan.steps.slice(1)] })}\n\`\`\``;
    server.enqueue({ kind: 'message', content: sloppy }, { kind: 'message', content: JSON.stringify(goodPlan) });
    const result = await generatePlan('Add a README', { llm, tools: registry, signal });
    const repair = String(server.chatRequests[1]?.body?.messages?.at(-1)?.content);
    assert.match(repair, /step S001: .*"fetch_url", which is not available/);
    assert.doesNotMatch(repair, /dependsOn/);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(result.plan.steps[0]?.dependsOn, []);
  });

  it('returns a plan that is still invalid after the repair round with its errors as diagnostics', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(badPlan) }, { kind: 'message', content: JSON.stringify(badPlan) });
    const result = await generatePlan('Add a README', { llm, tools: registry, signal });
    assert.equal(server.chatRequests.length, 2, 'only one repair round');
    assert.deepEqual(result.diagnostics.map((diagnostic) => diagnostic.code), ['unknown_tool']);
    assert.ok(result.warnings.some((warning) => /Error in step S001/.test(warning)));
  });

  it('streams each step as soon as the model has finished writing it', async () => {
    const text = JSON.stringify(goodPlan, null, 2);
    server.enqueue({ kind: 'message', content: text, chunkSize: 7 });
    let received = 0;
    const counting: LlmClient = { model: llm.model, chat: (request) => llm.chat({ ...request, onDelta: (delta) => { if (delta.kind === 'text') received += delta.text.length; request.onDelta?.(delta); } }) };
    const seen: { step: PlannerStep; index: number; receivedAt: number }[] = [];
    const result = await generatePlan('Add a README', { llm: counting, tools: registry, signal, onPartialStep: (step, index) => seen.push({ step, index, receivedAt: received }) });
    assert.deepEqual(seen.map((entry) => [entry.index, entry.step.id]), [[0, 'S001'], [1, 'S002'], [2, 'S003']]);
    assert.ok(seen[0]!.receivedAt < text.indexOf('"S002"'), 'the first step arrives before the second is written');
    assert.ok(seen[1]!.receivedAt < text.length);
    assert.equal(result.plan.steps.length, 3);
    assert.equal(server.chatRequests[0]?.body?.stream, true);
  });

  it('streams steps again after the repair round', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(badPlan) }, { kind: 'message', content: JSON.stringify(goodPlan) });
    const seen: string[] = [];
    await generatePlan('Add a README', { llm, tools: registry, signal, onPartialStep: (step, index) => seen.push(`${index}:${step.tool ?? step.kind}`) });
    assert.deepEqual(seen, ['0:fetch_url', '1:agent', '2:write_file', '0:read_file', '1:agent', '2:write_file']);
  });

  it('plans through text mode when the server rejects structured output formats', async () => {
    server.on(matchers.responseFormat('json_schema'), { kind: 'error', status: 400, message: 'unsupported response_format' });
    server.on(matchers.responseFormat('json_object'), { kind: 'error', status: 400, message: 'unsupported response_format' });
    server.on(matchers.any(), { kind: 'message', content: `Here is the plan:\n\`\`\`json\n${JSON.stringify(goodPlan)}\n\`\`\`` });
    const seen: number[] = [];
    const result = await generatePlan('Add a README', { llm, tools: registry, signal, onPartialStep: (_, index) => seen.push(index) });
    assert.equal(result.mode, 'text');
    assert.equal(result.plan.steps.length, 3);
    assert.deepEqual(seen, [0, 1, 2]);
  });

  it('survives a 429 and a cut stream on the way', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '2' } }, { kind: 'cut', content: JSON.stringify(goodPlan), afterChars: 120 }, { kind: 'message', content: JSON.stringify(goodPlan) });
    const seen: number[] = [];
    const result = await generatePlan('Add a README', { llm, tools: registry, signal, onPartialStep: (_, index) => seen.push(index) });
    assert.equal(result.plan.steps.length, 3);
    assert.equal(server.chatRequests.length, 3);
    assert.deepEqual(seen.slice(-3), [0, 1, 2]);
  });

  it('keeps the workspace snapshot within its token budget however large the workspace', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(goodPlan) });
    const files = Array.from({ length: 20_000 }, (_, index) => `src/module${index % 50}/file${index}.ts`);
    const openFiles = [{ path: 'src/big.ts', text: 'export const value = 42;\n'.repeat(5_000) }, { path: 'README.md', text: '# Title\n' }];
    await generatePlan('Refactor the modules', { llm, tools: registry, signal, snapshotTokenBudget: 1_500, workspace: { rootLabel: '/repo', files, openFiles, attachments: [{ kind: 'link', ref: 'https://example.com/spec' }] } });
    const user = String(server.chatRequests[0]?.body?.messages?.[1]?.content);
    assert.ok(countTokens(user) <= 1_500 + countTokens('Objective:\nRefactor the modules\n\n'), `user message has ${countTokens(user)} tokens`);
    assert.match(user, /Files \(20000\) by folder: src\/module0\/ 400, src\/module1\/ 400/);
    assert.match(user, /--- README\.md/);
  });

  it('sends image attachments as image parts', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(goodPlan) });
    await generatePlan('Build the UI in this sketch', { llm, tools: registry, signal, workspace: { attachments: [{ kind: 'image', ref: 'data:image/png;base64,iVBORw0KGgo=', label: 'sketch.png' }] } });
    const content = server.chatRequests[0]?.body?.messages?.[1]?.content as { type: string }[];
    assert.deepEqual(content.map((part) => part.type), ['text', 'image_url']);
  });

  it('describes plain tool lists and validates tool names against them', async () => {
    server.enqueue({ kind: 'message', content: JSON.stringify(goodPlan) }, { kind: 'message', content: JSON.stringify(goodPlan) });
    const result = await generatePlan('Add a README', { llm, tools: [{ name: 'read_file', description: 'Reads.' }], signal });
    assert.equal(result.repaired, true, 'write_file is not among the tools');
    assert.match(String(server.chatRequests[0]?.body?.messages?.[0]?.content), /- read_file: Reads\./);
  });

  it('refuses an empty request and reports cancellation as an LlmError', async () => {
    await assert.rejects(generatePlan('  ', { llm, tools: registry, signal }), /request is empty/);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(generatePlan('Do it', { llm, tools: registry, signal: controller.signal }), (error: unknown) => isLlmError(error) && error.kind === 'aborted');
  });
});

describe('generatePlan with a scripted model', () => {
  const signal = new AbortController().signal;
  const prompt = (llm: ReturnType<typeof scriptedLlm>, index: number): string => (llm.requests[index]?.messages ?? []).map((message) => String(message.content)).join('\n');

  it('sends back only errors, each with its step, and reports what is left as worded warnings with the diagnostics', async () => {
    const withWarning = { ...badPlan, agents: { helper: { prompt: 'p', tools: ['teleport'] } } };
    const llm = scriptedLlm([JSON.stringify(withWarning)]);
    const result = await generatePlan('  Add a README  ', { llm, tools: registry, signal });
    assert.equal(llm.requests.length, 2);
    assert.match(prompt(llm, 1), /step S001: Step "S001" uses tool "fetch_url", which is not available\. Choose one of: read_file, write_file\./);
    assert.doesNotMatch(prompt(llm, 1), /Agent "helper" lists tool "teleport"/);
    assert.equal(result.plan.objective, 'Add a README');
    assert.deepEqual(result.warnings, [
      'Error in step S001: Step "S001" uses tool "fetch_url", which is not available. Choose one of: read_file, write_file.',
      'Warning: Agent "helper" lists tool "teleport", which is not available; it will not be offered.',
    ]);
    assert.deepEqual(result.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity]), [['unknown_tool', 'error'], ['unknown_tool', 'warning']]);
    assert.ok(result.critique.issues.some((issue) => issue.stepId === 'S001' && /fetch_url/.test(issue.message)), 'the critique checks the same tools');
  });

  it('accepts a plan with only warnings in one request', async () => {
    const llm = scriptedLlm([JSON.stringify({ ...goodPlan, agents: { helper: { prompt: 'p', tools: ['teleport'] } } })]);
    const result = await generatePlan('Add a README', { llm, tools: registry, signal });
    assert.equal(llm.requests.length, 1);
    assert.equal(result.repaired, false);
  });

  it('validates tool names against a plain tool list, and leaves out tools a registry cannot give', async () => {
    const plain = scriptedLlm([JSON.stringify(goodPlan)]);
    const listed = await generatePlan('Add a README', { llm: plain, tools: [{ name: 'read_file', description: 'Reads.' }, { name: 'write_file', description: 'Writes.' }], signal });
    assert.deepEqual(listed.diagnostics, []);
    const holey: ToolRegistry = { names: () => ['read_file', 'write_file', 'ghost'], get: (name) => registry.get(name) };
    const llm = scriptedLlm([JSON.stringify(goodPlan)]);
    await generatePlan('Add a README', { llm, tools: holey, signal });
    assert.doesNotMatch(prompt(llm, 0), /ghost/);
  });

  it('uses the given plan id, tells the model the user\'s feedback, and reports the cost when the model has a price', async () => {
    const llm = scriptedLlm([JSON.stringify(goodPlan)], { costPerCall: 0.25 });
    const result = await generatePlan('Add a README', { llm, tools: registry, signal, planId: 'plan-7', feedback: 'Keep the README under 50 lines.' });
    assert.equal(result.plan.id, 'plan-7');
    assert.match(prompt(llm, 0), /Keep the README under 50 lines\./);
    assert.equal(result.costUsd, 0.25);
    const unpriced = await generatePlan('Add a README', { llm: scriptedLlm([JSON.stringify(goodPlan)]), tools: registry, signal });
    assert.equal(Object.hasOwn(unpriced, 'costUsd'), false);
  });
});
