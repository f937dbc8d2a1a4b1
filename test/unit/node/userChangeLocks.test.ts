import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { changeLockName } from '../../../src/core/workspace/atomicWrites';
import { createNodeWorkspace, type NodeFileSystem } from '../../../src/node/nodeWorkspace';
import { createUserChangeLocks, userChangeLockFolders } from '../../../src/node/userChangeLocks';

/** Locks in `folders`, whose warnings are kept in `warnings`. */
function locksIn(folders: string[], warnings: string[] = []) {
  return createUserChangeLocks({ folders, warn: (message) => warnings.push(message) });
}

describe('createUserChangeLocks (the user\'s folder of change locks)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-locks-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is a folder of the user's home, else one of the user's in the temporary folder, both outside every workspace", () => {
    assert.deepEqual(userChangeLockFolders(), [
      path.join(os.homedir(), '.cache', 'task-planner', 'change-locks'),
      path.join(os.tmpdir(), `task-planner-${process.getuid?.() ?? os.userInfo().username}`, 'change-locks'),
    ]);
  });

  it('makes its folder for the user alone on first use, creates a lock once, tells what is in a place, and removes what is gone without error', async () => {
    const folder = path.join(dir, 'nested', 'change-locks');
    const locks = locksIn([folder]);
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
    assert.deepEqual(await locksIn([path.join(dir, 'not-made')]).names(), []);
  });

  it("names its holder in a lock: this process's is mine, a living process's runs, a gone one's ended, another machine's or an empty one's unknown", async () => {
    const folder = path.join(dir, 'change-locks');
    const locks = locksIn([folder]);
    await locks.create('lock-mine');
    assert.equal(await locks.holder('lock-mine'), 'mine');
    const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    const gonePid = Number(child.stdout.trim());
    fs.writeFileSync(path.join(folder, 'lock-gone'), `${gonePid}@${os.hostname()}`);
    fs.writeFileSync(path.join(folder, 'lock-parent'), `${process.ppid}@${os.hostname()}`);
    fs.writeFileSync(path.join(folder, 'lock-elsewhere'), `${process.ppid}@not-${os.hostname()}`);
    fs.writeFileSync(path.join(folder, 'lock-empty'), '');
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
    const changeLocks = locksIn([folder]);
    // Paths, not directory handles: the fake file system's rename is then the one the walk uses.
    await createNodeWorkspace(root, { fileSystem, directoryHandles: false, changeLocks }).writeText('sub/x.txt', 'v1');
    await createNodeWorkspace(path.join(root, 'sub'), { fileSystem, directoryHandles: false, changeLocks }).writeText('x.txt', 'v2');
    assert.equal(seen.length, 2);
    assert.equal(seen[0]?.length, 1, 'one lock held during the rename');
    assert.deepEqual(seen[1], seen[0], 'the two roots took different locks for one file');
    assert.deepEqual(fs.readdirSync(folder), [], 'a lock was left behind');
    assert.equal(fs.readFileSync(path.join(root, 'sub', 'x.txt'), 'utf8'), 'v2');
  });

  it('takes the next folder when one cannot be made or is not the user\'s own: a file in the way, a link, a folder others may write in', async () => {
    fs.writeFileSync(path.join(dir, 'home-file'), 'not a folder');
    const blocked = path.join(dir, 'home-file', 'change-locks');
    fs.mkdirSync(path.join(dir, 'elsewhere'));
    const linked = path.join(dir, 'linked');
    fs.symlinkSync(path.join(dir, 'elsewhere'), linked);
    const open = path.join(dir, 'open', 'change-locks');
    fs.mkdirSync(open, { recursive: true });
    fs.chmodSync(path.dirname(open), 0o777);
    const usable = path.join(dir, 'tmp', 'change-locks');
    const warnings: string[] = [];
    const locks = locksIn([blocked, linked, open, usable], warnings);
    await locks.create('lock-1');
    assert.deepEqual(fs.readdirSync(usable), ['lock-1']);
    assert.deepEqual([fs.readdirSync(path.join(dir, 'elsewhere')), fs.readdirSync(open)], [[], []]);
    assert.equal(await locks.holder('lock-1'), 'mine');
    assert.deepEqual(warnings, []);
  });

  it('says once, naming each folder and why, when none can be used; the change still lands, under compare-and-swap alone', async () => {
    fs.writeFileSync(path.join(dir, 'home-file'), '');
    const first = path.join(dir, 'home-file', 'change-locks');
    const second = path.join(dir, 'other-link');
    fs.symlinkSync('/', second);
    const warnings: string[] = [];
    const changeLocks = locksIn([first, second], warnings);
    await assert.rejects(changeLocks.create('lock-1'), /No folder for change locks can be used/);
    const root = fs.mkdtempSync(path.join(dir, 'ws-'));
    const workspace = createNodeWorkspace(root, { changeLocks });
    await workspace.writeText('x.txt', 'v1');
    await workspace.writeText('x.txt', 'v2', undefined, { expected: { exists: true, sha256: sha256('v1') } });
    assert.equal(fs.readFileSync(path.join(root, 'x.txt'), 'utf8'), 'v2');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0] ?? '', new RegExp(`${escape(first)} \\(a file is in the way\\), nor in ${escape(second)} \\(${escape(second)} is a link\\)`));
    assert.match(warnings[0] ?? '', /may lose one of the two changes/);
  });

  it('makes its folder again when it went after it was chosen (a cache cleaned up)', async () => {
    const folder = path.join(dir, 'cache', 'change-locks');
    const locks = locksIn([folder]);
    await locks.create('lock-1');
    fs.rmSync(path.join(dir, 'cache'), { recursive: true });
    await locks.create('lock-2');
    assert.deepEqual(fs.readdirSync(folder), ['lock-2']);
  });
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
