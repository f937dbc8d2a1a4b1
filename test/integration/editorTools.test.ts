// Tools from the editor in the real extension host: a language-model tool another extension contributes
// (test/fixtures/fakeChatModel registers fixture_echo with vscode.lm.registerTool), called by a plan step and by an
// agent, and the editor's own intelligence: get_diagnostics over the TypeScript service, find_symbols over the
// workspace symbol provider.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Plan, Step } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

/** What the fixture's activate() returns, as far as these tests use it. */
interface Fixture {
  model: { family: string };
  setEnabled(value: boolean): void;
  script(...replies: { text?: string; toolCalls?: { callId: string; name: string; input: object }[] }[]): void;
  requests(): { messages: { parts: { type: string; callId?: string; content?: string[] }[] }[]; tools: { name: string }[] }[];
  toolCalls(): { input: unknown; hadToken: boolean }[];
  reset(): void;
}

const root = vscode.workspace.workspaceFolders?.[0]?.uri;

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

function plan(id: string, steps: Step[], agents: Plan['agents'] = {}): Plan {
  return { id, version: 1, objective: id, createdAt: '2026-01-01T00:00:00.000Z', agents, steps };
}

function toolStep(id: string, tool: string, args: Record<string, unknown>, dependsOn: string[] = []): Step {
  return { id, title: `Call ${tool}`, kind: 'tool', tool, args, dependsOn, onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop' };
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Tools from the editor', function () {
  this.timeout(150_000);
  const config = () => vscode.workspace.getConfiguration('taskPlanner');
  let fixture: Fixture;

  before(async () => {
    const extension = vscode.extensions.getExtension<Fixture>('task-planner-tests.fake-chat-model');
    assert.ok(extension, 'the fixture extension test/fixtures/fakeChatModel is not loaded');
    fixture = await extension.activate();
    fixture.reset();
    await config().update('approvalPolicy', 'commandsOnly', vscode.ConfigurationTarget.Global);
    // Other extensions' tools are offered only when the user names them.
    await config().update('tools.extensionTools', ['fixture_echo'], vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('tools.extensionTools', undefined, vscode.ConfigurationTarget.Global);
    fixture.setEnabled(false);
    await config().update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
    await config().update('llm.provider', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('llm.vscodeModelFamily', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it("offers only the tools a plan may use: none of VS Code's internal or chat-control tools, nor planning_*", async () => {
    const offered = (await api()).offeredToolNames();
    assert.ok(offered.includes('vscode__fixture_echo'), offered.join(', '));
    assert.ok(offered.includes('read_file'));
    const unwanted = offered.filter((name) => /planning_|_internal|inline_chat|task_complete|runSubagent|run_in_terminal/.test(name));
    assert.deepEqual(unwanted, []);
    assert.ok(offered.length <= 25, `${offered.length} tools: ${offered.join(', ')}`);
  });

  it("a plan step calls another extension's tool as vscode__fixture_echo, only after the user allowed it", async () => {
    const planner = await api();
    const before = fixture.toolCalls().length;
    const run = planner.startPlan(plan('contributed-step', [toolStep('E1', 'vscode__fixture_echo', { message: 'from a step' })]));
    assert.deepEqual(await planner.nextPrompt(), { stepId: 'E1', kind: 'approval' });
    assert.equal(fixture.toolCalls().length, before, 'the tool ran before the user allowed it');
    await vscode.commands.executeCommand('taskPlanner.approve', 'E1');
    const result = await run;
    assert.equal(result.status, 'completed', JSON.stringify(result.steps.E1));
    assert.deepEqual(result.results.E1, { text: 'echo: from a step\\u001b[31m' });
    assert.deepEqual(fixture.toolCalls().at(-1), { input: { message: 'from a step' }, hadToken: false });
  });

  it("a plan step with arguments the tool's schema refuses fails before anything is asked or called", async () => {
    const planner = await api();
    const before = fixture.toolCalls().length;
    const result = await planner.startPlan(plan('contributed-bad-args', [toolStep('E2', 'vscode__fixture_echo', { text: 'no message' })]));
    assert.equal(result.status, 'failed');
    assert.equal(fixture.toolCalls().length, before);
  });

  it('an agent calls the contributed tool: the model is offered it, the call is allowed, and the result reaches the model', async () => {
    const planner = await api();
    fixture.setEnabled(true);
    await config().update('llm.provider', 'vscode', vscode.ConfigurationTarget.Workspace);
    await config().update('llm.vscodeModelFamily', fixture.model.family, vscode.ConfigurationTarget.Workspace);
    fixture.script({ toolCalls: [{ callId: 'c1', name: 'vscode__fixture_echo', input: { message: 'from an agent' } }] }, { text: 'The tool said hello.' });
    const run = planner.startPlan(
      plan(
        'contributed-agent',
        [
          {
            id: 'A1',
            title: 'Ask the echo tool',
            kind: 'agent',
            agent: 'echoer',
            input: 'Echo "from an agent".',
            dependsOn: [],
            onFailure: 'stop',
            maxAttempts: 1,
            critical: true,
            onVerificationFailure: 'stop',
          },
        ],
        {
          echoer: { prompt: 'You call tools.', tools: ['vscode__fixture_echo'] },
        },
      ),
    );
    assert.deepEqual(await planner.nextPrompt(), { stepId: 'A1', kind: 'approval' });
    await vscode.commands.executeCommand('taskPlanner.approve', 'A1');
    const result = await run;
    assert.equal(result.status, 'completed', JSON.stringify(result.steps.A1));
    assert.deepEqual(fixture.toolCalls().at(-1)?.input, { message: 'from an agent' });
    const [first, second] = fixture.requests();
    assert.ok(
      first?.tools.some((tool) => tool.name === 'vscode__fixture_echo'),
      'the model was not offered the tool',
    );
    const results = second?.messages.flatMap((message) => message.parts.filter((part) => part.type === 'toolResult')) ?? [];
    assert.ok(
      results.some((part) => part.content?.join('').includes('echo: from an agent')),
      JSON.stringify(results),
    );
  });

  it('get_diagnostics sees the type error a step wrote', async () => {
    const planner = await api();
    assert.ok(root);
    // The TypeScript service starts on the first TypeScript file it sees, which can take long on a busy machine: start
    // it first, so the step below measures the tool, not the service's start.
    const warm = vscode.Uri.joinPath(root, 'warm-up.ts');
    await vscode.workspace.fs.writeFile(warm, new TextEncoder().encode('export const warm: number = "not a number";\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(warm));
    await until(() => (vscode.languages.getDiagnostics(warm).length > 0 ? true : undefined), 'the TypeScript service to start');
    const result = await planner.startPlan(
      plan('diagnostics', [
        toolStep('W1', 'write_file', { path: 'src/broken.ts', content: 'export const answer: number = "forty-two";\n' }),
        toolStep('D1', 'get_diagnostics', { paths: ['src/broken.ts'] }, ['W1']),
      ]),
    );
    assert.equal(result.status, 'completed', JSON.stringify(result.steps.D1));
    const found = result.results.D1 as { problems: { path: string; severity: string; line: number; message: string; source?: string }[]; total: number };
    const problem = found.problems.find((entry) => entry.severity === 'error');
    assert.ok(problem, JSON.stringify(found));
    assert.equal(problem.path, 'src/broken.ts');
    assert.equal(problem.line, 1);
    assert.match(problem.message, /not assignable to type 'number'/);
    assert.equal(problem.source, 'ts');
  });

  it('find_symbols finds a function of the demo workspace, with its path, line and text', async () => {
    const planner = await api();
    assert.ok(root);
    // The TypeScript service answers workspace-symbol queries for the projects of open files: open one, as a user would have.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(root, 'src', 'cli.js')));
    await until(async () => {
      const symbols = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', 'searchNotes');
      return symbols.length > 0 ? true : undefined;
    }, 'the TypeScript service to index the workspace');
    const result = await planner.startPlan(plan('symbols', [toolStep('F1', 'find_symbols', { query: 'searchNotes' })]));
    assert.equal(result.status, 'completed', JSON.stringify(result.steps.F1));
    const { symbols } = result.results.F1 as { symbols: { name: string; kind: string; path: string; line: number; column: number; text: string }[] };
    const found = symbols.find((symbol) => symbol.name === 'searchNotes');
    assert.ok(found, JSON.stringify(symbols));
    assert.deepEqual(found && { path: found.path, line: found.line, column: found.column, kind: found.kind }, {
      path: 'src/notes.js',
      line: 20,
      column: 17,
      kind: 'function',
    });
    assert.match(found?.text ?? '', /^export function searchNotes\(notes, query\)/);
  });

  it('go_to_definition names a definition outside the workspace by its package only, never by its path', async () => {
    const planner = await api();
    const result = await planner.startPlan(
      plan('outside-definition', [
        toolStep('W2', 'write_file', { path: 'src/uses.ts', content: 'console.log("x");\nexport const n: number = 1;\n' }),
        toolStep('G1', 'go_to_definition', { path: 'src/uses.ts', line: 1, column: 9 }, ['W2']),
        toolStep('G2', 'find_references', { path: 'src/uses.ts', line: 2, column: 14 }, ['W2']),
      ]),
    );
    assert.equal(result.status, 'completed', JSON.stringify(result.steps));
    const { locations } = result.results.G1 as { locations: ({ outside: string } | { path: string })[] };
    assert.ok(locations.length > 0, 'no definition of console.log');
    assert.deepEqual(locations, [{ outside: 'package typescript, outside the workspace' }]);
    const references = result.results.G2 as { locations: { path: string; line: number; column: number; text: string }[]; total: number };
    assert.deepEqual(references.locations, [{ path: 'src/uses.ts', line: 2, column: 14, text: 'export const n: number = 1;' }]);
  });
});
