import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { outsideCode } from '../../support/markdownOutsideCode';
import { actionCommand } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '../../..');

interface ActionRun {
  code: number | null;
  log: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * Runs the action's entry point (the built one in `npm test`) as GitHub runs it: no terminal, INPUT_* and the GITHUB_* files in its
 * environment, those files in `files` (the runner's own folder, outside the workspace).
 */
function runAction(workspace: string, files: string, inputs: Record<string, string>): Promise<ActionRun> {
  const output = join(files, 'output');
  const summary = join(files, 'summary.md');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: workspace, RUNNER_TEMP: files };
  delete env['OPENAI_API_KEY'];
  delete env['TASK_PLANNER_API_KEY'];
  // GitHub names each input INPUT_<NAME> in upper case, hyphens kept.
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...actionCommand], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, log, outputs: parseOutputs(readFileSync(output, 'utf8')), summary: readFileSync(summary, 'utf8') }));
  });
}

/** The `name<<DELIMITER … DELIMITER` blocks of a GITHUB_OUTPUT file, as GitHub reads them. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const match = /^([\w-]+)<<(.+)$/.exec(lines[index] ?? '');
    if (!match) continue;
    const value: string[] = [];
    while (lines[++index] !== match[2]) value.push(lines[index] ?? '');
    outputs[match[1]!] = value.join('\n');
  }
  return outputs;
}

/**
 * Starts `command` (the action, or the step's shell around it) on a plan whose one command, `cat gate`, blocks on the
 * FIFO `gate` of the workspace, and reads the started process's `/proc/<pid>/environ` while it waits there: no timer
 * decides when. Opening the FIFO for writing returns once the plan's command has opened it.
 */
async function environWhileGated(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; log: string; environ: string }> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const closed = new Promise<number | null>((done) => child.on('close', done));
  const gate = await open(join(env['GITHUB_WORKSPACE'] ?? cwd, 'gate'), 'w');
  let environ: string;
  try {
    environ = readFileSync(`/proc/${child.pid}/environ`, 'latin1');
  } finally {
    await gate.write('open\n');
    await gate.close();
  }
  return { code: await closed, log, environ };
}

function writePlan(workspace: string, steps: unknown[]): string {
  writeFileSync(join(workspace, 'plan.json'), JSON.stringify({ objective: 'CI run', steps }));
  return 'plan.json';
}

const writeStep = { id: 'write', title: 'Write the notes', tool: 'write_file', args: { path: 'out/notes.txt', content: 'from CI\n' } };

