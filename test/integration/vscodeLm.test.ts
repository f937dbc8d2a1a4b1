// Task Planner's VS Code language-model adapter (src/vscode/vscodeLmClient.ts) inside the real extension host, against
// a scripted chat model registered with vscode.lm.registerLanguageModelChatProvider by the fixture extension
// test/fixtures/fakeChatModel (loaded as a second extensionDevelopmentPath by runIntegration.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TaskPlannerApi } from './testBuild/testExtension';
import { planningQuestionTool, planningReadTools } from '../../src/core/planner/investigateRequest';

/** One reply of the fake model (see test/fixtures/fakeChatModel/extension.js). */
interface ScriptedReply {
  text?: string | string[];
  toolCalls?: { callId: string; name: string; input: object }[];
  hang?: 'untilCancelled' | 'forever';
  error?: string;
  errorCode?: 'NoPermissions' | 'Blocked' | 'NotFound';
}

/** A content part the fake model received, as plain data. */
type ReceivedPart =
  | { type: 'text'; value: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; content: string[] }
  | { type: 'data' | 'unknown' };

/** One request the fake model received. */
interface ReceivedRequest {
  model: string;
  messages: { role: string; parts: ReceivedPart[] }[];
  tools: { name: string; description: string; inputSchema?: object }[];
  cancelled: boolean;
}

/** What the fixture's activate() returns. */
interface FakeChatModel {
  vendor: string;
  model: { id: string; name: string; family: string };
  setEnabled(value: boolean): void;
  script(...replies: ScriptedReply[]): void;
  requests(): ReceivedRequest[];
  pending(): number;
  reset(): void;
}

async function planner(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension, 'Task Planner is not loaded');
  return extension.activate();
}

