import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockRun, RunInUseError } from '../../../src/node/runLock';
import { temporaryDirectory } from '../../support/temporaryDirectory';

describe('lockRun (one process at a time runs, resumes or undoes a run)', () => {
  const dir = temporaryDirectory('run-lock-');

  it('takes a free lock with this process id in it, and taking it again does nothing', async () => {
    await lockRun(dir.path, 'r1');
    await lockRun(dir.path, 'r1');
    assert.equal(readFileSync(join(dir.path, 'r1.lock'), 'utf8'), `${process.pid}\n`);
    assert.deepEqual(readdirSync(dir.path), ['r1.lock'], 'nothing else left beside it');
  });

  it('refuses a run a living process holds, naming the process and the lock file', async () => {
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(join(dir.path, 'r2.lock'), `${other.pid}\n`);
      await assert.rejects(lockRun(dir.path, 'r2'), (error: unknown) => {
        assert.ok(error instanceof RunInUseError);
        assert.equal(error.pid, other.pid);
        assert.match(error.message, new RegExp(`^Run r2 is in use by another task-planner \\(process ${other.pid}\\): nothing was done\\..*delete .*r2\\.lock\\.$`));
        return true;
      });
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over the lock of a process that is gone (a killed run), and one that holds no id', async () => {
    const gone = spawnSync('true').pid;
    writeFileSync(join(dir.path, 'r3.lock'), `${gone}\n`);
    await lockRun(dir.path, 'r3');
    assert.equal(readFileSync(join(dir.path, 'r3.lock'), 'utf8'), `${process.pid}\n`);
    writeFileSync(join(dir.path, 'r4.lock'), '');
    await lockRun(dir.path, 'r4');
    assert.equal(readFileSync(join(dir.path, 'r4.lock'), 'utf8'), `${process.pid}\n`);
    assert.deepEqual(readdirSync(dir.path).sort(), ['r3.lock', 'r4.lock'], 'no stale file left aside');
  });
});
