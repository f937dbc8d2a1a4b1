import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const editStep = (id: string, search: string, replace: string, dependsOn: string[] = []) => ({
  id,
  kind: 'tool',
  title: `edit ${search}`,
  tool: 'edit_file',
  dependsOn,
  args: { path: 'f.txt', edits: [{ search, replace }] },
});

describe('task-planner run and undo on one file (issue 26)', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('cli-undo-');

  async function run(plan: unknown): Promise<{ ws: string; runId: string; stdout: string }> {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'f.txt'), 'alpha\nbeta\ngamma\n');
    writeFileSync(join(dir.path, 'plan.json'), JSON.stringify(plan));
    const ran = await runCli(['run', join(dir.path, 'plan.json'), '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runs = await runCli(['runs', '--workspace', ws, '--json']);
    const runId = (JSON.parse(runs.stdout) as { runId: string }[])[0]?.runId ?? '';
    return { ws, runId, stdout: ran.stdout };
  }

  // The second newcomer's find (2026-12-01): a waiting run went on after Undo, linked README to a file Undo had removed,
  // and its summary still said "created docs/API.md".
  it('a waiting run whose changes were undone does not go on: resume refuses and says what to do instead', async () => {
    const ws = join(dir.path, 'waiting');
    mkdirSync(ws, { recursive: true });
    const write = (id: string, path: string, dependsOn: string[] = []) => ({ id, kind: 'tool', title: `write ${path}`, tool: 'write_file', dependsOn, args: { path, content: `${id}\n` } });
    writeFileSync(join(dir.path, 'waiting.json'), JSON.stringify({ objective: 'two files', steps: [write('api', 'api.md'), write('link', 'link.md', ['api'])] }));
    const waits = await runCli(['run', join(dir.path, 'waiting.json'), '--workspace', ws, '--json']);
    const runId = (JSON.parse(waits.stdout) as { runId: string }).runId;
    const first = await runCli(['resume', runId, '--workspace', ws, '--approve', 'api', '--json']);
    assert.equal((JSON.parse(first.stdout) as { status: string }).status, 'waiting', first.stderr);
    assert.equal((await runCli(['undo', runId, '--workspace', ws])).code, 0);
    const refused = await runCli(['resume', runId, '--workspace', ws, '--approve', 'link']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(`Run ${runId} cannot go on: Undo took back the changes of step api, .* Nothing was resumed\\. Start its plan again with task-planner run\\.`),
    );
    assert.deepEqual([existsSync(join(ws, 'api.md')), existsSync(join(ws, 'link.md'))], [false, false]);
  });

  it('two parallel edit_file steps both land (ALPHA beta GAMMA); undo puts the file back, and a second undo does nothing', async () => {
    const { ws, runId } = await run({ objective: 'two parallel edits of one file', steps: [editStep('A', 'alpha', 'ALPHA'), editStep('B', 'gamma', 'GAMMA')] });
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'ALPHA\nbeta\nGAMMA\n');
    const undone = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.match(undone.stdout, /^Undo restored f\.txt\.$/m);
    // The listing says so, as the editor's Runs view does.
    const listed = await runCli(['runs', '--workspace', ws]);
    assert.match(listed.stdout, new RegExp(`^${runId} {2}completed, changes undone +2/2 `, 'm'));
    assert.equal((JSON.parse((await runCli(['runs', '--workspace', ws, '--json'])).stdout) as { undone: boolean }[])[0]?.undone, true);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'alpha\nbeta\ngamma\n');
    // The user makes a change by hand; a second undo must not touch it.
    writeFileSync(join(ws, 'f.txt'), 'ALPHA\nbeta\nGAMMA\n');
    const again = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Run \S+: Nothing to undo: an earlier Undo already took back the run's changes to f\.txt\.$/m);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'ALPHA\nbeta\nGAMMA\n');
  });

  // An outside attacker's find (2026-12-01): with the record of a change gone from the run's checkpoints (a disk that
  // filled up, a hand edit), Undo put back the other file, said nothing of this one and exited 0.
  it('names a file the journal says the run changed but no checkpoint records, and exits 1', async () => {
    const write = { id: 'W', kind: 'tool', title: 'write g', tool: 'write_file', dependsOn: [], args: { path: 'g.txt', content: 'g\n' } };
    const { ws, runId } = await run({ objective: 'an edit and a new file', steps: [editStep('A', 'alpha', 'ALPHA'), write] });
    const file = join(ws, '.task-planner', 'runs', `${runId}.checkpoints.json`);
    const kept = readFileSync(file, 'utf8').split('\n').filter((line) => !line.includes('"stepId":"A"'));
    writeFileSync(file, kept.join('\n'));
    const undone = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(undone.code, 1, undone.stdout + undone.stderr);
    assert.match(undone.stdout, /f\.txt.*the record of how it was before step A changed it is missing \(the run's checkpoints are damaged\), so Undo cannot put that change back/);
    assert.equal(existsSync(join(ws, 'g.txt')), false, 'the recorded change was not undone');
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'ALPHA\nbeta\ngamma\n');
  });

  // A newcomer's find (2026-12-01): after an Undo that left a file alone, `runs` said "changes undone".
  it('runs says "some changes undone" when Undo left a file alone', async () => {
    const write = { id: 'W', kind: 'tool', title: 'write g', tool: 'write_file', dependsOn: [], args: { path: 'g.txt', content: 'g\n' } };
    const { ws, runId } = await run({ objective: 'an edit and a new file', steps: [editStep('A', 'alpha', 'ALPHA'), write] });
    writeFileSync(join(ws, 'f.txt'), 'ALPHA\nbeta\ngamma\nmine\n');
    const undone = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(undone.code, 1, undone.stdout);
    assert.equal(existsSync(join(ws, 'g.txt')), false);
    const listed = await runCli(['runs', '--workspace', ws]);
    assert.match(listed.stdout, new RegExp(`^${runId} {2}completed, some changes undone +2/2 `, 'm'));
  });

  it('attack: undo says which steps ran commands, whose changes it does not take back (the output said only what it restored)', async () => {
    const plan = {
      objective: 'a note and a command',
      steps: [
        { id: 'W', kind: 'tool', title: 'Write a note', tool: 'write_file', dependsOn: [], args: { path: 'note.txt', content: 'n' } },
        { id: 'C', kind: 'tool', title: 'Make a file by command', tool: 'run_command', dependsOn: [], args: { argv: ['sh', '-c', 'echo made > by-command.txt'] } },
      ],
    };
    const { ws, runId } = await run(plan);
    const undone = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.match(undone.stdout, /Undo removed note\.txt, which the run created\.\nCommands are not undone: step C ran a command; check what it changed/);
    assert.equal(readFileSync(join(ws, 'by-command.txt'), 'utf8'), 'made\n');
    // Said once: an Undo that finds nothing left to do does not say it again (the newcomer saw it on every undo).
    const again = await runCli(['undo', runId, '--workspace', ws]);
    assert.match(again.stdout, /Nothing to undo/);
    assert.doesNotMatch(again.stdout, /Commands are not undone/);
    const fromW = await runCli(['undo', runId, '--from', 'W', '--workspace', ws, '--json']);
    assert.equal((JSON.parse(fromW.stdout) as { commandsNotUndone?: string }).commandsNotUndone, undefined, 'the command of a step out of scope named');
  });

  it('undo --from a step takes back that step and what depends on it, keeping the rest', async () => {
    const plan = { objective: 'a chain and a lone edit', steps: [editStep('A', 'alpha', 'ALPHA'), editStep('B', 'beta', 'BETA', ['A']), { ...editStep('C', 'gamma', 'GAMMA'), args: { path: 'other.txt', content: 'C' }, tool: 'write_file' }] };
    const { ws, runId } = await run(plan);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'ALPHA\nBETA\ngamma\n');
    const undone = await runCli(['undo', runId, '--from', 'B', '--workspace', ws]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.match(undone.stdout, /Undoing step B of run/);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'ALPHA\nbeta\ngamma\n');
    assert.equal(readFileSync(join(ws, 'other.txt'), 'utf8'), 'C');
    const unknown = await runCli(['undo', runId, '--from', 'Z', '--workspace', ws]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /has no step "Z"\. Its steps: A, B, C\./);
  });

  // A newcomer's trial: after a --tick run whose task file changed between two ticks, undo said "Undo restored tasks.md.
  // Left alone: tasks.md was changed after…", the same file named as restored and as left alone.
  it('a task file Undo took back some ticks of and kept one is said once: what it kept, and why', async () => {
    const ws = join(dir.path, 'ticks');
    mkdirSync(ws, { recursive: true });
    // T002's command adds a line of its own to tasks.md after T001's tick: T001's tick is kept, T002's and T003's go.
    const note = `node -e "require('fs').appendFileSync('tasks.md','A note of mine.'+String.fromCharCode(10))"`;
    const tasks = ['# Tasks', '', '## Phase 1', '', '- [ ] T001 Run `node -e "1"`', `- [ ] T002 Run \`${note}\``, '- [ ] T003 Run `node -e "2"`', ''];
    writeFileSync(join(ws, 'tasks.md'), tasks.join('\n'));
    const ran = await runCli(['run', join(ws, 'tasks.md'), '--tick', '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    const { runId } = JSON.parse(ran.stdout) as { runId: string };
    assert.match(readFileSync(join(ws, 'tasks.md'), 'utf8'), /^- \[x\] T003 .*\nA note of mine\.\n$/m);
    const undone = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(undone.code, 1, undone.stdout + undone.stderr);
    assert.match(
      undone.stdout,
      /^Undo took back part of the run's changes to tasks\.md\. Kept: tasks\.md was changed after step T001 changed it, and undoing would lose those changes\.$/m,
    );
    assert.doesNotMatch(undone.stdout, /restored tasks\.md|Left alone/);
    assert.match(readFileSync(join(ws, 'tasks.md'), 'utf8'), /^- \[x\] T001 .*\n- \[ \] T002 .*\n- \[ \] T003 .*\nA note of mine\.\n$/m);
  });

  it('attack: undo never goes on without the run\'s lock, whatever keeps it from being taken', async () => {
    const { ws, runId } = await run({ objective: 'one edit', steps: [editStep('A', 'alpha', 'ALPHA')] });
    // Something in the lock's place that is neither a lock nor a stale one: before, undo went on from the checkpoints
    // without the lock (only "in use" stopped it), while another process could be resuming the run.
    symlinkSync('/dev/null', join(ws, '.task-planner/runs', `${runId}.lock`));
    const refused = await runCli(['undo', runId, '--workspace', ws]);
    assert.notEqual(refused.code, 0, refused.stdout);
    assert.match(refused.stderr, new RegExp(`Could not take the lock of run ${runId} \\(.*${runId}\\.lock\\): .*Nothing was done; remove what is in its place and try again\\.`));
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'ALPHA\nbeta\ngamma\n', 'undone without the lock');
  });
});
