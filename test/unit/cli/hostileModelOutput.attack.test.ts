import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

// Attacks as a hostile model on the command line's terminal output: every text must arrive escaped and bounded.
const ESC = '\u001b';
const osc8 = `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`;
const osc52 = `${ESC}]52;c;cm0gLXJmIH4K\u0007`;
const csi = `${ESC}[2J${ESC}[H\u009b31m`;
const bidi = 'safe\u202Etxt.exe\u2066';
const tags = 'ok\u{E0049}\u{E0047}\u{E004E}\u{E004F}\u{E0052}\u{E0045}'; // invisible "IGNORE" in tag characters
const hostile = `${osc8}${osc52}${csi}${bidi}\r${tags}\u200b\uFEFF`;

/** The characters a terminal acts on, or shows as nothing, that must never be printed raw. */
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b\ufeff]|[\u{E0000}-\u{E007F}]/u;

function firstRaw(text: string): string | undefined {
  const match = raw.exec(text);
  if (!match) return undefined;
  return `U+${match[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${match.index}: ${JSON.stringify(text.slice(Math.max(0, match.index - 40), match.index + 40))}`;
}

describe('attack: a hostile model writes to the CLI terminal', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('atk-cli-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    writeFileSync(join(workspace.path, 'README.md'), '# Demo\n');
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('plan + run: hostile step ids, titles, inputs and agent answers print no raw control, direction or invisible characters', async () => {
    const plan = {
      objective: hostile,
      steps: [
        { id: `S1${ESC}]0;pwned\u0007`, title: `${hostile}${'T'.repeat(200_000)}`, kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
        { id: 'S2', title: hostile, kind: 'agent', dependsOn: [`S1${ESC}]0;pwned\u0007`], input: `Do it ${hostile}` },
      ],
    };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) }, { kind: 'message', content: `${hostile}${'A'.repeat(300_000)}` });
    const { code, stdout, stderr } = await runCli(['plan', 'Summarize', '--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'm', '--yes'], { TASK_PLANNER_API_KEY: 'k' });
    writeFileSync('/tmp/atk/plan-run.out', `code ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
    assert.equal(firstRaw(stdout), undefined, 'stdout');
    assert.equal(firstRaw(stderr), undefined, 'stderr');
    assert.ok(stdout.length + stderr.length < 100_000, `${stdout.length + stderr.length} characters printed`);
  });
});
