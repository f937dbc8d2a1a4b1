import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import type { RunOptions } from '../../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../../src/core/engine/runEvents';
import { createOpenAiClient } from '../../../../../src/node/openAiClient';
import type { Plan } from '../../../../../src/core/plan/planSchema';
import { directAgentPrompt } from '../../../../../src/core/agent/stepPrompt';
import { createPlanningTools } from '../../../../../src/core/tools/planningTools';
import { askUserTool } from '../../../../../src/core/tools/askUserTool';
import { createToolRegistry } from '../../../../../src/core/tools/createToolRegistry';
import { listFilesTool } from '../../../../../src/core/tools/listFilesTool';
import { readFileTool } from '../../../../../src/core/tools/readFileTool';
import type { Tool } from '../../../../../src/core/tools/tool';
import { writeFileTool } from '../../../../../src/core/tools/writeFileTool';
import { FakeOpenAiServer, type FakeRequest } from '../../../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../../../fakes/manualClock';
import { createMemoryWorkspace, type MemoryWorkspace } from '../../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../../fakes/scriptedInteraction';
import { scriptedLlm } from '../../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../../support/randomPlans';
import type { CapabilityCatalogue } from '../../../../../src/core/capabilities/capabilityCatalogue';

const tools = createToolRegistry([readFileTool, listFilesTool, writeFileTool, askUserTool] as Tool[]);
const toolNames = (request: FakeRequest | undefined): string[] => (request?.body?.tools ?? []).map((tool) => tool.function.name);
const messagesOf = (request: FakeRequest | undefined) => request?.body?.messages ?? [];

