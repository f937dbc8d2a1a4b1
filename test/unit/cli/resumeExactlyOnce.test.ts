// Attacks on "a crash never makes a change twice" found by an outside attacker (both failed before their fixes): two
// resumes of one run at once, and a resume --yes after a crash and an edit of the user's.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const edit = (id: string, search: string, replace: string, dependsOn: string[] = []) => ({
  id,
  tool: 'edit_file',
  dependsOn,
  args: { path: 'shared.txt', edits: [{ search, replace }] },
});
const appendCommand = (id: string, dependsOn: string[]) => ({
  id,
  tool: 'run_command',
  dependsOn,
  args: { argv: ['node', '-e', `require('fs').appendFileSync('log.txt','${id}\\n')`] },
});

describe('resume keeps every change exactly once', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('attack-crash-');

  function setUp(plan: unknown): { ws: string; planFile: string; runs: string } {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'shared.txt'), 'x=1\ny=1\n');
    const planFile = join(dir.path, 'plan.json');
    writeFileSync(planFile, JSON.stringify(plan));
    return { ws, planFile, runs: join(ws, '.task-planner/runs') };
  }
  const runIdIn = (runs: string): string => (readdirSync(runs).find((name) => name.endsWith('.jsonl')) ?? '').slice(0, -'.jsonl'.length);

  it('two resumes of the same waiting run at once: each edit lands once, the command runs once, the journal stays readable', async () => {
    const { ws, planFile, runs } = setUp({
      objective: 'concurrent resume',
      steps: [edit('e1', 'x=1', 'x=1.1'), appendCommand('c1', ['e1']), edit('e2', 'y=1', 'y=1.1', ['c1'])],
    });
    // No terminal, no --yes: the run stops "waiting" at e1's approval.
    const started = await runCli(['run', planFile, '--workspace', ws, '--json']);
    assert.equal(started.code, 3, started.stderr);
    const runId = runIdIn(runs);
    const [first, second] = await Promise.all([
      runCli(['resume', runId, '--workspace', ws, '--yes', '--json']),
      runCli(['resume', runId, '--workspace', ws, '--yes', '--json']),
    ]);
    const listed = await runCli(['runs', '--workspace', ws]);
    const shared = readFileSync(join(ws, 'shared.txt'), 'utf8');
    const log = readFileSync(join(ws, 'log.txt'), 'utf8');
    // Seen before the lock: both exit 0 "completed"; shared.txt "x=1.1\ny=1.1.1\n"; log.txt "c1\nc1\n"; the journal repeats
    // seq 12..21, so `runs` said "unreadable" and `undo` refused the run.
    assert.deepEqual({ shared, log, listedUnreadable: /unreadable/.test(listed.stdout) }, { shared: 'x=1.1\ny=1.1\n', log: 'c1\n', listedUnreadable: false }, `${first.stderr}\n${second.stderr}`);
    // Each either did the work, found it done (it started after the other ended), or was refused before it did
    // anything, saying which process holds the run.
    for (const outcome of [first, second]) {
      if (outcome.code !== 0) assert.match(outcome.stderr, new RegExp(`Run ${runId} is in use by another task-planner \\(process \\d+\\): nothing was done`));
    }
    // Once it ended, the run is free again: undo takes it.
    const undone = await runCli(['undo', runId, '--workspace', ws, '--json']);
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'x=1\ny=1\n');
  });

  it('a resume or an undo of a run another process holds is refused, naming the process, and changes nothing', async () => {
    const { ws, planFile, runs } = setUp({ objective: 'held run', steps: [edit('e1', 'x=1', 'x=1.1')] });
    const started = await runCli(['run', planFile, '--workspace', ws, '--json']);
    assert.equal(started.code, 3, started.stderr);
    const runId = runIdIn(runs);
    const holder = spawn('sleep', ['60']);
    try {
      writeFileSync(join(runs, `${runId}.lock`), `${holder.pid}\n`);
      const journal = readFileSync(join(runs, `${runId}.jsonl`), 'utf8');
      for (const command of [['resume', runId, '--yes'], ['undo', runId]]) {
        const refused = await runCli([...command, '--workspace', ws]);
        assert.equal(refused.code, 1, refused.stdout);
        assert.match(refused.stderr, new RegExp(`Run ${runId} is in use by another task-planner \\(process ${holder.pid}\\): nothing was done`));
      }
      assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'x=1\ny=1\n');
      assert.equal(readFileSync(join(runs, `${runId}.jsonl`), 'utf8'), journal, 'the journal was written');
    } finally {
      holder.kill('SIGKILL');
    }
    // The holder gone (killed), the lock is taken over.
    await new Promise((resolve) => holder.once('exit', resolve));
    const resumed = await runCli(['resume', runId, '--workspace', ws, '--yes']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'x=1.1\ny=1\n');
  });

  it('a change that landed before a SIGKILL, then a user edit of the file, then resume --yes: the change is not made a second time', async () => {
    const { ws, planFile, runs } = setUp({ objective: 'uncertain change', steps: [edit('e1', 'x=1', 'x=1.1')] });
    const ran = await runCli(['run', planFile, '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runId = runIdIn(runs);
    // The state a SIGKILL leaves right after e1's atomic rename: the intent is recorded, not settled,
    // and the journal ends before file_changed (sweep in tmp-probe/crash/sweep.mjs reaches these points).
    const journalFile = join(runs, `${runId}.jsonl`);
    const lines = readFileSync(journalFile, 'utf8').split('\n');
    writeFileSync(journalFile, `${lines.slice(0, lines.findIndex((line) => line.includes('"file_changed"'))).join('\n')}\n`);
    writeFileSync(join(runs, `${runId}.snapshot.json`), '{}');
    const checkpointFile = join(runs, `${runId}.checkpoints.json`);
    writeFileSync(checkpointFile, readFileSync(checkpointFile, 'utf8').split('\n').filter((line) => !line.includes('"settle"')).join('\n'));
    assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'x=1.1\ny=1\n');
    // The user adds a line before resuming.
    writeFileSync(join(ws, 'shared.txt'), 'x=1.1\ny=1\nuser line\n');
    const resumed = await runCli(['resume', runId, '--workspace', ws, '--yes', '--json']);
    // Seen before the fix: exit 0 "completed", shared.txt "x=1.1.1\ny=1\nuser line\n": --yes answered the question, which said
    // nothing about the interrupted change ("Edit shared.txt?"). Now --yes does not answer it: the run waits for the user.
    assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'x=1.1\ny=1\nuser line\n', resumed.stderr);
    assert.equal(resumed.code, 3, resumed.stderr);
  });

  it('attack: undo of a run whose journal was damaged in the middle still puts the files back, from the checkpoints, and says so', async () => {
    const { ws, planFile, runs } = setUp({ objective: 'damaged journal', steps: [edit('e1', 'x=1', 'x=1.1')] });
    const ran = await runCli(['run', planFile, '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runId = runIdIn(runs);
    const journalFile = join(runs, `${runId}.jsonl`);
    const lines = readFileSync(journalFile, 'utf8').split('\n');
    writeFileSync(journalFile, [lines[0], 'garbage', ...lines.slice(1)].join('\n'));
    const undone = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.match(undone.stderr, new RegExp(`The journal of run ${runId} cannot be read \\(Line 2 of the run journal .* is not valid JSON.*\\)\\. Undoing from its checkpoints alone\\.`));
    assert.equal(readFileSync(join(ws, 'shared.txt'), 'utf8'), 'x=1\ny=1\n');
    // --from needs the plan, which only the journal holds: refused, saying why.
    const from = await runCli(['undo', runId, '--workspace', ws, '--from', 'e1']);
    assert.equal(from.code, 1);
    assert.match(from.stderr, /Line 2 of the run journal/);
  });
});
