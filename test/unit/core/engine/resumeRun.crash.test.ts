import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resumeRun } from '../../../../src/node/nodeLibrary';
import { temporaryDirectory } from '../../../support/temporaryDirectory';
import { createFileRunStore } from '../../../../src/node/fileRunStore';
import { crashPlan, crashRunId, markingStepRunner } from '../../../support/crashingRun';

const root = resolve(__dirname, '../../../..');

function completedInJournal(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line) as { type?: string; stepId?: string };
        return entry.type === 'step_completed' && entry.stepId ? [entry.stepId] : [];
      } catch {
        return [];
      }
    });
}

describe('resumeRun after SIGKILL', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('crash-');

  it('resumes from the journal: finished steps ran exactly once and their results survived', async () => {
    const runsDir = join(dir.path, 'runs');
    const marker = join(dir.path, 'marker.txt');
    const journal = join(runsDir, `${crashRunId}.jsonl`);
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/support/crashingRun.ts'), runsDir, marker], { cwd: root, stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    const deadline = Date.now() + 30_000;
    while (completedInJournal(journal).length < 3) {
      if (Date.now() > deadline) throw new Error('the child run never completed 3 steps');
      await new Promise((done) => setTimeout(done, 10));
    }
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    const finishedBeforeKill = completedInJournal(journal);
    assert.ok(finishedBeforeKill.length >= 3 && finishedBeforeKill.length < crashPlan.steps.length, `killed mid-run (${finishedBeforeKill.join(', ')})`);

    const result = await resumeRun(crashRunId, { store: createFileRunStore(runsDir), maxConcurrency: 2, stepRunner: markingStepRunner(marker, 20) }).result;
    assert.equal(result.status, 'completed');
    const runs = readFileSync(marker, 'utf8').trim().split('\n');
    for (const id of finishedBeforeKill) assert.equal(runs.filter((ran) => ran === id).length, 1, `${id} ran exactly once`);
    for (const step of crashPlan.steps) assert.ok(runs.includes(step.id), `${step.id} ran`);
    for (const id of ['a1', 'a2', 'a3', 'b1', 'b2', 'b3']) assert.equal(result.results[id], `result-${id}`);
    assert.equal(result.results['join'], 'result-a3 + result-b3');
    assert.equal(result.metadata.resumeCount, 1);
  });
});
