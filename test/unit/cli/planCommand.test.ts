import assert from 'node:assert/strict';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';

const apiKey = 'sk-cli-SECRET-987654';

const cli = runCli;

describe('task-planner plan', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-plan-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    writeFileSync(join(workspace.path, 'README.md'), '# Demo\n');
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('plans with the model at --base-url, shows the critique, runs with --yes, writes files, and never prints the key', async () => {
    const plan = {
      objective: 'x',
      steps: [
        { id: 'S1', title: 'Read the readme', kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
        { id: 'S2', title: 'Write a changelog', kind: 'agent', dependsOn: ['S1'], input: 'Write CHANGELOG.md for {{results.S1.content}}' },
      ],
    };
    server.enqueue(
      { kind: 'message', content: JSON.stringify(plan) },
      { kind: 'message', toolCalls: [{ name: 'write_file', arguments: { path: 'CHANGELOG.md', content: '# Changelog\n' } }] },
      { kind: 'message', content: 'Wrote CHANGELOG.md.' },
    );
    const { code, stdout, stderr } = await cli(['plan', 'Add a changelog', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--strategy', 'plan_act_reflect', '--yes', '--json'], { TASK_PLANNER_API_KEY: apiKey });
    assert.equal(code, 0, stderr + stdout);
    const output = JSON.parse(stdout) as { plan: { objective: string; steps: { id: string }[] }; critique: { score: number }; started: boolean; result: { status: string; results: Record<string, unknown> } };
    assert.equal(output.plan.objective, 'Add a changelog');
    assert.deepEqual(output.plan.steps.map((step) => step.id), ['S1', 'S2']);
    assert.equal(output.started, true);
    assert.equal(output.result.status, 'completed');
    assert.deepEqual(output.result.results['S2'], { answer: 'Wrote CHANGELOG.md.', changes: { applied: [{ operation: 'write_file', path: 'CHANGELOG.md' }], rejected: [], failed: [] } });
    assert.equal(readFileSync(join(workspace.path, 'CHANGELOG.md'), 'utf8'), '# Changelog\n');
    assert.match(stderr, /Critique: Score \d+\/10[:.]/);
    assert.match(stderr, /1\. S1 Read the readme \(tool read_file\)/);
    const [planning, agent] = server.chatRequests;
    assert.equal(planning?.headers.authorization, `Bearer ${apiKey}`);
    assert.match(JSON.stringify(planning?.body?.messages), /Strategy: plan, act, reflect/);
    assert.match(JSON.stringify(planning?.body?.messages), /README\.md/, 'the workspace snapshot lists files');
    assert.match(JSON.stringify(agent?.body?.messages), /# Demo/);
    assert.ok(!stdout.includes(apiKey) && !stderr.includes(apiKey), 'the API key was printed');
  });

  it('falls back to the heuristic planner without a key or base URL, and does not start without --yes or a terminal', async () => {
    const { code, stdout, stderr } = await cli(['plan', 'List the files, then write a summary', '--workspace', workspace.path, '--json'], {});
    assert.equal(code, 0, stderr);
    assert.match(stderr, /heuristic planner/);
    assert.match(stderr, /Not started\..*--yes/);
    const output = JSON.parse(stdout) as { started: boolean; plan: { steps: unknown[] } };
    assert.equal(output.started, false);
    assert.ok(output.plan.steps.length >= 2);
    assert.equal(server.requests.length, 0);
  });

  it('refuses a plan that cannot start as bad input (exit 2), with --yes or without, never advising --yes, and makes no run', async () => {
    const plan = { objective: 'x', steps: [{ id: 'S1', title: 'Use a tool', kind: 'tool', tool: 'no_such_tool', args: {}, dependsOn: [] }] };
    for (const yes of [[], ['--yes']]) {
      for (let reply = 0; reply < 3; reply++) server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
      const { code, stdout, stderr } = await cli(['plan', 'Do x', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'm', '--json', ...yes], {});
      assert.equal(code, 2, stderr);
      assert.match(stderr, /The plan cannot start as it is; nothing was started:\n {2}- .*no_such_tool/);
      assert.doesNotMatch(stderr, /--yes|Not started|Run \S+ failed/);
      assert.equal((JSON.parse(stdout) as { started: boolean }).started, false);
    }
    const runs = await cli(['runs', '--workspace', workspace.path, '--json']);
    assert.deepEqual(JSON.parse(runs.stdout), []);
  });

  it('shows each step\'s checks under it', async () => {
    const { code, stderr } = await cli(['plan', 'Create a file notes.md with a todo list, then delete old.log', '--workspace', workspace.path], {});
    assert.equal(code, 0, stderr);
    assert.match(stderr, /1\. S001 Create a file notes\.md with a todo list \(manual\)\n {5}checks: file exists notes\.md\n/);
    assert.match(stderr, /2\. S002 Delete old\.log \(tool delete_file, after S001, asks approval\)\n {5}checks: file absent old\.log\n/);
  });

  it('refuses an unknown strategy and a missing request', async () => {
    const strategy = await cli(['plan', 'x', '--strategy', 'yolo'], {});
    assert.equal(strategy.code, 2);
    assert.match(strategy.stderr, /--strategy must be one of react, plan_act_reflect, goal_decompose_route_synthesise/);
    const missing = await cli(['plan'], {});
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /plan needs a request/);
  });
});