async function until(probe: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function planJson(plan: object): ScriptedReply {
  const text = JSON.stringify(plan);
  // Two parts, so the adapter's streaming is exercised.
  return { text: [text.slice(0, Math.floor(text.length / 2)), text.slice(Math.floor(text.length / 2))] };
}

/** A plan with one agent step that may read files. */
function agentPlan(input: string): ScriptedReply {
  return planJson({
    objective: 'Read the readme',
    agents: { reader: { prompt: 'You read files in the workspace and report what they say.', tools: ['read_file'] } },
    steps: [{ id: 'A1', title: 'Find the first heading of README.md', kind: 'agent', agent: 'reader', input, dependsOn: [], onFailure: 'stop', maxAttempts: 1 }],
  });
}

function textOf(message: { parts: ReceivedPart[] }): string {
  return message.parts.map((part) => (part.type === 'text' ? part.value : '')).join('');
}

describe('Task Planner with a VS Code chat model (scripted provider through vscode.lm)', function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration('taskPlanner');
  let fake: FakeChatModel;

  before(async () => {
    const extension = vscode.extensions.getExtension<FakeChatModel>('task-planner-tests.fake-chat-model');
    assert.ok(extension, 'the fixture extension test/fixtures/fakeChatModel is not loaded');
    fake = await extension.activate();
    fake.reset();
    fake.setEnabled(true);
    await config().update('llm.provider', 'vscode', vscode.ConfigurationTarget.Workspace);
    await config().update('llm.vscodeModelFamily', fake.model.family, vscode.ConfigurationTarget.Workspace);
  });

  afterEach(() => fake.reset());

  after(async () => {
    fake.setEnabled(false);
    await config().update('llm.provider', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('llm.vscodeModelFamily', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('is offered by vscode.lm.selectChatModels once registered', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: fake.vendor });
    assert.deepEqual(
      models.map((model) => ({ id: model.id, vendor: model.vendor, family: model.family, name: model.name })),
      [{ id: fake.model.id, vendor: fake.vendor, family: fake.model.family, name: fake.model.name }],
    );
  });

  it('"Plan task" plans with the chat model: the plan format in the prompt, only read-only tools offered', async () => {
    const api = await planner();
    fake.script(
      planJson({
        objective: 'Read and list',
        steps: [
          { id: 'R1', title: 'Read the readme', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
          { id: 'L1', title: 'List the sources', kind: 'tool', tool: 'list_files', args: { glob: 'src/**' }, dependsOn: ['R1'] },
        ],
      }),
    );
    const outcome = await api.planTask('Read the readme, then list the sources (VS Code model)', { accept: false });
    assert.deepEqual(outcome.plan?.steps.map((step) => [step.id, step.tool, step.dependsOn]), [['R1', 'read_file', []], ['L1', 'list_files', ['R1']]]);
    assert.deepEqual(api.planTreeLabels(), ['1. Read the readme', '2. List the sources']);
    const requests = fake.requests();
    assert.equal(requests.length, 1, 'one planning request (the missing JSON-schema mode is settled without asking the model)');
    const [request] = requests;
    assert.equal(request?.model, fake.model.id);
    // Planning may look at the workspace first (issue 30): only tools that read, and the question to the user.
    const offered = (request?.tools ?? []).map((tool) => tool.name).sort();
    assert.ok(offered.length > 0, 'planning offers the read-only tools to investigate with');
    const allowed: readonly string[] = [...planningReadTools, planningQuestionTool];
    assert.deepEqual(offered.filter((name) => !allowed.includes(name)), [], 'planning offers nothing that writes, runs or fetches');
    const texts = request?.messages.map(textOf) ?? [];
    assert.ok(texts.some((text) => text.includes('Read the readme, then list the sources (VS Code model)')), 'the request is not in the prompt');
    // The plan's format travels in the planning rules; the JSON Schema itself only in a repair round, which a valid plan needs none of.
    assert.ok(texts.some((text) => /a JSON object \{"objective", "agents"\?, "steps"\}/.test(text)), 'the plan format is not in the prompt');
    assert.ok(request?.messages.every((message) => message.role === 'user'), 'system instructions travel as user messages (the API has no system role)');
  });

  it('an agent step calls a tool through the LM API and gets its result back as a LanguageModelToolResultPart', async () => {
    const api = await planner();
    fake.script(
      agentPlan('Read README.md and report its first heading.'),
      { text: 'Reading the file.', toolCalls: [{ callId: 'call-1', name: 'read_file', input: { path: 'README.md' } }] },
      { text: ['The first heading of README.md ', 'is "tiny-notes".'] },
    );
    const outcome = await api.planTask('Find the first heading of the readme', { accept: true });
    const result = await outcome.run;
    assert.equal(result?.status, 'completed', JSON.stringify(result?.steps));
    // An agent's result is its answer and what happened to files (it read one, changed none).
    assert.deepEqual(result?.results['A1'], { answer: 'The first heading of README.md is "tiny-notes".', changes: { applied: [], rejected: [], failed: [] } });
    assert.equal(fake.pending(), 0);
    const [, first, second] = fake.requests();
    assert.equal(fake.requests().length, 3);
    assert.deepEqual(first?.tools.map((tool) => tool.name).sort(), ['ask_user', 'read_file'], 'the agent is offered its own tools (and ask_user)');
    assert.equal((first?.tools.find((tool) => tool.name === 'read_file')?.inputSchema as { type?: string } | undefined)?.type, 'object');
    assert.match(textOf(first?.messages.at(-1) ?? { parts: [] }), /report its first heading/);
    const assistant = second?.messages.find((message) => message.role === 'assistant');
    assert.deepEqual(assistant?.parts, [
      { type: 'text', value: 'Reading the file.' },
      { type: 'toolCall', callId: 'call-1', name: 'read_file', input: { path: 'README.md' } },
    ]);
    const results = second?.messages.flatMap((message) => message.parts).filter((part) => part.type === 'toolResult') ?? [];
    assert.equal(results.length, 1, 'no LanguageModelToolResultPart went back');
    const [toolResult] = results as { callId: string; content: string[] }[];
    assert.equal(toolResult?.callId, 'call-1');
    assert.match(toolResult?.content.join('') ?? '', /# tiny-notes/, 'the tool result carries the file');
  });

  it('"auto" takes the chat model when VS Code offers one, the heuristic planner when it does not', async () => {
    const api = await planner();
    await config().update('llm.provider', 'auto', vscode.ConfigurationTarget.Workspace);
    await config().update('llm.vscodeModelFamily', undefined, vscode.ConfigurationTarget.Workspace);
    try {
      fake.script(planJson({ objective: 'x', steps: [{ id: 'M1', title: 'Planned by the chat model', kind: 'tool', tool: 'list_files', args: {}, dependsOn: [] }] }));
      await api.planTask('List the files', { accept: false });
      assert.deepEqual(api.planTreeLabels(), ['1. Planned by the chat model']);
      assert.equal(fake.requests().length, 1);
      fake.setEnabled(false);
      assert.deepEqual(await vscode.lm.selectChatModels({ vendor: fake.vendor }), []);
      await api.planTask('Read README.md, then list the files', { accept: false });
      assert.equal(fake.requests().length, 1, 'the withdrawn model was asked');
      assert.equal(api.planTreeLabels().length, 2, `the heuristic planner splits the request: ${JSON.stringify(api.planTreeLabels())}`);
    } finally {
      fake.setEnabled(true);
      await config().update('llm.provider', 'vscode', vscode.ConfigurationTarget.Workspace);
      await config().update('llm.vscodeModelFamily', fake.model.family, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('cancelling the run cancels the model request: the provider sees its token cancelled', async () => {
    const api = await planner();
    fake.script(agentPlan('Wait for the model.'), { hang: 'untilCancelled' });
    const outcome = await api.planTask('Wait for the model', { accept: true });
    await until(() => fake.requests().length === 2, 'the agent step to ask the model');
    await vscode.commands.executeCommand('taskPlanner.cancelRun');
    const result = await outcome.run;
    assert.equal(result?.status, 'cancelled');
    assert.notEqual(result?.steps['A1']?.status, 'completed');
    await until(() => fake.requests()[1]?.cancelled === true, 'the provider\'s cancellation token');
  });

  it('cancelling the run does not wait for a provider that ignores its cancellation token', async () => {
    const api = await planner();
    fake.script(agentPlan('Wait for the model.'), { hang: 'forever' });
    const outcome = await api.planTask('Wait for a stuck model', { accept: true });
    await until(() => fake.requests().length === 2, 'the agent step to ask the model');
    await vscode.commands.executeCommand('taskPlanner.cancelRun');
    const result = await Promise.race([outcome.run, new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 5_000))]);
    assert.ok(result !== 'stuck', 'the run still waits for the stuck model 5 s after Cancel');
    assert.equal(result?.status, 'cancelled');
    await until(() => fake.requests()[1]?.cancelled === true, 'the provider\'s cancellation token');
  });

  it('a model that falls silent is given up after taskPlanner.timeouts.llmRequestMs, in planning and in an agent step', async () => {
    const api = await planner();
    await config().update('timeouts.llmRequestMs', 1_500, vscode.ConfigurationTarget.Workspace);
    try {
      fake.script({ hang: 'forever' });
      const started = Date.now();
      const planned = await api.planTask('Plan with a silent model', { accept: false });
      assert.equal(planned.plan, undefined);
      assert.ok(Date.now() - started < 10_000, `planning took ${Date.now() - started} ms`);
      await until(() => fake.requests()[0]?.cancelled === true, 'the silent planning request to be cancelled');
      fake.script(agentPlan('Ask the silent model.'), { text: 'Let me think', hang: 'forever' });
      const outcome = await api.planTask('Ask a model that stops mid-reply', { accept: true });
      const result = await outcome.run;
      assert.equal(result?.steps['A1']?.status, 'failed');
      assert.match(result?.steps['A1']?.error ?? '', /The VS Code model Fake planner sent nothing for 1500 ms \(taskPlanner\.timeouts\.llmRequestMs\)/);
      await until(() => fake.requests()[2]?.cancelled === true, 'the silent agent request to be cancelled');
    } finally {
      await config().update('timeouts.llmRequestMs', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('an error from the model fails the agent step with a message that names the model and the cause', async () => {
    const api = await planner();
    fake.script(agentPlan('Ask the model.'), { error: 'the fake model is overloaded' });
    const outcome = await api.planTask('Ask an overloaded model', { accept: true });
    const result = await outcome.run;
    assert.equal(result?.status, 'failed');
    assert.equal(result?.steps['A1']?.status, 'failed');
    assert.match(result?.steps['A1']?.error ?? '', /Request to the VS Code model Fake planner failed: .*the fake model is overloaded/);
  });

  it('a refused planning request (LanguageModelError.NoPermissions) leaves no plan behind', async () => {
    const api = await planner();
    fake.script(planJson({ objective: 'before', steps: [{ id: 'K1', title: 'Kept from before', kind: 'tool', tool: 'list_files', args: {}, dependsOn: [] }] }));
    await api.planTask('List the files', { accept: false });
    fake.script({ error: 'the user did not allow Task Planner to use this model', errorCode: 'NoPermissions' });
    const outcome = await api.planTask('Plan with a model that refuses', { accept: false });
    assert.equal(outcome.plan, undefined);
    assert.deepEqual(api.planTreeLabels(), ['1. Kept from before'], 'the earlier plan was replaced');
    assert.equal(fake.requests().length, 2, 'a refusal is not retried');
  });
});
