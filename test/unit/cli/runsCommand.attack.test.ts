// Attack on "never corrupted" across processes: `runs` (and what else only reads) while another process is writing a
// run's journal, its last line half written. That line is the other process's to finish, not damage: the run is listed
// as running, its journal is left as it is, and a resume of it is refused while that process lives.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { ended, holdRun } from '../../support/heldRun';

describe('attack: reading the runs while another process writes a journal', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('cli-runs-live-');

  it('a half-written last line of a live run is neither "unreadable" nor cut: listed running, and resume is refused', async () => {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    const edit = (id: string) => ({ id, tool: 'write_file', args: { path: `${id}.txt`, content: `${id}\n` } });
    writeFileSync(join(dir.path, 'plan.json'), JSON.stringify({ objective: 'two files', steps: [edit('a'), { ...edit('b'), dependsOn: ['a'] }] }));
    const ran = await runCli(['run', join(dir.path, 'plan.json'), '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runId = (JSON.parse(ran.stdout) as { runId: string }).runId;
    const runs = join(ws, '.task-planner', 'runs');
    // The journal as a live process has it while it writes: up to b's start, then half of the next line.
    const file = join(runs, `${runId}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    const cut = lines.findIndex((line) => line.includes('"step_started"') && line.includes('"b"'));
    assert.ok(cut > 0);
    const next = lines[cut + 1] ?? '';
    const live = `${lines.slice(0, cut + 1).join('\n')}\n${next.slice(0, Math.floor(next.length / 2))}`;
    writeFileSync(file, live);
    for (const name of readdirSync(runs)) if (name.startsWith(`${runId}.snapshot`)) rmSync(join(runs, name));
    rmSync(join(ws, 'b.txt'));
    const holder = await holdRun(runs, runId);
    try {
      const listed = await runCli(['runs', '--workspace', ws, '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      const row = (JSON.parse(listed.stdout) as { runId: string; status: string }[]).find((found) => found.runId === runId);
      assert.equal(row?.status, 'running', listed.stdout);
      const table = await runCli(['runs', '--workspace', ws]);
      assert.doesNotMatch(table.stdout + table.stderr, /unreadable|interrupted/);
      const traced = await runCli(['trace', runId, '--workspace', ws]);
      assert.doesNotMatch(traced.stderr, /not valid JSON|cannot be read/, traced.stderr);
      const resumed = await runCli(['resume', runId, '--workspace', ws, '--yes']);
      assert.equal(resumed.code, 1, resumed.stderr);
      assert.match(resumed.stderr, new RegExp(`Run ${runId} is in use by another task-planner \\(process ${holder.pid}\\): nothing was done`));
      assert.equal(readFileSync(file, 'utf8'), live, 'a reader cut or wrote the live journal');
    } finally {
      await ended(holder.child);
    }
    // Its process gone (killed mid-line), the torn line is cut and the run goes on: b written once.
    const resumed = await runCli(['resume', runId, '--workspace', ws, '--yes']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(readFileSync(join(ws, 'b.txt'), 'utf8'), 'b\n');
    const after = await runCli(['runs', '--workspace', ws, '--json']);
    assert.equal((JSON.parse(after.stdout) as { runId: string; status: string }[]).find((found) => found.runId === runId)?.status, 'completed');
  });
});