describe('GitHub Action entry point (action.yml), run with the environment GitHub gives it', function () {
  this.timeout(120_000);
  const workspace = temporaryDirectory('action-ws-');
  // The runner's files (GITHUB_OUTPUT, the summary, RUNNER_TEMP) beside the workspace, removed after each test as it is.
  const runner = temporaryDirectory('action-runner-');

  it('completed: a file change the workflow allows is made; summary, outputs and journal written; exit 0', async () => {
    const plan = writePlan(workspace.path, [writeStep]);
    const run = await runAction(workspace.path, runner.path, { plan, 'allow-file-changes': 'true' });
    assert.equal(run.code, 0, run.log);
    assert.equal(readFileSync(join(workspace.path, 'out/notes.txt'), 'utf8'), 'from CI\n');
    assert.equal(run.outputs['status'], 'completed');
    assert.equal(run.outputs['changed-files'], 'out/notes.txt');
    assert.match(run.outputs['run-id'] ?? '', /^\d{8}-\d{6}-[0-9a-f]{6}$/);
    assert.match(run.summary, new RegExp(`^## Task Planner: run ${run.outputs['run-id'] ?? ''} completed`, 'm'));
    assert.match(run.summary, /^- out\/notes\\\.txt$/m);
    const journal = run.outputs['journal-dir'] ?? '';
    assert.ok(readdirSync(journal).includes(`${run.outputs['run-id']}.jsonl`), `journal files: ${readdirSync(journal).join(', ')}`);
    // The CLI's progress is shown with workflow commands stopped, and they are resumed after it.
    const token = /::stop-commands::([0-9a-f-]+)/.exec(run.log)?.[1];
    assert.ok(token !== undefined && run.log.includes(`::${token}::`), run.log);
  });

  it('failed: a critical step that fails fails the run; exit 1, status failed', async () => {
    const plan = writePlan(workspace.path, [{ id: 'read', title: 'Read the missing file', tool: 'read_file', args: { path: 'missing.txt' }, maxAttempts: 1, critical: true }]);
    const run = await runAction(workspace.path, runner.path, { plan });
    assert.equal(run.code, 1, run.log);
    assert.equal(run.outputs['status'], 'failed');
    assert.match(run.summary, /^## Task Planner: run \S+ failed$/m);
    assert.match(run.summary, /\| read: Read the missing file \| failed \| 1 \| .*missing\\\.txt.* \|/);
    assert.match(run.log, /^::error title=Task Planner::Run ended: failed \(failed: read\)\. See the job summary\.$/m);
  });

  it('partly done: a failed step that did not stop the run says so, with why, and the run is annotated (a newcomer saw "skipped" and no error)', async () => {
    const plan = writePlan(workspace.path, [
      { id: 'lint', title: 'Lint', tool: 'read_file', args: { path: 'missing.txt' }, maxAttempts: 1, critical: false },
      writeStep,
    ]);
    const run = await runAction(workspace.path, runner.path, { plan, 'allow-file-changes': 'true' });
    assert.equal(run.code, 5, run.log);
    assert.equal(run.outputs['status'], 'partial');
    assert.match(run.summary, /^\| lint: Lint \| failed \(did not stop the run\) \| 1 \| .*missing\\\.txt.* \|$/m);
    // Each step named by its title too (a checklist's S1…S6 said nothing on their own).
    assert.match(run.summary, /^\| write: Write the notes \| completed \| 1 \| {2}\|$/m);
    assert.match(run.log, /^::error title=Task Planner::Run ended: partly done \(failed: lint\)\. See the job summary\.$/m);
  });

  it('says for each request which input allows it: the command as a line to add, a change outside the step\'s files in the plan\'s writes', async () => {
    const plan = writePlan(workspace.path, [
      { id: 'version', title: 'Bump the version', tool: 'write_file', args: { path: 'VERSION', content: '2.0.0\n' }, writes: ['CHANGELOG.md'] },
      { id: 'shell', title: 'Run a shell', tool: 'run_command', args: { argv: ['bash', '-c', 'true'] } },
      { id: 'status', title: 'Show the status', tool: 'run_command', args: { argv: ['git', 'status', '--short'] } },
    ]);
    const run = await runAction(workspace.path, runner.path, { plan, 'allow-file-changes': 'true' });
    assert.equal(run.code, 3, run.log);
    assert.match(run.summary, /To allow it: add VERSION to the `writes` of step version in the plan: a change outside the files a step said it would change asks even with `allow-file-changes: true`\./);
    assert.match(run.summary, /To allow it: no rule can allow it \(the rule "bash -c true" would let bash run any code.*\); only `dangerously-approve-everything: true` does\./);
    assert.match(run.summary, /To allow it: add this line to the `allow-commands` input: git status --short\n/);
  });

  it('waiting: a command no rule allows is not run; the run stops waiting, says what it wanted and which input allows it; exit 3', async () => {
    const plan = writePlan(workspace.path, [{ id: 'status', title: 'Show the version', tool: 'run_command', args: { argv: ['git', '--version'] } }, writeStep]);
    const run = await runAction(workspace.path, runner.path, { plan });
    assert.equal(run.code, 3, run.log);
    assert.equal(run.outputs['status'], 'waiting');
    assert.equal(existsSync(join(workspace.path, 'out/notes.txt')), false, 'no file change without allow-file-changes');
    assert.match(run.summary, /### Waiting: what the run wanted/);
    assert.match(run.summary, /wants to run:\n\s+"git" "--version"/);
    assert.match(run.summary, /wants to write out\/notes\.txt/);
    // git needs its subcommand in a rule: this one no rule can allow (the summary had said to add it to allow-commands, which refused it).
    assert.match(run.summary, /To allow it: no rule can allow it \(the rule "git --version" would let git run any code/);
    assert.match(run.summary, /To allow it: set `allow-file-changes: true`\.\n/);
    assert.match(run.log, /::error title=Task Planner::The run is waiting for what it was not given: status \(an approval\), write \(an approval\)/);
  });

  it('an allow rule of the workflow runs that command and nothing else', async () => {
    const plan = writePlan(workspace.path, [
      { id: 'version', title: 'Show the version', tool: 'run_command', args: { argv: ['git', 'version'] } },
      { id: 'status', title: 'Show the version again', tool: 'run_command', args: { argv: ['git', '--version'] } },
    ]);
    const run = await runAction(workspace.path, runner.path, { plan, 'allow-commands': '# the version only\ngit version\n' });
    assert.equal(run.code, 3, run.log);
    const journal = readFileSync(join(run.outputs['journal-dir'] ?? '', `${run.outputs['run-id']}.jsonl`), 'utf8');
    assert.match(journal, /"type":"step_completed","stepId":"version"/);
    assert.match(run.summary, /\| version: Show the version \| completed \|/);
    assert.match(run.summary, /\*\*status\*\* \(an approval\)/);
  });

  it('dangerously-approve-everything approves every request, and says so in the log', async () => {
    const plan = writePlan(workspace.path, [{ id: 'status', title: 'Show the version', tool: 'run_command', args: { argv: ['git', '--version'] } }, writeStep]);
    const run = await runAction(workspace.path, runner.path, { plan, 'dangerously-approve-everything': 'true' });
    assert.equal(run.code, 0, run.log);
    assert.match(run.log, /::warning title=Task Planner::dangerously-approve-everything is on/);
  });

  it('a rule that would allow any code stops the action before anything runs (exit 2), naming the rule', async () => {
    const plan = writePlan(workspace.path, [writeStep]);
    const run = await runAction(workspace.path, runner.path, { plan, 'allow-commands': 'npm test\nbash -c', 'allow-file-changes': 'true' });
    assert.equal(run.code, 2, run.log);
    assert.equal(run.outputs['status'], 'error');
    assert.equal(run.outputs['journal-dir'], '', 'no journal folder is named when nothing ran');
    assert.equal(existsSync(join(workspace.path, 'out/notes.txt')), false);
    // Named as the workflow wrote it: the input and its rule, not the command line's option (a newcomer read --allow-command).
    assert.match(run.summary, /did not run[\s\S]*The input allow-commands, rule 2: the rule "bash -c" would let bash run any code/);
    assert.match(run.log, /^::error title=Task Planner::The input allow-commands, rule 2: /m);
  });

  it('a plan input that names no file, or a plan the command line refuses, is said in the workflow\'s words', async () => {
    const missing = await runAction(workspace.path, runner.path, { plan: 'plans/none.json' });
    assert.equal(missing.code, 2, missing.log);
    assert.match(missing.summary, /The input plan names plans\/none\.json, which is not a file \(looked for .*plans\/none\.json\)/);
    assert.doesNotMatch(missing.summary, /ENOENT/);
    writeFileSync(join(workspace.path, 'bad.plan.json'), JSON.stringify({ objective: 'x', steps: [{ id: 'a', title: 'A', tool: 'no_such_tool', args: {} }] }));
    const invalid = await runAction(workspace.path, runner.path, { plan: 'bad.plan.json' });
    assert.equal(invalid.code, 2, invalid.log);
    assert.match(invalid.summary, /the plan did not run[\s\S]*no_such_tool/);
    assert.doesNotMatch(invalid.summary, /--help/);
  });

  it('step text cannot form links, images or HTML in the job summary', async () => {
    const title = '![t](https://example.com/p.png) <img src=x> [l](https://example.com)';
    const plan = writePlan(workspace.path, [{ id: 'note', title, kind: 'manual', input: { instructions: title } }]);
    const run = await runAction(workspace.path, runner.path, { plan });
    assert.equal(run.code, 3, run.log);
    // A word GitHub would link is shown as code: the image's text in a code span.
    assert.match(run.summary, /\*\*note\*\* \(yours to do\): .*`[^`]*!\[t\]\(https:\/\/example\.com\/p\.png\)[^`]*`/);
    assert.match(run.summary, /To allow it: the step is a person's to do; do it before the workflow runs \(in a task list, tick its box/);
    // Escaped, each character shows as itself, or in a code span: no image, link or tag starts outside code.
    assert.doesNotMatch(outsideCode(run.summary), /(?<!\\)!(?<!\\)\[|(?<!\\)<img|(?<!\\)\[l/);
  });

  it('while the plan\'s commands run, the action\'s own environment holds neither the api-key input nor a runner token', async function () {
    // /proc/<pid>/environ of a process shows its environment as it started, to every process of the same user.
    if (process.platform !== 'linux') this.skip();
    const key = 'sk-proj-actionEnvironProbe1234567890';
    const token = 'ghs_runnerTokenProbe1234567890abcdef';
    // The command blocks on a FIFO until the test has looked: no timer decides when.
    execFileSync('mkfifo', [join(workspace.path, 'gate')]);
    const plan = writePlan(workspace.path, [{ id: 'wait', title: 'Wait at the gate', tool: 'run_command', args: { argv: ['cat', 'gate'] } }]);
    const files = runner.path;
    writeFileSync(join(files, 'output'), '');
    writeFileSync(join(files, 'summary.md'), '');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      GITHUB_OUTPUT: join(files, 'output'),
      GITHUB_STEP_SUMMARY: join(files, 'summary.md'),
      GITHUB_WORKSPACE: workspace.path,
      RUNNER_TEMP: files,
      ACTIONS_RUNTIME_TOKEN: token,
      INPUT_PLAN: plan,
      'INPUT_ALLOW-COMMANDS': 'cat gate',
      'INPUT_API-KEY': key,
      'INPUT_BASE-URL': 'http://127.0.0.1:9/v1',
      INPUT_MODEL: 'local',
    };
    const { code, log, environ } = await environWhileGated(process.execPath, [...actionCommand], root, env);
    assert.equal(code, 0, log);
    assert.ok(environ.includes('INPUT_PLAN='), 'the environment was read');
    assert.equal(environ.includes(key), false, 'the api-key input is in the action\'s environment');
    assert.equal(environ.includes(token), false, 'the runner token is in the action\'s environment');
  });

  // Attacks of an outside tester (2026-12-01), each seen failing before its fix.

  it("the workspace input is refused when a repository's link takes it outside the checkout, into the runner's own files", async () => {
    mkdirSync(join(runner.path, '_runner_file_commands'));
    symlinkSync(join(runner.path, '_runner_file_commands'), join(workspace.path, 'sub'));
    const plan = writePlan(workspace.path, [{ id: 'env', title: 'Set the job environment', tool: 'write_file', args: { path: 'set_env_1', content: 'NODE_OPTIONS=--require=/tmp/evil.js\n' } }]);
    const run = await runAction(workspace.path, runner.path, { plan: join(workspace.path, plan), workspace: 'sub', 'allow-file-changes': 'true' });
    assert.equal(run.code, 2, run.log);
    assert.equal(run.outputs['status'], 'error');
    assert.deepEqual(readdirSync(join(runner.path, '_runner_file_commands')), [], 'nothing was written into the runner\'s files');
    assert.match(run.summary, /The input workspace "sub" leads outside the checkout/);
  });

  it('the journal copy takes no link: a runs/*.jsonl link to a file the run changes is not copied, and a dangling one leaves a completed run completed', async () => {
    mkdirSync(join(workspace.path, '.task-planner', 'runs'), { recursive: true });
    // A file the run changes, found by modification time, was copied through the link (with .git/config, the checkout's
    // token went into the artifact after an allowed `git config user.name ci-bot`); a link that leads nowhere failed the copy.
    symlinkSync('../../out/notes.txt', join(workspace.path, '.task-planner', 'runs', 'cfg.jsonl'));
    symlinkSync('../../gone.txt', join(workspace.path, '.task-planner', 'runs', 'zz.jsonl'));
    const plan = writePlan(workspace.path, [writeStep]);
    const run = await runAction(workspace.path, runner.path, { plan, 'allow-file-changes': 'true' });
    assert.equal(run.code, 0, run.log);
    assert.equal(run.outputs['status'], 'completed');
    const copied = readdirSync(run.outputs['journal-dir'] ?? '');
    assert.ok(copied.includes(`${run.outputs['run-id']}.jsonl`), copied.join(', '));
    assert.ok(!copied.includes('cfg.jsonl') && !copied.includes('zz.jsonl'), copied.join(', '));
  });

  it("the journal-dir input is refused when a repository's link takes it elsewhere (journal -> .git had the journal written into .git)", async () => {
    mkdirSync(join(workspace.path, '.git'));
    symlinkSync('.git', join(workspace.path, 'journal'));
    const plan = writePlan(workspace.path, [writeStep]);
    const run = await runAction(workspace.path, runner.path, { plan, 'journal-dir': 'journal', 'allow-file-changes': 'true' });
    assert.equal(run.code, 2, run.log);
    assert.match(run.summary, /The input journal-dir leads through a link/);
    assert.deepEqual(readdirSync(join(workspace.path, '.git')), []);
    assert.equal(existsSync(join(workspace.path, 'out/notes.txt')), false, 'nothing ran');
  });

  it('suggests no allow rule for a command whose own word is "..." (the rule would allow any further arguments)', async () => {
    const plan = writePlan(workspace.path, [{ id: 'dots', title: 'Test', tool: 'run_command', args: { argv: ['npm', 'test', '...'] } }]);
    const run = await runAction(workspace.path, runner.path, { plan });
    assert.equal(run.code, 3, run.log);
    assert.match(run.summary, /To allow it: no rule can allow exactly this command \(it has the word "\.\.\."\)/);
    assert.doesNotMatch(run.summary, /add this line/);
  });

  it("the step's shell does not stay behind holding the api-key input: action.yml's step runs the entry point in its place (exec)", async function () {
    // As GitHub runs a composite step's `run` (shell: bash): `bash --noprofile --norc -e -o pipefail {0}`, the inputs in its environment.
    if (process.platform !== 'linux' || actionCommand.length !== 1) this.skip();
    const script = /id: run\n[\s\S]*?\n {6}run: (.+)\n/.exec(readFileSync(join(root, 'action.yml'), 'utf8'))?.[1];
    assert.ok(script !== undefined, 'the "Run the plan" step of action.yml has a run line');
    const key = 'sk-proj-stepShellProbe1234567890';
    execFileSync('mkfifo', [join(workspace.path, 'gate')]);
    const plan = writePlan(workspace.path, [{ id: 'wait', title: 'Wait at the gate', tool: 'run_command', args: { argv: ['cat', 'gate'] } }]);
    writeFileSync(join(runner.path, 'output'), '');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      GITHUB_ACTION_PATH: dirname(dirname(actionCommand[0]!)),
      GITHUB_OUTPUT: join(runner.path, 'output'),
      GITHUB_WORKSPACE: workspace.path,
      RUNNER_TEMP: runner.path,
      INPUT_PLAN: plan,
      INPUT_ALLOW_COMMANDS: 'cat gate',
      INPUT_API_KEY: key,
      INPUT_BASE_URL: 'http://127.0.0.1:9/v1',
      INPUT_MODEL: 'local',
    };
    // A script file, as GitHub writes it ({0}): `bash -c` would replace itself by its last command whatever the script says.
    writeFileSync(join(runner.path, 'step.sh'), `${script}\n`);
    const { code, log, environ } = await environWhileGated('bash', ['--noprofile', '--norc', '-e', '-o', 'pipefail', join(runner.path, 'step.sh')], workspace.path, env);
    assert.equal(code, 0, log);
    assert.ok(environ.includes('INPUT_PLAN='), 'the environment was read');
    assert.equal(environ.includes(key), false, 'the step\'s shell holds the api-key input while the plan\'s commands run');
  });
});
