import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/** A step appending `line` to log.txt (its own change, so a re-run shows as a second line). */
const appendStep = (id: string, line: string, dependsOn: string[] = []) => ({
  id,
  kind: 'tool',
  title: `append ${line}`,
  tool: 'edit_file',
  dependsOn,
  args: { path: `${id}.txt`, edits: [{ search: 'start\n', replace: `start\n${line}\n` }] },
});

interface RunJson {
  runId: string;
  status: string;
}

describe('task-planner rerun --from (Run from here, issue 26)', function () {
  this.timeout(120_000);
  const dir = temporaryDirectory('cli-rerun-');

  it('a whole-run undo then rerun --from S3: S1 and S2, whose changes Undo took back, run again (they were kept, "created" files that were gone)', async () => {
    const ws = join(dir.path, 'ws-undone');
    mkdirSync(ws, { recursive: true });
    for (const id of ['S1', 'S2', 'S3']) writeFileSync(join(ws, `${id}.txt`), 'start\n');
    const plan = { objective: 'three edits', steps: [appendStep('S1', 'one'), appendStep('S2', 'two'), appendStep('S3', 'three')] };
    writeFileSync(join(dir.path, 'independent.json'), JSON.stringify(plan));
    const ran = await runCli(['run', join(dir.path, 'independent.json'), '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runId = (JSON.parse(ran.stdout) as RunJson).runId;
    // Resuming a run that ended says so and where to go (it printed the old summary alone).
    const resumed = await runCli(['resume', runId, '--workspace', ws]);
    assert.match(resumed.stderr, new RegExp(`Run ${runId} has ended \\(completed\\): there is nothing to resume\\. To run steps of it again: task-planner rerun ${runId} --from STEP`));
    assert.equal((await runCli(['undo', runId, '--workspace', ws])).code, 0);
    const rerun = await runCli(['rerun', runId, '--from', 'S3', '--workspace', ws, '--yes', '--json']);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /from step S3 as a new run: S1, S2, S3 run again \(S1, S2 because Undo took back what S1, S2, S3 changed\); no completed step kept\./);
    for (const [id, line] of [['S1', 'one'], ['S2', 'two'], ['S3', 'three']]) assert.equal(readFileSync(join(ws, `${id}.txt`), 'utf8'), `start\n${line}\n`, id);
  });

  it('attack: rerun --from a write refused over a parallel step\'s edit refuses it again (the new run knew nothing of what the kept step changed)', async () => {
    const ws = join(dir.path, 'ws-parallel');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'notes.md'), '- buy milk\n');
    const plan = {
      objective: 'tidy the notes',
      steps: [
        { id: 'E', kind: 'tool', title: 'tick milk', tool: 'edit_file', dependsOn: [], args: { path: 'notes.md', edits: [{ search: '- buy milk', replace: '- [x] buy milk' }] } },
        { id: 'W', kind: 'tool', title: 'rewrite the notes', tool: 'write_file', dependsOn: [], args: { path: 'notes.md', content: '- water plants\n' } },
      ],
    };
    writeFileSync(join(dir.path, 'parallel.json'), JSON.stringify(plan));
    const ran = await runCli(['run', join(dir.path, 'parallel.json'), '--workspace', ws, '--yes', '--json']);
    assert.notEqual(ran.code, 0, 'W is refused, so the run fails');
    const runId = (JSON.parse(ran.stdout) as RunJson).runId;
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), '- [x] buy milk\n');
    const rerun = await runCli(['rerun', runId, '--from', 'W', '--workspace', ws, '--yes', '--json']);
    assert.match(rerun.stderr, /1 completed step kept \(E\)/);
    assert.notEqual(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stdout + rerun.stderr, /notes\.md was changed in this run by step E \("[^"]*"\), which this step does not depend on/);
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), '- [x] buy milk\n', "E's change is kept");
  });

  it('undo --from S2 then rerun --from S2: S1 is kept (no second change), S2 and S3 run again in a new run', async () => {
    const ws = join(dir.path, 'ws');
    mkdirSync(ws, { recursive: true });
    for (const id of ['S1', 'S2', 'S3']) writeFileSync(join(ws, `${id}.txt`), 'start\n');
    const plan = { objective: 'a chain of three edits', steps: [appendStep('S1', 'one'), appendStep('S2', 'two', ['S1']), appendStep('S3', 'three', ['S2'])] };
    writeFileSync(join(dir.path, 'plan.json'), JSON.stringify(plan));
    const ran = await runCli(['run', join(dir.path, 'plan.json'), '--workspace', ws, '--yes', '--json']);
    assert.equal(ran.code, 0, ran.stderr);
    const runId = (JSON.parse(ran.stdout) as RunJson).runId;

    const undone = await runCli(['undo', runId, '--from', 'S2', '--workspace', ws]);
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(readFileSync(join(ws, 'S1.txt'), 'utf8'), 'start\none\n');
    assert.equal(readFileSync(join(ws, 'S2.txt'), 'utf8'), 'start\n');
    assert.equal(readFileSync(join(ws, 'S3.txt'), 'utf8'), 'start\n');

    const rerun = await runCli(['rerun', runId, '--from', 'S2', '--workspace', ws, '--yes', '--json']);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /from step S2 as a new run: S2, S3 run again; 1 completed step kept \(S1\)/);
    const result = JSON.parse(rerun.stdout) as RunJson;
    assert.equal(result.status, 'completed');
    assert.notEqual(result.runId, runId);
    // S1 was not run again: its edit would fail or add a second "one" line; S2 and S3 ran again.
    assert.equal(readFileSync(join(ws, 'S1.txt'), 'utf8'), 'start\none\n');
    assert.equal(readFileSync(join(ws, 'S2.txt'), 'utf8'), 'start\ntwo\n');
    assert.equal(readFileSync(join(ws, 'S3.txt'), 'utf8'), 'start\nthree\n');
    // The new run's checkpoints hold the changes of S2 and S3 only: undoing it leaves S1's change alone.
    const undoNew = await runCli(['undo', result.runId, '--workspace', ws, '--json']);
    assert.equal(undoNew.code, 0, undoNew.stderr);
    assert.deepEqual((JSON.parse(undoNew.stdout) as { restored: string[] }).restored.sort(), ['S2.txt', 'S3.txt']);
    assert.equal(readFileSync(join(ws, 'S1.txt'), 'utf8'), 'start\none\n');

    const runs = await runCli(['runs', '--workspace', ws, '--json']);
    assert.equal((JSON.parse(runs.stdout) as RunJson[]).length, 2);

    const noRun = await runCli(['rerun', 'nope', '--from', 'S2', '--workspace', ws]);
    assert.equal(noRun.code, 2);
    assert.match(noRun.stderr, /No run "nope"/);
    const noStep = await runCli(['rerun', runId, '--from', 'Z', '--workspace', ws]);
    assert.equal(noStep.code, 2);
    assert.match(noStep.stderr, /Run .* has no step "Z"\. Its steps: S1, S2, S3\./);
    const noFrom = await runCli(['rerun', runId, '--workspace', ws]);
    assert.equal(noFrom.code, 2);
    assert.match(noFrom.stderr, /rerun needs the step to run again from/);
  });

  it('refuses a run that is waiting: resume it or undo first, and nothing starts', async () => {
    const ws = join(dir.path, 'waiting');
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, 'S1.txt'), 'start\n');
    const plan = { objective: 'one edit that asks', steps: [appendStep('S1', 'one')] };
    writeFileSync(join(dir.path, 'waiting.json'), JSON.stringify(plan));
    // No terminal and no --yes: the change waits for approval.
    const ran = await runCli(['run', join(dir.path, 'waiting.json'), '--workspace', ws, '--json']);
    assert.equal(ran.code, 3, ran.stderr);
    const runId = (JSON.parse(ran.stdout) as RunJson).runId;
    const refused = await runCli(['rerun', runId, '--from', 'S1', '--workspace', ws, '--yes']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /is waiting, not ended; nothing was started\. Resume it first \(task-planner resume .*\), or undo it/);
    assert.equal(readFileSync(join(ws, 'S1.txt'), 'utf8'), 'start\n');
    const runs = await runCli(['runs', '--workspace', ws, '--json']);
    assert.equal((JSON.parse(runs.stdout) as RunJson[]).length, 1);
  });
});
