// Attacks on "an agent step cut off by a crash continues its conversation" (f26dba11), from the command line with a real
// SIGKILL: what the step changed before the kill must still count as its change once the run is resumed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FakeOpenAiServer, type FakeReply, type FakeRequest } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '../../..');
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cliCommand = builtCli ? [builtCli] : ['--import', 'tsx', join(root, 'src/cli/cli.ts')];

const toolResults = (request: FakeRequest): number => (request.body?.messages ?? []).filter((message) => message.role === 'tool').length;
const addBar = (id: string, path: string): FakeReply => ({
  kind: 'message',
  toolCalls: [{ id, name: 'edit_file', arguments: { path, edits: [{ search: 'foo', replace: 'foo\nbar' }] } }],
});
const coder = { coder: { prompt: 'You edit files.', tools: ['read_file', 'edit_file'] } };

describe('an agent step killed between its edits, then resumed: what it changed before the kill stays its change', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('cli-agent-resume-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  function setUp(plan: unknown, files: Record<string, string>): { ws: string; planFile: string; journal: () => string; runId: () => string } {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(ws, name), text);
    const planFile = join(dir.path, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const runs = join(ws, '.task-planner/runs');
    const runId = (): string => (existsSync(runs) ? (readdirSync(runs).find((name) => name.endsWith('.jsonl')) ?? '').slice(0, -'.jsonl'.length) : '');
    const journal = (): string => (runId() === '' ? '' : readFileSync(join(runs, `${runId()}.jsonl`), 'utf8'));
    return { ws, planFile, journal, runId };
  }

  /** Runs the CLI with `args` until the model is asked for turn 2 (it never answers) and turn 1's result is journaled, then SIGKILLs it. */
  async function killedAtTurnTwo(args: string[], journal: () => string): Promise<void> {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env['OPENAI_API_KEY'];
    delete env['TASK_PLANNER_API_KEY'];
    const child = spawn(process.execPath, [...cliCommand, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise((settle) => child.once('close', settle));
    for (let waited = 0; !(server.chatRequests.some((request) => toolResults(request) === 1) && journal().includes('"agent_tool_result"')); waited += 20) {
      if (waited > 60_000 || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`the agent never asked for its second turn: ${stderr}`);
      }
      await new Promise((settle) => setTimeout(settle, 20));
    }
    child.kill('SIGKILL');
    await closed;
  }

  it("a parallel step's whole-file write after the resume does not drop the edit the agent made before the kill", async () => {
    const { ws, planFile, journal, runId } = setUp(
      {
        objective: 'notes',
        agents: coder,
        steps: [
          { id: 'S1', title: 'Add bar', kind: 'agent', agent: 'coder', dependsOn: [], input: 'Add bar after foo in notes.txt' },
          { id: 'S2', title: 'Write notes', kind: 'tool', tool: 'write_file', args: { path: 'notes.txt', content: 'fresh\n' }, dependsOn: [] },
        ],
      },
      { 'notes.txt': 'foo\n' },
    );
    server.on((request) => toolResults(request) === 0, addBar('c1', 'notes.txt'));
    server.on((request) => toolResults(request) === 1, { kind: 'stall' }, 1);
    const model = ['--workspace', ws, '--base-url', server.baseURL, '--model', 'gpt-4o-mini'];
    // No terminal, no --yes: both steps wait for their approvals.
    const waiting = await runCli(['run', planFile, ...model]);
    assert.equal(waiting.code, 3, waiting.stderr);
    const edit = /(S1@\w+) \(approval\)/.exec(waiting.stdout)?.[1];
    assert.ok(edit, waiting.stdout);
    // S1's edit approved: it lands, and the process is killed while S1 waits for its model's second turn.
    await killedAtTurnTwo(['resume', runId(), ...model, '--approve', edit], journal);
    assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'foo\nbar\n');
    server.reset();
    server.on(() => true, { kind: 'message', content: 'Added bar.' });
    const resumed = await runCli(['resume', runId(), ...model, '--allow-file-changes']);
    // Seen before the fix: exit 0, both steps completed ("✔ S1 Add bar: Added bar." with no file named, "✔ S2 Write notes:
    // overwrote notes.txt"), notes.txt "fresh\n": the resume forgot that S1 had changed notes.txt, so the guard against a
    // whole-file write over a parallel step's change let S2 drop it. Without the kill, S2 is refused naming S1.
    assert.equal(readFileSync(join(ws, 'notes.txt'), 'utf8'), 'foo\nbar\n', resumed.stdout);
    assert.equal(resumed.code, 1, resumed.stderr);
    assert.match(resumed.stdout, /S2: notes\.txt was changed in this run by step S1 \("Add bar"\), which this step does not depend on/);
    assert.match(resumed.stdout, /✔ S1 Add bar: Added bar\. · changed notes\.txt\n/);
  });

  it("the step's summary line names the file it changed before the kill, and a command it defines asks naming the step", async () => {
    const { ws, planFile, journal, runId } = setUp(
      {
        objective: 'both',
        agents: { coder: { prompt: 'You edit files.', tools: ['read_file', 'edit_file', 'run_command'] } },
        steps: [{ id: 'S1', title: 'Edit both', kind: 'agent', agent: 'coder', dependsOn: [], input: 'Add bar after foo in package.json and b.txt, then test' }],
      },
      { 'b.txt': 'foo\n', 'package.json': '{ "scripts": { "test": "echo foo" } }\n' },
    );
    server.enqueue({ kind: 'message', toolCalls: [{ id: 'c1', name: 'edit_file', arguments: { path: 'package.json', edits: [{ search: 'foo', replace: 'foo\nbar' }] } }] });
    server.on(() => true, { kind: 'stall' }, 1);
    const model = ['--workspace', ws, '--base-url', server.baseURL, '--model', 'gpt-4o-mini', '--allow-file-changes', '--allow-command', 'npm test'];
    await killedAtTurnTwo(['run', planFile, ...model], journal);
    server.reset();
    server.enqueue(addBar('c2', 'b.txt'), { kind: 'message', toolCalls: [{ id: 'c3', name: 'run_command', arguments: { argv: ['npm', 'test'] } }] });
    const resumed = await runCli(['resume', runId(), ...model]);
    assert.equal(resumed.code, 3, resumed.stderr);
    assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'foo\nbar\n');
    // Seen before the fix: "⏸ S1 Edit both: awaiting approval" naming no file (nor "· changed b.txt" once it completed),
    // and the question blamed "package.json (on disk, since the run started: by a command or another program)".
    assert.match(resumed.stdout, /⏸ S1 Edit both: awaiting approval · changed package\.json, b\.txt\n/);
    assert.match(resumed.stdout, /this run changed package\.json \(by step S1\), which the command reads to decide what it runs: allow rules do not apply/);
  });
});