describe('executeLlmStep: agent and gate steps through RunOptions.llm', function () {
  this.timeout(10_000);
  let server: FakeOpenAiServer;
  let workspace: MemoryWorkspace;

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
    workspace = createMemoryWorkspace({ 'a.txt': 'hello from a' });
  });
  afterEach(() => server.close());

  async function run(plan: Plan, options: Partial<RunOptions> = {}) {
    const clock = new ManualClock(0, { autoAdvance: true });
    const llm = createOpenAiClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini', clock });
    const events: RunEvent[] = [];
    const handle = runPlan(plan, { idSource: () => 'run-1', tools, workspace, llm, clock, agentLimits: { timeoutMs: Infinity }, ...options });
    handle.events.subscribe((event) => events.push(event));
    return { result: await handle.result, events, llm, clock };
  }

  describe('skills and instructions', () => {
    const catalogue: CapabilityCatalogue = {
      instructions: [{ kind: 'agents', path: 'AGENTS.md', directory: '', applyTo: [], text: 'AGENTS-TEXT', bytes: 11 }],
      skills: [{ name: 'release', description: 'Release notes.', tags: [], source: '.github/skills/release/SKILL.md', workspaceFolder: '.github/skills/release', text: 'SKILL-TEXT', bytes: 10 }],
      diagnostics: [],
    };

    it('puts the step\'s instructions and skills in its step prompt after its own text, before its attachments', async () => {
      server.enqueue({ kind: 'message', content: 'Done.' });
      const plan = makePlan([makeStep('S1', { agent: 'direct', skills: ['release'], input: 'Write notes', attachments: [{ kind: 'file', ref: 'a.txt' }] })]);
      const { result } = await run(plan, { capabilities: catalogue });
      assert.equal(result.status, 'completed', result.metadata.reason);
      const [system, user] = messagesOf(server.chatRequests[0]);
      assert.doesNotMatch(String(system?.content), /SKILL-TEXT|AGENTS-TEXT/);
      const text = String(user?.content);
      const order = ['## Your step: S1', '## Project instructions for this step', 'AGENTS-TEXT', '## Skills for this step', 'SKILL-TEXT', 'hello from a'].map((part) => text.indexOf(part));
      assert.ok(order.every((position, index) => position >= 0 && (index === 0 || position > order[index - 1]!)), `${JSON.stringify(order)}\n${text}`);
    });

    it('fails a step whose skill the run\'s catalogue lacks without calling the model, naming the skills there are', async () => {
      const plan = makePlan([makeStep('S1', { agent: 'direct', skills: ['release', 'gone\u001b[2J'] })]);
      const { result } = await run(plan, { capabilities: catalogue });
      assert.equal(result.status, 'failed');
      assert.equal(result.steps['S1']?.error, 'Step S1 uses the skill "gone\\u001b[2J", which this workspace does not have. Available skills: release.');
      assert.equal(server.chatRequests.length, 0);
      const { result: without } = await run(plan);
      assert.match(without.steps['S1']?.error ?? '', /uses the skills "release", "gone\\u001b\[2J", which this workspace does not have\. Available skills: none\.$/);
    });
  });

  it('runs an agent with its prompt and only its tools (plus ask_user), streams its text, and returns the answer', async () => {
    server.enqueue(
      { kind: 'message', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'hello from a' } }] },
      { kind: 'message', content: 'Copied a.txt to b.txt.', chunkSize: 5 },
    );
    const interaction = ScriptedInteraction.approvingAll();
    const plan = makePlan([makeStep('S1', { agent: 'copier', input: 'Copy a.txt to b.txt' })], { agents: { copier: { prompt: 'You copy files.', tools: ['read_file', 'write_file'] } } });
    const { result, events } = await run(plan, { interaction });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(result.results['S1'], { answer: 'Copied a.txt to b.txt.', changes: { applied: [{ operation: 'write_file', path: 'b.txt' }], rejected: [], failed: [] } });
    assert.deepEqual(result.steps['S1']?.changes, { applied: [{ operation: 'write_file', path: 'b.txt' }], rejected: [], failed: [] }, 'the step state keeps the changes');
    assert.equal(workspace.snapshot()['b.txt'], 'hello from a');
    assert.equal(interaction.approvals().length, 1);
    const [first, second] = server.chatRequests;
    assert.deepEqual(toolNames(first), ['read_file', 'write_file', 'ask_user']);
    assert.equal(first?.body?.stream, true);
    const [system, user] = messagesOf(first);
    assert.match(String(system?.content), /^You copy files\./);
    assert.match(String(user?.content), /## Objective\ntest objective/);
    assert.match(String(user?.content), /## Your step: S1\nCopy a.txt to b.txt/);
    const toolMessage = messagesOf(second).find((message) => message.role === 'tool');
    const envelope = JSON.parse(String(toolMessage?.content)) as { status: string; untrusted_data: string };
    assert.equal(envelope.status, 'ok');
    assert.match(envelope.untrusted_data, /hello from a/);
    const output = events.flatMap((event) => (event.type === 'step_output' ? [event.text] : [])).join('');
    assert.match(output, /→ read_file path: "a.txt"\n/);
    assert.match(output, /Copied a\.txt to b\.txt\./);
  });

  it('asks the user through ask_user; a deferred question suspends the step and resume answers it', async () => {
    const store = createMemoryRunStore();
    const ask = { kind: 'message' as const, toolCalls: [{ name: 'ask_user', arguments: { question: 'Which name?', suggestions: ['Ada'] } }] };
    server.enqueue(ask);
    const plan = makePlan([makeStep('S1', { agent: 'direct', input: 'Greet the user by name' })]);
    const first = await run(plan, { store });
    assert.equal(first.result.status, 'waiting');
    assert.deepEqual(first.result.pending?.map((request) => [request.stepId, request.kind, request.prompt]), [['S1', 'clarification', 'Which name?']]);

    server.enqueue(ask, { kind: 'message', content: 'Hello, Ada!' });
    const clock = new ManualClock(0, { autoAdvance: true });
    const llm = createOpenAiClient({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'gpt-4o-mini', clock });
    const resumed = await resumeRun('run-1', { store, tools, workspace, llm, clock, agentLimits: { timeoutMs: Infinity }, answers: { S1: 'Ada' } }).result;
    assert.equal(resumed.status, 'completed', resumed.metadata.reason);
    assert.deepEqual(resumed.results['S1'], { answer: 'Hello, Ada!', changes: { applied: [], rejected: [], failed: [] } });
    assert.deepEqual(toolNames(server.chatRequests[1]), ['ask_user'], 'the direct agent has no tools but ask_user');
    const answer = messagesOf(server.chatRequests[2]).find((message) => message.role === 'tool');
    assert.match(String(answer?.content), /Ada/);
  });

  it('condenses a gate\'s dependency results with one call and no tools; the next agent sees the gate result', async () => {
    server.enqueue({ kind: 'message', content: 'fact A' }, { kind: 'message', content: 'fact B' }, { kind: 'message', content: 'A and B' }, { kind: 'message', content: 'used A and B' });
    const plan = makePlan([
      makeStep('a', { agent: 'direct' }),
      makeStep('b', { agent: 'direct', dependsOn: ['a'] }),
      makeStep('g', { kind: 'synthesis_gate', input: undefined, agent: undefined, dependsOn: ['a', 'b'] }),
      makeStep('c', { agent: 'direct', dependsOn: ['g'], input: 'Use {{results.g}}' }),
    ]);
    const { result } = await run(plan, { maxConcurrency: 1 });
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.equal(result.results['g'], 'A and B');
    const gate = server.chatRequests[2];
    assert.equal(gate?.body?.tools, undefined);
    const gateUser = String(messagesOf(gate)[1]?.content);
    assert.match(gateUser, /### a\nfact A/);
    assert.match(gateUser, /### b\nfact B/);
    assert.match(String(messagesOf(gate)[0]?.content), /synthesis gate/);
    const last = String(messagesOf(server.chatRequests[3])[1]?.content);
    assert.match(last, /Use A and B/);
    assert.match(last, /## What happened so far\n\[a\] Step a: fact A\n\[b\] Step b: fact B\n\[g\] Step g: A and B/, 'the rolling summary carries completed steps');
  });

  it('lets stepRunner take priority over llm', async () => {
    const { result } = await run(makePlan([makeStep('S1')]), { stepRunner: async () => 'from the runner' });
    assert.equal(result.results['S1'], 'from the runner');
    assert.equal(server.chatRequests.length, 0);
  });

  it('fails an agent step whose tools the run does not have, without calling the model', async () => {
    const plan = makePlan([makeStep('S1', { agent: 'x', critical: false })], { agents: { x: { prompt: 'x', tools: ['run_command'] } } });
    const { result } = await run(plan);
    assert.equal(result.steps['S1']?.status, 'skipped');
    assert.match(result.steps['S1']?.error ?? '', /lists the tool "run_command", which this run does not have/);
    assert.equal(server.chatRequests.length, 0);
  });
});

describe('executeLlmStep with a scripted model', () => {
  const run = async (plan: Plan, options: Partial<RunOptions> = {}) => runPlan(plan, { idSource: () => 'run-1', clock: new ManualClock(0, { autoAdvance: true }), agentLimits: { timeoutMs: Infinity }, ...options }).result;

  it('runs the built-in "direct" agent with its prompt and no tools', async () => {
    const llm = scriptedLlm(['Answered directly.']);
    const result = await run(makePlan([makeStep('S1', { agent: 'direct' })]), { llm, tools: createToolRegistry([readFileTool] as Tool[]) });
    assert.deepEqual(result.results['S1'], { answer: 'Answered directly.', changes: { applied: [], rejected: [], failed: [] } });
    assert.equal(llm.requests[0]?.tools, undefined);
    assert.match(String(llm.requests[0]?.messages[0]?.content), /^You answer directly from what you are given, without tools\./);
    assert.ok(String(llm.requests[0]?.messages[0]?.content).startsWith(directAgentPrompt));
  });

  it('runs the built-in "default" agent with its prompt and every tool of the run', async () => {
    const llm = scriptedLlm(['Done.']);
    await run(makePlan([makeStep('S1')]), { llm, tools: createToolRegistry([readFileTool, listFilesTool] as Tool[]) });
    assert.match(String(llm.requests[0]?.messages[0]?.content), /^You are a careful software assistant working in the user's VS Code workspace\./);
    assert.deepEqual(llm.requests[0]?.tools?.map((tool) => tool.name), ['read_file', 'list_files']);
  });

  it('gives a gate its dependencies but not the summary of what happened so far', async () => {
    const llm = scriptedLlm(['S1 result.', 'Condensed.']);
    const plan = makePlan([makeStep('S1'), makeStep('G', { kind: 'synthesis_gate', agent: undefined, dependsOn: ['S1'] })]);
    const result = await run(plan, { llm });
    assert.equal(result.results['G'], 'Condensed.');
    const gatePrompt = String(llm.requests[1]?.messages[1]?.content);
    assert.match(gatePrompt, /S1 result\./);
    assert.doesNotMatch(gatePrompt, /What happened so far/);
  });

  it('names the tools the run has, or none, when an agent lists one it lacks, and does not retry', async () => {
    const plan = makePlan([makeStep('S1', { agent: 'x', critical: false, onFailure: 'retry', maxAttempts: 3 })], { agents: { x: { prompt: 'x', tools: ['run_command'] } } });
    const withTools = await run(plan, { llm: scriptedLlm(['unused']), tools: createToolRegistry([readFileTool, listFilesTool] as Tool[]) });
    assert.equal(withTools.steps['S1']?.error, 'The agent "x" of step S1 lists the tool "run_command", which this run does not have. Registered tools: read_file, list_files.');
    assert.equal(withTools.steps['S1']?.attempts, 1);
    const without = await run(plan, { llm: scriptedLlm(['unused']) });
    assert.match(without.steps['S1']?.error ?? '', /Registered tools: none\.$/);
  });

  it('gives an agent that may keep a session plan the planning tools\' instructions, and one without those tools none', async () => {
    const planningTools = createPlanningTools(() => {
      throw new Error('the planning tools are not called here');
    });
    const llm = scriptedLlm(['Planned.', 'Done.']);
    const plan = makePlan([makeStep('S1', { agent: 'planner' }), makeStep('S2', { agent: 'worker', dependsOn: ['S1'] })], {
      agents: { planner: { prompt: 'You plan.', tools: ['planning_setup_plan'] }, worker: { prompt: 'You work.', tools: ['read_file'] } },
    });
    const result = await run(plan, { llm, tools: createToolRegistry([readFileTool, ...planningTools] as Tool[]) });
    assert.equal(result.status, 'completed', result.metadata.reason);
    const systemOf = (start: string): string => String(llm.requests.find((request) => String(request.messages[0]?.content).startsWith(start))?.messages[0]?.content);
    assert.match(systemOf('You plan.'), /## Session plan/);
    assert.doesNotMatch(systemOf('You work.'), /## Session plan/);
  });
});

