import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockRun, runHolder, UnsafeRunLockError } from '../../../src/node/runLock';
import { NotPlainFileError } from '../../../src/node/readBoundedText';
import { temporaryDirectory } from '../../support/temporaryDirectory';
import { plantedFifos } from '../../support/plantedFifos';

// An outside attacker's find: a repository committed .task-planner/runs/<run>.lock as a link to a folder outside
// (~/Mail/inbox); `task-planner resume <run>` made an entry there, then removed every entry named like a process not running.
describe('lockRun and runHolder over a lock a repository committed', () => {
  const root = temporaryDirectory('run-lock-links-');
  const runs = (): string => join(root.path, 'ws', '.task-planner', 'runs');
  const gone = (): number => spawnSync('true').pid ?? 999_999_999;
  const fifos = plantedFifos();
  beforeEach(() => mkdirSync(runs(), { recursive: true }));
  afterEach(() => fifos.releaseAll());
  /** A folder outside the workspace holding numbered mail (one named like a process that is gone) and a note. */
  const inbox = (): { folder: string; names: string[] } => {
    const folder = join(root.path, 'Mail', 'inbox');
    mkdirSync(folder, { recursive: true });
    for (const name of [String(gone()), '4242', '99999999', 'notes.txt']) writeFileSync(join(folder, name), `mail ${name}\n`);
    return { folder, names: readdirSync(folder).sort() };
  };

  it('attack: a lock linked to a folder outside is refused, naming it: nothing is made there and no entry named like a gone process is removed', async () => {
    const { folder, names } = inbox();
    symlinkSync('../../../Mail/inbox', join(runs(), 'r1.lock'));
    await assert.rejects(lockRun(runs(), 'r1'), (error: unknown) => {
      assert.ok(error instanceof UnsafeRunLockError);
      assert.match(error.message, /^Could not take the lock of run r1 \(.*runs\/r1\.lock\): it is a link \(to \.\.\/\.\.\/\.\.\/Mail\/inbox\), .*Nothing was done; remove what is in its place and try again\.$/);
      return true;
    });
    assert.deepEqual(readdirSync(folder).sort(), names);
    assert.ok(lstatSync(join(runs(), 'r1.lock')).isSymbolicLink(), 'the link is left for the user to remove');
  });

  it('attack: a lock linked to a file outside (the earlier form) is refused, neither read nor removed', async () => {
    const outside = join(root.path, 'pid');
    writeFileSync(outside, `${process.ppid}\n`);
    symlinkSync(outside, join(runs(), 'r1.lock'));
    await assert.rejects(lockRun(runs(), 'r1'), UnsafeRunLockError);
    assert.equal(await runHolder(runs(), 'r1'), undefined, 'the link is not read for a holder');
    assert.equal(readFileSync(outside, 'utf8'), `${process.ppid}\n`);
  });

  it('attack: runHolder never reads a folder outside through a link in the lock\'s place', async () => {
    const { folder } = inbox();
    // A living process other than this one, as the entry of a holder.
    writeFileSync(join(folder, String(process.ppid)), '');
    symlinkSync(folder, join(runs(), 'r1.lock'));
    assert.equal(await runHolder(runs(), 'r1'), undefined);
  });

  it('attack: runHolder does not wait on a named pipe in the lock\'s place', async function () {
    if (process.platform === 'win32') this.skip();
    this.timeout(10_000);
    const fifo = join(runs(), 'r1.lock');
    fifos.make(fifo);
    assert.equal(await runHolder(runs(), 'r1'), undefined);
    await assert.rejects(lockRun(runs(), 'r1'), /r1\.lock/);
  });

  it("attack: this process's own entry, committed as a link to a file outside, is not written through", async () => {
    const outside = join(root.path, 'notes.txt');
    writeFileSync(outside, 'keep\n');
    mkdirSync(join(runs(), 'r1.lock'));
    symlinkSync(outside, join(runs(), 'r1.lock', String(process.pid)));
    await assert.rejects(lockRun(runs(), 'r1'), NotPlainFileError);
    assert.equal(readFileSync(outside, 'utf8'), 'keep\n');
  });

  it('removes only regular files from the lock folder: an entry named like a gone process that is a link or a folder stays', async () => {
    const { folder } = inbox();
    const lock = join(runs(), 'r1.lock');
    mkdirSync(lock);
    const [stale, linked, folded] = [gone(), gone(), gone()];
    writeFileSync(join(lock, String(stale)), '');
    symlinkSync(join(folder, '4242'), join(lock, String(linked)));
    mkdirSync(join(lock, String(folded)));
    await lockRun(runs(), 'r1');
    assert.deepEqual(readdirSync(lock).sort(), [String(linked), String(folded), String(process.pid)].sort());
    assert.equal(readFileSync(join(folder, '4242'), 'utf8'), 'mail 4242\n');
  });

  it("attack: a lock folder of another user is refused (root only: it takes a chown)", async function () {
    if (process.getuid?.() !== 0) this.skip();
    const lock = join(runs(), 'r1.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, String(gone())), '');
    chownSync(lock, 4242, 4242);
    await assert.rejects(lockRun(runs(), 'r1'), /r1\.lock\): it is a folder of another user \(uid 4242\), /);
    assert.equal(readdirSync(lock).length, 1, 'nothing made or removed in it');
    assert.ok(!existsSync(join(lock, String(process.pid))));
  });
});
