import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const edit = (id: string, search: string, replace: string, dependsOn: string[] = []) => ({
  id,
  kind: 'tool',
  title: `edit ${search}`,
  tool: 'edit_file',
  dependsOn,
  args: { path: 'f.txt', edits: [{ search, replace }] },
});

/**
 * Outside attack (crash fuzzing of the command line): the journal is appended behind the engine and is not synced, while
 * each change's checkpoint is synced before the change. A process killed while the journal's lines were still queued (a
 * power loss, or a SIGKILL behind a large line) left the journal ending before step x reported its change, the checkpoint
 * log holding x's change and that of x's dependent y, and the file as y left it. `resume --yes` waited, asking to apply x
 * "again" (`version = 1.1.1`); approved, x was applied twice; rejected, x and y were skipped although both had landed.
 */
describe('task-planner resume after the journal fell behind the checkpoints', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('cli-journal-behind-');

  it('finishes the run without asking, x applied once, and Undo restores the start', async () => {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'f.txt'), 'name = demo\r\nversion = 1\r\nlast\r\n');
    writeFileSync(
      join(dir.path, 'plan.json'),
      JSON.stringify({ objective: 'x then y', steps: [edit('x', 'version = 1', 'version = 1.1'), edit('y', 'last', 'last+', ['x'])] }),
    );
    const ran = await runCli(['run', join(dir.path, 'plan.json'), '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runId = (JSON.parse(ran.stdout) as { runId: string }).runId;
    const runs = join(ws, '.task-planner', 'runs');
    const journal = join(runs, `${runId}.jsonl`);
    const lines = readFileSync(journal, 'utf8').split('\n');
    const cut = lines.findIndex((line) => line.includes('"type":"file_changed"') && line.includes('"stepId":"x"'));
    assert.ok(cut > 0);
    // What the crash left: the journal up to x's report of its change, no snapshot past it; the checkpoints as synced.
    writeFileSync(
      journal,
      lines
        .slice(0, cut)
        .map((line) => `${line}\n`)
        .join(''),
    );
    rmSync(join(runs, `${runId}.snapshot.json`), { force: true });

    const resumed = await runCli(['resume', runId, '--workspace', ws, '--yes', '--json']);
    assert.equal(resumed.code, 0, `${resumed.stderr}\n${resumed.stdout.slice(0, 2000)}`);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'name = demo\r\nversion = 1.1\r\nlast+\r\n', 'x applied once, not 1.1.1');

    const undone = await runCli(['undo', runId, '--workspace', ws]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(readFileSync(join(ws, 'f.txt'), 'utf8'), 'name = demo\r\nversion = 1\r\nlast\r\n');
  });
});
