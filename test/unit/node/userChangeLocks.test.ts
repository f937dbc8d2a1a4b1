import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { changeLockName } from '../../../src/core/workspace/atomicWrites';
import { createNodeWorkspace, type NodeFileSystem } from '../../../src/node/nodeWorkspace';
import { createUserChangeLocks, userChangeLockFolder } from '../../../src/node/userChangeLocks';

describe('createUserChangeLocks (the user\'s folder of change locks)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-locks-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is one folder of the user\'s home, outside every workspace', () => {
    assert.equal(userChangeLockFolder(), path.join(os.homedir(), '.cache', 'task-planner', 'change-locks'));
  });

  it('makes its folder for the user alone on first use, creates a lock once, tells what is in a place, and removes what is gone without error', async () => {
    const folder = path.join(dir, 'nested', 'change-locks');
    const locks = createUserChangeLocks(folder);
    await locks.create('lock-1');
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    await assert.rejects(locks.create('lock-1'), /EEXIST/);
    assert.equal((await locks.stat('lock-1'))?.type, 'file');
    fs.mkdirSync(path.join(folder, 'lock-dir'));
    fs.symlinkSync('/etc/passwd', path.join(folder, 'lock-link'));
    assert.deepEqual([(await locks.stat('lock-dir'))?.type, (await locks.stat('lock-link'))?.type, await locks.stat('lock-none')], ['directory', 'link', undefined]);
    assert.deepEqual((await locks.names()).sort(), ['lock-1', 'lock-dir', 'lock-link']);
    await locks.remove('lock-1');
    await locks.remove('lock-1');
    assert.equal(await locks.stat('lock-1'), undefined);
    assert.deepEqual(await createUserChangeLocks(path.join(dir, 'not-made')).names(), []);
  });

  it("names its holder in a lock: this process's is mine, a living process's runs, a gone one's ended, another machine's or an empty one's unknown", async () => {
    const locks = createUserChangeLocks(dir);
    await locks.create('lock-mine');
    assert.equal(await locks.holder('lock-mine'), 'mine');
    const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const gonePid = Number(child.stdout.trim());
    fs.writeFileSync(path.join(dir, 'lock-gone'), `${gonePid}@${os.hostname()}`);
    fs.writeFileSync(path.join(dir, 'lock-parent'), `${process.ppid}@${os.hostname()}`);
    fs.writeFileSync(path.join(dir, 'lock-elsewhere'), `${process.ppid}@not-${os.hostname()}`);
    fs.writeFileSync(path.join(dir, 'lock-empty'), '');
    assert.deepEqual(
      await Promise.all(['lock-gone', 'lock-parent', 'lock-elsewhere', 'lock-empty', 'lock-none'].map((name) => locks.holder(name))),
      ['ended', 'running', 'unknown', 'unknown', 'unknown'],
    );
  });

  it('takes the lock of a file in the given folder, named by its real path: a workspace and one of a folder inside it name the same lock', async () => {
    const root = fs.mkdtempSync(path.join(dir, 'repo-'));
    fs.mkdirSync(path.join(root, 'sub'));
    fs.writeFileSync(path.join(root, 'sub', 'x.txt'), 'v0');
    const folder = path.join(dir, 'change-locks');
    /** The lock files there at each rename onto x.txt. */
    const seen: string[][] = [];
    const fileSystem: NodeFileSystem = {
      ...fs.promises,
      rename: async (from, to) => {
        if (String(to).endsWith('x.txt')) seen.push(fs.readdirSync(folder).filter((name) => changeLockName.test(name)));
        return fs.promises.rename(from, to);
      },
    };
    const changeLocks = createUserChangeLocks(folder);
    // Paths, not directory handles: the fake file system's rename is then the one the walk uses.
    await createNodeWorkspace(root, { fileSystem, directoryHandles: false, changeLocks }).writeText('sub/x.txt', 'v1');
    await createNodeWorkspace(path.join(root, 'sub'), { fileSystem, directoryHandles: false, changeLocks }).writeText('x.txt', 'v2');
    assert.equal(seen.length, 2);
    assert.equal(seen[0]?.length, 1, 'one lock held during the rename');
    assert.deepEqual(seen[1], seen[0], 'the two roots took different locks for one file');
    assert.deepEqual(fs.readdirSync(folder), [], 'a lock was left behind');
    assert.equal(fs.readFileSync(path.join(root, 'sub', 'x.txt'), 'utf8'), 'v2');
  });
});
