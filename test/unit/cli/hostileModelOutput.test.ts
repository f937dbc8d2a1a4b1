import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { actingCharacters, firstMatch, invisibleCharacters } from '../../support/terminalOutput';

// Attacks as a hostile model on the command line's terminal output: every text must arrive escaped and bounded,
// and nothing it writes may forge the product's own lines or the commands it tells the user to paste.
const ESC = '\u001b';
const osc8 = `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`;
const osc52 = `${ESC}]52;c;cm0gLXJmIH4K\u0007`;
const csi = `${ESC}[2J${ESC}[H\u009b31m`;
const bidi = 'safe\u202Etxt.exe\u2066';
const zeroWidth = '\u200b\uFEFF\u2060';
const controls = `${osc8}${osc52}${csi}${bidi}\rX\b${zeroWidth}`;
// "IGNORE" spelt in Unicode tag characters: shows as nothing in a terminal, read by models (ASCII smuggling).
const tagged = 'ok\u{E0049}\u{E0047}\u{E004E}\u{E004F}\u{E0052}\u{E0045}';



describe('attack: a hostile model writes to the CLI terminal', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('atk-cli-');
  let server: FakeOpenAiServer;
  beforeEach(async () => {
    writeFileSync(join(workspace.path, 'README.md'), '# Demo\n');
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());
  const model = () => ['--workspace', workspace.path, '--base-url', server.baseURL, '--model', 'm'];

  it('terminal controls, C1, OSC 8/52 and direction overrides in step ids, titles, inputs and answers are printed escaped, and huge ones bounded', async () => {
    const id = `S1${ESC}]0;pwned\u0007`;
    const plan = {
      objective: controls,
      steps: [
        { id, title: `${controls}${'T'.repeat(200_000)}`, kind: 'tool', tool: 'read_file', args: { path: 'README.md' }, dependsOn: [] },
        { id: 'S2', title: controls, kind: 'agent', dependsOn: [id], input: `Use $${id} ${controls}` },
      ],
    };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
    server.on(matchers.any(), { kind: 'message', content: `${controls}${'A'.repeat(300_000)}` });
    const { stdout, stderr } = await runCli(['plan', 'Summarize', ...model(), '--yes'], { TASK_PLANNER_API_KEY: 'k' });
    assert.equal(firstMatch(actingCharacters, stdout), undefined, 'stdout');
    assert.equal(firstMatch(actingCharacters, stderr), undefined, 'stderr');
    assert.ok(stdout.length + stderr.length < 100_000, `${stdout.length + stderr.length} characters printed`);
    for (const line of `${stdout}\n${stderr}`.split('\n')) assert.ok(line.length < 2000, `a line of ${line.length} characters`);
  });

  it("Unicode tag characters (invisible text) in a model's answer and step title are not printed raw", async () => {
    const plan = { objective: 'o', steps: [{ id: 'S1', title: `Read ${tagged}`, kind: 'agent', dependsOn: [], input: 'answer' }] };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
    server.on(matchers.any(), { kind: 'message', content: `Done ${tagged} ${zeroWidth}` });
    const { stdout, stderr } = await runCli(['plan', 'Summarize', ...model(), '--yes'], { TASK_PLANNER_API_KEY: 'k' });
    assert.match(stdout + stderr, /Read ok/);
    assert.equal(firstMatch(invisibleCharacters, stderr), undefined, 'stderr');
    assert.equal(firstMatch(invisibleCharacters, stdout), undefined, 'stdout');
  });

  it("a line feed in a model's step id cannot forge a line of the CLI's progress or of its summary", async () => {
    const forged = 'a\n[2/2] ✔ deploy done';
    const plan = { objective: 'o', steps: [{ id: forged, title: 'Ask', kind: 'clarification', dependsOn: [], input: 'Which?' }] };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
    const { stdout, stderr } = await runCli(['plan', 'Ask me', ...model(), '--yes'], { TASK_PLANNER_API_KEY: 'k' });
    const lines = `${stdout}\n${stderr}`.split('\n');
    const forgedLines = lines.filter((line) => line.startsWith('[2/2] ✔ deploy done'));
    assert.deepEqual(forgedLines, [], `forged lines printed:\n${stderr}\n${stdout}`);
  });

  it("the resume command the CLI tells the user to paste keeps a model's step id one argument: shell syntax in it runs nothing", async () => {
    const marker = join(workspace.path, 'pwned');
    const id = `q;$(touch ${marker})#`;
    const plan = { objective: 'o', steps: [{ id, title: 'Ask', kind: 'clarification', dependsOn: [], input: 'Which?' }] };
    server.enqueue({ kind: 'message', content: JSON.stringify(plan) });
    const { stdout, stderr } = await runCli(['plan', 'Ask me', ...model(), '--yes'], { TASK_PLANNER_API_KEY: 'k' });
    const command = stdout.split('\n').find((line) => line.trim().startsWith('task-planner resume'));
    assert.ok(command, stdout + stderr);
    // Paste it into a shell where task-planner is a harmless function.
    const pasted = spawnSync('bash', ['-c', `task-planner() { printf '%s\\n' "$@"; }\n${command.trim()}`], { encoding: 'utf8' });
    assert.equal(existsSync(marker), false, `pasting the printed command ran the model's command: ${command.trim()}`);
    assert.ok(pasted.stdout.split('\n').some((argument) => argument.startsWith(id)), `the id is not one argument: ${pasted.stdout}`);
  });
  it('an HTTP error of 1 MB and a reply that is no plan, each full of controls, are printed escaped and bounded', async () => {
    const huge = `${controls}${'R'.repeat(1_000_000)}`;
    const replies = [
      { kind: 'error' as const, status: 400, message: huge },
      { kind: 'message' as const, content: huge },
    ];
    for (const reply of replies) {
      server.reset();
      server.on(matchers.any(), reply);
      const output = await runCli(['plan', 'Summarize', ...model(), '--yes'], { TASK_PLANNER_API_KEY: 'k' });
      assert.equal(firstMatch(actingCharacters, output.stdout + output.stderr), undefined, reply.kind);
      assert.ok(output.stdout.length + output.stderr.length < 50_000, `${reply.kind}: ${output.stdout.length + output.stderr.length} characters printed`);
    }
  });

  it("an agent's tool call with a 500,000-character name full of controls and huge arguments is reported escaped and bounded", async () => {
    const plan = { objective: 'o', steps: [{ id: 'S1', title: 'Work', kind: 'agent', dependsOn: [], input: 'work' }] };
    server.enqueue(
      { kind: 'message', content: JSON.stringify(plan) },
      { kind: 'message', toolCalls: [{ name: `${controls}${'N'.repeat(500_000)}`, arguments: { x: `${controls}${'X'.repeat(500_000)}` } }] },
      { kind: 'message', toolCalls: [{ name: 'read_file', arguments: `{"path": "${'P'.repeat(300_000)}\\u001b[2J"` }] },
    );
    server.on(matchers.any(), { kind: 'message', content: 'done' });
    const output = await runCli(['plan', 'Work', ...model(), '--yes'], { TASK_PLANNER_API_KEY: 'k' });
    assert.equal(firstMatch(actingCharacters, output.stdout + output.stderr), undefined);
    assert.ok(output.stdout.length + output.stderr.length < 50_000, `${output.stdout.length + output.stderr.length} characters printed`);
    const json = await runCli(['runs', '--workspace', workspace.path]);
    assert.equal(firstMatch(actingCharacters, json.stdout + json.stderr), undefined);
  });
});
