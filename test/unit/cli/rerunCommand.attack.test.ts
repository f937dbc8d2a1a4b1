// Attack on "never done twice, never corrupted" across processes: `rerun` of a run another process holds (an undo of it
// under way there). The rerun read the run without its lock: it kept the results of steps whose changes that undo was
// taking back, and went on from files that were no longer there.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { ended, holdRun } from '../../support/heldRun';

const appendStep = (id: string, line: string) => ({
  id,
  kind: 'tool',
  title: `append ${line}`,
  tool: 'edit_file',
  dependsOn: [],
  args: { path: `${id}.txt`, edits: [{ search: 'start\n', replace: `start\n${line}\n` }] },
});

describe('attack: rerun of a run another process holds', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('cli-rerun-held-');

  it('is refused, naming the process, and starts nothing; once that process ended it runs', async () => {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    for (const id of ['S1', 'S2']) writeFileSync(join(ws, `${id}.txt`), 'start\n');
    writeFileSync(join(dir.path, 'plan.json'), JSON.stringify({ objective: 'two edits', steps: [appendStep('S1', 'one'), appendStep('S2', 'two')] }));
    const ran = await runCli(['run', join(dir.path, 'plan.json'), '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runId = (JSON.parse(ran.stdout) as { runId: string }).runId;
    const runs = join(ws, '.task-planner', 'runs');
    const holder = await holdRun(runs, runId);
    try {
      // Seen before the fix: it started a new run keeping S1's result, whatever that undo was taking back meanwhile.
      const rerun = await runCli(['rerun', runId, '--from', 'S2', '--workspace', ws, '--yes']);
      assert.equal(rerun.code, 1, rerun.stderr);
      assert.match(rerun.stderr, new RegExp(`Run ${runId} is in use by another task-planner \\(process ${holder.pid}\\): nothing was done`));
      assert.deepEqual(readdirSync(runs).filter((name) => name.endsWith('.jsonl')), [`${runId}.jsonl`], 'a new run was started');
      assert.equal(readFileSync(join(ws, 'S2.txt'), 'utf8'), 'start\ntwo\n');
    } finally {
      await ended(holder.child);
    }
    const later = await runCli(['rerun', runId, '--from', 'S2', '--workspace', ws, '--yes']);
    assert.equal(later.code, 0, later.stderr);
    assert.equal(readdirSync(runs).filter((name) => name.endsWith('.jsonl')).length, 2, later.stderr);
  });
});
