import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { runCli } from '../../support/runCli';

const apiKey = 'sk-exposure-TEST-4242424242';

/** The environment blocks (`/proc/PID/environ`) of the processes whose command line mentions `text`. */
function environsOfProcessesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) found.push(readFileSync(`/proc/${name}/environ`, 'utf8'));
    } catch {
      // Gone while listing.
    }
  }
  return found;
}

describe('the API key and commands the CLI runs', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-key-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it("an approved command cannot read the key from the CLI's environment (/proc/PID/environ)", async function () {
    if (process.platform !== 'linux') this.skip();
    const plan = {
      objective: 'x',
      steps: [
        { id: 'S1', title: 'Look at the parent', kind: 'tool', tool: 'run_command', args: { argv: ['sh', '-c', "tr '\\0' '\\n' < /proc/$PPID/environ"], allowFailure: true }, dependsOn: [] },
        { id: 'S2', title: 'Summarize', kind: 'agent', dependsOn: ['S1'], input: 'Summarize {{results.S1.stdout}}' },
      ],
    };
    // While the CLI waits for this reply, read its environment as any process of the same user could.
    let seen: string[] = [];
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
    server.on(() => true, () => {
      seen = environsOfProcessesMentioning(workspace.path);
      return { kind: 'message', content: 'Summarized.' };
    });
    const { code, stdout, stderr } = await runCli(['plan', 'Look around', '--workspace', workspace.path, '--base-url', server.baseURL, '--yes', '--json'], { OPENAI_API_KEY: apiKey, TP_VISIBLE_MARKER: 'still-here' });
    assert.equal(code, 0, stderr + stdout);
    assert.equal(seen.length, 1, 'the CLI process was found');
    assert.match(seen[0] ?? '', /TP_VISIBLE_MARKER=still-here/, 'its environment was readable');
    assert.ok(!(seen[0] ?? '').includes(apiKey), "the key is in the CLI's /proc/PID/environ");
    const journals = readdirSync(join(workspace.path, '.task-planner/runs')).map((file) => readFileSync(join(workspace.path, '.task-planner/runs', file), 'utf8'));
    for (const [where, text] of [['stdout', stdout], ['stderr', stderr], ['the journal', journals.join('\n')], ['the next model request', server.chatRequests[1]?.rawBody ?? '']] as const) {
      assert.ok(!text.includes(apiKey), `the key reached ${where}`);
    }
    assert.equal(server.chatRequests[1]?.headers.authorization, `Bearer ${apiKey}`, 'the CLI still used the key');
  });
});
