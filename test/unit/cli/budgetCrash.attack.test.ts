import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '../../..');
const builtCli = process.env['TASK_PLANNER_TEST_CLI'];
const cliCommand = builtCli ? [builtCli] : ['--import', 'tsx', join(root, 'src/cli/cli.ts')];

// Attack on --max-requests across a crash: a `run` killed (SIGKILL) while a model call is out, then `resume` with the
// same limit. What the killed process spent (a failed attempt its client retried, a reply, the call cut off) must count.
describe('attack: a SIGKILL mid-call, then resume, passes --max-requests', function () {
  this.timeout(90_000);
  const dir = temporaryDirectory('atk-budget-crash-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('the resumed run makes no request past the limit: 3 were spent before the kill', async () => {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    const steps = ['A', 'B', 'C'].map((id, index, ids) => ({ id, title: `Work ${id}`, kind: 'agent', dependsOn: index ? [ids[index - 1]] : [], input: 'work' }));
    const planFile = join(dir.path, 'p.plan.json');
    writeFileSync(planFile, JSON.stringify({ objective: 'o', steps }));
    // A: an attempt the server fails (the client retries it), then a reply; B: a call the server never answers.
    server.enqueue({ kind: 'error', status: 500 }, { kind: 'message', content: 'done' });
    server.on(matchers.any(), { kind: 'stall' });
    const limits = ['--base-url', server.baseURL, '--model', 'm', '--max-requests', '3'];
    const child = spawn(process.execPath, [...cliCommand, 'run', planFile, '--workspace', ws, '--json', ...limits], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let ended = false;
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      child.on('exit', (_code, signal) => {
        ended = true;
        done(signal);
      }),
    );
    const deadline = Date.now() + 30_000;
    while (server.chatRequests.length < 3) {
      if (ended || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the run made ${server.chatRequests.length} requests, not 3:\n${stderr}`);
      }
      await new Promise((done) => setTimeout(done, 10));
    }
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');

    server.reset();
    server.on(matchers.any(), { kind: 'message', content: 'done' });
    const runId = (readdirSync(join(ws, '.task-planner', 'runs')).find((name) => name.endsWith('.jsonl')) ?? '').slice(0, -'.jsonl'.length);
    const resumed = await runCli(['resume', runId, '--workspace', ws, '--json', ...limits]);
    // Seen before the fix: the resumed run started from 0 and sent 2 more requests (B again, and C): 5 under a limit of 3.
    assert.equal(server.chatRequests.length, 0, `requests past --max-requests 3 after the resume:\n${resumed.stderr}`);
    assert.equal(resumed.code, 3, resumed.stderr);
    const result = JSON.parse(resumed.stdout) as { status: string; pending?: { kind: string; prompt: string }[] };
    assert.equal(result.status, 'waiting');
    assert.equal(result.pending?.[0]?.kind, 'budget');
    assert.match(result.pending?.[0]?.prompt ?? '', /requests budget is used up: 3 LLM requests of 3/);
  });
});
