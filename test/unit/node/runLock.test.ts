import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockRun, runHolder, RunInUseError } from '../../../src/node/runLock';
import { temporaryDirectory } from '../../support/temporaryDirectory';

const root = resolve(__dirname, '../../..');

describe('lockRun (one process at a time runs, resumes or undoes a run)', function () {
  this.timeout(60_000);
  const dir = temporaryDirectory('run-lock-');
  const gone = (): number => spawnSync('true').pid;

  it('takes a free lock with an entry of this process, and taking it again does nothing', async () => {
    await lockRun(dir.path, 'r1');
    await lockRun(dir.path, 'r1');
    assert.deepEqual(readdirSync(join(dir.path, 'r1.lock')), [String(process.pid)]);
    assert.deepEqual(readdirSync(dir.path), ['r1.lock'], 'nothing else left beside it');
    assert.equal(await runHolder(dir.path, 'r1'), undefined, 'this process is no other holder');
  });

  it('refuses a run a living process holds, naming the process and the lock, and leaves its entry', async () => {
    const other = spawn('sleep', ['30']);
    try {
      mkdirSync(join(dir.path, 'r2.lock'));
      writeFileSync(join(dir.path, 'r2.lock', String(other.pid)), '');
      await assert.rejects(lockRun(dir.path, 'r2'), (error: unknown) => {
        assert.ok(error instanceof RunInUseError);
        assert.equal(error.pid, other.pid);
        assert.match(error.message, new RegExp(`^Run r2 is in use by another task-planner \\(process ${other.pid}\\): nothing was done\\..*delete .*r2\\.lock\\.$`));
        return true;
      });
      assert.deepEqual(readdirSync(join(dir.path, 'r2.lock')), [String(other.pid)], 'the holder\'s entry was touched, or ours left behind');
      assert.equal(await runHolder(dir.path, 'r2'), other.pid);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over from a process that is gone (a killed run), in the lock folder or a lock file of the earlier form', async () => {
    mkdirSync(join(dir.path, 'r3.lock'));
    writeFileSync(join(dir.path, 'r3.lock', String(gone())), '');
    assert.equal(await runHolder(dir.path, 'r3'), undefined, 'a killed run has no holder');
    await lockRun(dir.path, 'r3');
    assert.deepEqual(readdirSync(join(dir.path, 'r3.lock')), [String(process.pid)]);
    writeFileSync(join(dir.path, 'r4.lock'), `${gone()}\n`);
    await lockRun(dir.path, 'r4');
    assert.deepEqual(readdirSync(join(dir.path, 'r4.lock')), [String(process.pid)]);
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(join(dir.path, 'r5.lock'), `${other.pid}\n`);
      await assert.rejects(lockRun(dir.path, 'r5'), (error: unknown) => error instanceof RunInUseError && error.pid === other.pid);
      assert.equal(await runHolder(dir.path, 'r5'), other.pid);
    } finally {
      other.kill('SIGKILL');
    }
    assert.equal(await runHolder(dir.path, 'none'), undefined);
  });

  it('attack: processes racing for a killed run\'s lock, round after round, never hold it two at once', async () => {
    // Seen before: the takeover renamed the stale lock file aside by its name, so one process could move another's fresh
    // lock away and link in its own: two held the run (21 of 30 rounds), and undo and resume ran together.
    const rounds = 12;
    const contenders = 5;
    const race = join(dir.path, 'race');
    mkdirSync(race);
    for (let round = 0; round < rounds; round++) {
      // A killed run's lock: of the earlier form (a file naming its process) in even rounds, an entry in the lock folder in odd ones.
      if (round % 2 === 0) writeFileSync(join(race, `race-${round}.lock`), `${gone()}\n`);
      else {
        mkdirSync(join(race, `race-${round}.lock`));
        writeFileSync(join(race, `race-${round}.lock`, String(gone())), '');
      }
    }
    // Every process starts its rounds at the same moments, once all are up (tsx takes a few seconds to start).
    const start = Date.now() + 8_000;
    // Each holds what it took until every one has tried every round (its standard input is ended then), so two "held" of
    // one round mean two held it at once, whatever the load made late.
    const children = Array.from({ length: contenders }, () =>
      spawn(process.execPath, ['--import', 'tsx', join(root, 'test/support/lockContender.ts'), race, String(rounds), String(start), '150'], { cwd: root }),
    );
    const triedAll = children.map(
      (child) =>
        new Promise<string>((settle, reject) => {
          let out = '';
          let err = '';
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            if (out.split('\n').filter((line) => / (?:held|refused)$/.test(line)).length === rounds) settle(out);
          });
          child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
          child.once('close', (code) => reject(new Error(`a contender ended (${code}) before trying every round: ${err}`)));
        }),
    );
    const outputs = await Promise.all(triedAll).finally(() => {
      for (const child of children) child.stdin.end();
    });
    await Promise.all(
      children.map((child) => new Promise<void>((settle, reject) => {
        if (child.exitCode !== null) return child.exitCode === 0 ? settle() : reject(new Error(`a contender failed (${child.exitCode})`));
        child.once('close', (code) => (code === 0 ? settle() : reject(new Error(`a contender failed (${code})`))));
      })),
    );
    assert.ok(Date.now() > start, 'the contenders were not up in time: the rounds did not race');
    const held = Array.from({ length: rounds }, (_, round) => outputs.filter((out) => out.split('\n').includes(`${round} held`)).length);
    assert.ok(held.every((count) => count <= 1), `rounds held by more than one process: ${JSON.stringify(held)}`);
    assert.ok(held.filter((count) => count === 1).length >= rounds / 2, `too few rounds held at all: ${JSON.stringify(held)}`);
    for (let round = 0; round < rounds; round++) {
      assert.ok(!existsSync(join(race, `race-${round}.lock`)) || readdirSync(join(race, `race-${round}.lock`)).length === 0, 'an entry outlived its process');
    }
  });
});
