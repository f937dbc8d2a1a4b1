import assert from 'node:assert/strict';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
const fixture = (name: string) => join(root, 'test/fixtures', name);

const cli = runCli;

describe('task-planner CLI', function () {
  this.timeout(60_000);
  const workspace = temporaryDirectory('cli-ws-', { perSuite: true });

  it('prints a complete help text', async () => {
    const { code, stdout } = await cli(['--help']);
    assert.equal(code, 0);
    for (const word of ['plan', 'validate', 'run', 'resume', 'runs', '--max-requests', '--max-tokens', '--max-cost', '--base-url', '--model', '--strategy', '--workspace', '--concurrency', '--yes', '--json', '--timeout', '--allow-insecure-key', '--review-critical-steps', '--approve', '--reject', '--answer', '--accept-review', '--reject-review', '--max-replans', '--max-replan-attempts', '--replan-cooldown', 'Exit codes', 'waiting']) {
      assert.ok(stdout.includes(word), `help mentions ${word}`);
    }
  });

  it('--version prints the package\'s version in a build (a production build printed "development"), and "development" from the sources', async () => {
    const { code, stdout } = await cli(['--version']);
    assert.equal(code, 0);
    const { version } = JSON.parse(readFileSync(resolve(__dirname, '../../../package.json'), 'utf8')) as { version: string };
    assert.equal(stdout.trim(), process.env['TASK_PLANNER_TEST_CLI'] === undefined ? 'development' : version);
  });

  it('plan: a key over plain http to another machine and credentials in --base-url are usage errors that show no secret', async () => {
    const insecure = await cli(['plan', 'Do it', '--workspace', workspace.path, '--base-url', 'http://192.0.2.10:8000/v1', '--timeout', '5'], { OPENAI_API_KEY: 'sk-cli-insecure-SECRET-1357' });
    assert.equal(insecure.code, 2, insecure.stderr);
    assert.match(insecure.stderr, /unencrypted.*--allow-insecure-key/);
    const query = await cli(['plan', 'Do it', '--workspace', workspace.path, '--base-url', 'https://proxy.example.com/v1?api-key=sk-query-SECRET-2468']);
    assert.equal(query.code, 2, query.stderr);
    assert.match(query.stderr, /credential in its query \(api-key=…\)/);
    assert.ok(!`${query.stdout}${query.stderr}`.includes('SECRET-2468'));
    const credentials = await cli(['plan', 'Do it', '--workspace', workspace.path, '--base-url', 'http://alice:s3cretpassw0rd@127.0.0.1:9/v1']);
    assert.equal(credentials.code, 2, credentials.stderr);
    assert.ok(!credentials.stderr.includes('s3cretpassw0rd'), credentials.stderr);
  });

  it('validate: exit 0 for a valid plan, 1 with every error for an invalid one, 2 for usage errors', async () => {
    const valid = await cli(['validate', fixture('notes.plan.json')]);
    assert.equal(valid.code, 0);
    assert.match(valid.stdout, /Critique: Score \d+\/10[:.]/);
    const invalid = await cli(['validate', fixture('invalid.plan.json'), '--json']);
    assert.equal(invalid.code, 1);
    const report = JSON.parse(invalid.stdout) as { valid: boolean; diagnostics: { code: string }[] };
    assert.equal(report.valid, false);
    assert.deepEqual(report.diagnostics.map((diagnostic) => diagnostic.code).sort(), ['cycle', 'unknown_tool']);
    // A newcomer's files: a task list as run reads it; JSON missing a comma, read repaired but said; JSON past repair, said of the file.
    writeFileSync(join(workspace.path, 'tasks.md'), '# Ship\n\n- [ ] Write notes\n- [ ] Ship it\n');
    const tasks = await cli(['validate', join(workspace.path, 'tasks.md')]);
    assert.equal(tasks.code, 0, tasks.stderr);
    assert.match(tasks.stdout, /tasks\.md: 2 steps, objective: Ship\n {2}no validation problems\n/);
    writeFileSync(join(workspace.path, 'comma.plan.json'), '{"objective": "x", "steps": [{"id": "a" "title": "Do it", "kind": "manual"}]}');
    const comma = await cli(['validate', join(workspace.path, 'comma.plan.json')]);
    assert.equal(comma.code, 0, comma.stderr);
    assert.match(comma.stdout, /plan warning: The file is not valid JSON as written \(Expected ',' or '\}' after property value .*\); it was read repaired: fix it/);
    assert.match(comma.stdout, /\nValid, with 1 warning above: it runs, but read it first\.\n$/);
    writeFileSync(join(workspace.path, 'prose.plan.json'), 'not json at all {{{');
    const prose = await cli(['validate', join(workspace.path, 'prose.plan.json')]);
    assert.equal(prose.code, 2);
    assert.match(prose.stderr, /prose\.plan\.json is not a usable plan:\n {2}- It is not valid JSON \(.*\), even after repairing what a missing comma or bracket would\./);
    assert.doesNotMatch(prose.stderr, /reply|Send a JSON/);
    const usage = await cli(['frobnicate']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Unknown command "frobnicate"/);
    const badBudget = await cli(['run', fixture('notes.plan.json'), '--workspace', workspace.path, '--max-cost', 'lots']);
    assert.equal(badBudget.code, 2);
    assert.match(badBudget.stderr, /--max-cost must be a positive number, got "lots"/);
  });

  it('run → waiting without a terminal; resume with answers and approvals → completed; runs lists it', async () => {
    const first = await cli(['run', fixture('notes.plan.json'), '--workspace', workspace.path, '--json']);
    assert.equal(first.code, 3, first.stderr);
    const waiting = JSON.parse(first.stdout) as { runId: string; status: string; pending: { stepId: string; kind: string }[] };
    assert.equal(waiting.status, 'waiting');
    assert.deepEqual(waiting.pending.map((request) => [request.stepId, request.kind]), [['name', 'clarification']]);
    assert.match(first.stderr, /▶ name/);

    const mistyped = await cli(['resume', waiting.runId, '--workspace', workspace.path, '--approve', 'name']);
    assert.equal(mistyped.code, 2, 'an answer that matches no pending request is bad input');
    assert.match(mistyped.stderr, /Nothing was resumed:\n.*step name waits for an answer \(name@[0-9a-f]{12}\)/);

    const second = await cli(['resume', waiting.runId, '--workspace', workspace.path, '--answer', 'name=Ada']);
    assert.equal(second.code, 3, second.stderr);
    assert.match(second.stdout, /write@[0-9a-f]{12} \(approval\): Write notes\/hello.txt\?/);
    assert.match(second.stdout, /\+Hello, Ada!/, 'the waiting run shows the diff it asks to approve');
    assert.match(second.stdout, /--approve write@[0-9a-f]{12}/);

    const third = await cli(['resume', waiting.runId, '--workspace', workspace.path, '--approve', 'write', '--json']);
    assert.equal(third.code, 0, third.stderr);
    const done = JSON.parse(third.stdout) as { status: string; steps: Record<string, { status: string }> };
    assert.equal(done.status, 'completed');
    assert.equal(readFileSync(join(workspace.path, 'notes/hello.txt'), 'utf8'), 'Hello, Ada!\n');

    const runs = await cli(['runs', '--workspace', workspace.path, '--json']);
    assert.deepEqual((JSON.parse(runs.stdout) as { runId: string; status: string }[]).map((run) => [run.runId, run.status]), [[waiting.runId, 'completed']]);
  });

  it('runs, listing nothing, says that the runs started in the editor are kept by the editor (a newcomer looked for them here)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cli-no-runs-'));
    try {
      const runs = await cli(['runs', '--workspace', empty]);
      assert.equal(runs.code, 0, runs.stderr);
      assert.match(runs.stdout, /^No runs in .*\. Runs started in the editor are kept by the editor \(its Runs view\), not here\.\n$/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('run --yes approves changes without asking', async () => {
    const result = await cli(['run', fixture('approve.plan.json'), '--workspace', workspace.path, '--yes', '--concurrency', '2']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.equal(readFileSync(join(workspace.path, 'out/approved.txt'), 'utf8'), 'approved by --yes\n');
  });

  it('refuses an invalid plan as bad input (exit 2) before any run or journal exists', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'cli-invalid-'));
    try {
      writeFileSync(join(fresh, 'missing-arg.plan.json'), JSON.stringify({ objective: 'x', steps: [{ id: 'w', tool: 'write_file', args: { path: 'a.txt' } }] }));
      for (const plan of [fixture('invalid.plan.json'), join(fresh, 'missing-arg.plan.json')]) {
        const result = await cli(['run', plan, '--workspace', fresh]);
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, /cannot run|invalid/i);
        assert.equal(existsSync(join(fresh, '.task-planner')), false, 'no journal directory was created');
      }
      const both = await cli(['run', fixture('invalid.plan.json'), '--workspace', fresh]);
      assert.match(both.stderr, /no_such_tool/);
      assert.match(both.stderr, /cycle/i);
      // Each problem once, in the user's words: the message names its step, without an id prefix or an internal code.
      assert.doesNotMatch(both.stderr, /- [^\n]*: Step "|\((unknown_tool|cycle|missing_dependency)\)/);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('refuses an option its command would ignore, before doing anything: run --yes --reject S1 wrote S1\'s file', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'cli-scope-'));
    try {
      const plan = join(fresh, 'p.json');
      writeFileSync(plan, JSON.stringify({ objective: 'write', steps: [{ id: 'S1', title: 'Write a', tool: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] }));
      const rejected = await cli(['run', plan, '--workspace', fresh, '--yes', '--reject', 'S1']);
      assert.equal(rejected.code, 2, rejected.stderr);
      assert.match(rejected.stderr, /^--reject does not apply to "run"; it goes with "resume"\. It answers a run that waits: task-planner resume <runId> --reject STEP\./);
      assert.match(rejected.stderr, /Nothing was done\./);
      assert.equal(existsSync(join(fresh, 'a.txt')), false, 'the step rejected was run');
      assert.equal(existsSync(join(fresh, '.task-planner')), false, 'a run was journaled');
      for (const [args, says] of [
        [['run', plan, '--from', 'S1'], /^--from does not apply to "run"; it goes with "rerun" or "undo"\. Nothing was done\./],
        [['plan', 'write a', '--approve', 'S1'], /^--approve does not apply to "plan"; it goes with "resume"\./],
        [['runs', '--format', 'kiro'], /^--format does not apply to "runs"; it goes with "import" or "export"\. Nothing was done\./],
        // A newcomer's run --format, which the docs said run read: refused, saying how run tells the format and what to do instead.
        [
          ['run', plan, '--format', 'kiro'],
          /^--format does not apply to "run"; it goes with "import" or "export"\. "run" tells a task file's format by its name and content; to read it as another format, import it first \(task-planner import FILE --format F --out plan\.json\) and run plan\.json\. Nothing was done\./,
        ],
        // A newcomer's run --trace FILE wrote no file and said nothing.
        [['run', plan, '--trace', 'run.jsonl'], /^--trace does not apply to "run"; it goes with "trace"\. Run first, then write its trace: task-planner trace <runId> --trace FILE/],
      ] as const) {
        const result = await cli([...args, '--workspace', fresh]);
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stderr, says);
      }
      // Where they apply they are taken: an answer to a run that does not exist is told so, not refused as out of place.
      const resumed = await cli(['resume', 'no-such-run', '--answer', 'Q=yes', '--reject', 'S1', '--workspace', fresh]);
      assert.doesNotMatch(resumed.stderr, /does not apply/);
      assert.match(resumed.stderr, /no-such-run/);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('attack: a repository\'s .task-planner (or its runs) linked elsewhere gets no journal, checkpoint or file written through it', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'cli-runslink-'));
    try {
      const outside = join(fresh, 'outside');
      const ws = join(fresh, 'ws');
      mkdirSync(outside);
      mkdirSync(ws);
      const plan = join(fresh, 'p.json');
      writeFileSync(plan, JSON.stringify({ objective: 'write', steps: [{ id: 'S1', title: 'Write a', tool: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] }));
      symlinkSync(outside, join(ws, '.task-planner'));
      for (const args of [['run', plan, '--yes'], ['runs'], ['undo', 'r1']]) {
        const result = await cli([...args, '--workspace', ws]);
        assert.equal(result.code, 2, `${args[0]}: ${result.stderr}`);
        assert.match(result.stderr, /\.task-planner is a link \(to .*outside\): Task Planner keeps its run journals and checkpoints only in a real folder inside the workspace/);
      }
      // Before: the run's journal, checkpoints and .gitignore went to the link's target.
      assert.deepEqual(readdirSync(outside), []);
      assert.equal(existsSync(join(ws, 'a.txt')), false, 'the run ran');
      rmSync(join(ws, '.task-planner'));
      mkdirSync(join(ws, '.task-planner'));
      symlinkSync(outside, join(ws, '.task-planner', 'runs'));
      const nested = await cli(['run', plan, '--yes', '--workspace', ws]);
      assert.equal(nested.code, 2, nested.stderr);
      assert.match(nested.stderr, /runs is a link/);
      assert.deepEqual(readdirSync(outside), []);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('never creates a missing --workspace and refuses a file as one (exit 2)', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'cli-nows-'));
    try {
      const missing = join(parent, 'not-there');
      for (const args of [['run', fixture('notes.plan.json')], ['resume', 'some-run'], ['runs'], ['plan', 'write a note', '--yes']]) {
        const result = await cli([...args, '--workspace', missing]);
        assert.equal(result.code, 2, `${args[0]}: ${result.stderr}`);
        assert.match(result.stderr, /does not exist/);
        assert.equal(existsSync(missing), false, `${args[0]} created the workspace`);
      }
      const file = join(parent, 'file.txt');
      writeFileSync(file, 'not a folder');
      const onFile = await cli(['run', fixture('notes.plan.json'), '--workspace', file]);
      assert.equal(onFile.code, 2, onFile.stderr);
      assert.match(onFile.stderr, /is a file, not a folder/);
      assert.equal(readFileSync(file, 'utf8'), 'not a folder');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('prints text from a plan, a file or a tool with terminal control characters escaped, hidden diff text included', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'cli-esc-'));
    try {
      const hidden = 'visible\u001b[8mrm -rf ~ hidden\u001b[0m\u009b2J\u202eevil';
      const plan = { objective: 'Escape \u001b]0;title\u0007', steps: [{ id: 'W', title: 'Write \u001b[2Jnotes', tool: 'write_file', args: { path: 'notes.txt', content: `${hidden}\n` } }] };
      writeFileSync(join(fresh, 'esc.plan.json'), JSON.stringify(plan));
      for (const json of [false, true]) {
        const result = await cli(['run', join(fresh, 'esc.plan.json'), '--workspace', fresh, ...(json ? ['--json'] : [])]);
        assert.equal(result.code, 3, result.stderr);
        for (const text of [result.stdout, result.stderr]) {
          assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, 'no raw control character reaches the terminal');
        }
        assert.match(result.stderr, /Write \\u001b\[2Jnotes/, 'the title in progress lines shows its escape');
        if (json) {
          const parsed = JSON.parse(result.stdout) as { pending: { request: { proposal: { proposedText: string } } }[] };
          assert.equal(parsed.pending[0]?.request.proposal.proposedText, `${hidden}\n`, 'JSON output keeps the exact value');
        } else {
          assert.match(result.stdout, /\+visible\\u001b\[8mrm -rf ~ hidden\\u001b\[0m\\u009b2J\\u202eevil/, 'the diff shows the hidden text and its escapes');
        }
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
