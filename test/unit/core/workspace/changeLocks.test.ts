import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { changeLockName, changeLockNoticeMs, changeLockPatienceMs, staleChangeLockMs, staleTemporaryFileMs } from '../../../../src/core/workspace/atomicWrites';
import { sha256OfBytes } from '../../../../src/core/workspace/expectedContent';
import { createConfinedWorkspace } from '../../../../src/core/workspace/confinedWorkspace';
import { memoryChangeLocks, memoryLockFolder } from '../../../fakes/memoryChangeLocks';
import { confinedMemoryWorkspace, memoryRoot, namesIn, type MemoryDirectory, type MemoryRawFs } from '../../../fakes/memoryRawFs';

const sha = (text: string): string => sha256OfBytes(new TextEncoder().encode(text));
/** The lock of the workspace file `path`: named by its real path, folded (the fake's root `/ws` is real). */
const lockOf = (path: string): string => `lock-${createHash('sha256').update(`/ws/${path}`.toLowerCase()).digest('hex').slice(0, 32)}`;
const folder = memoryLockFolder;

// The promise: no lost update between processes. An outside attacker's find (2026-12-01): two CLI runs editing one file
// both passed the check of the version they computed from before either renamed its new content in, so one edit was
// lost while both steps said "edited". Two workspaces over one file system are two processes over one disk.
describe('change locks: two processes changing one file', () => {
  const yieldOnly = async (): Promise<void> => undefined;

  it('refuses a write computed from the version another process is replacing: it waits for that rename, then sees the change', async () => {
    // The first process has checked its version and is about to rename its content in when the second one writes.
    const now = (): number => 5_000;
    const { raw } = confinedMemoryWorkspace({ now });
    raw.file('/ws/shared.txt', 'v0');
    let openGate = (): void => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let secondWrite: Promise<void> | undefined;
    let secondWaits = (): void => undefined;
    const secondWaiting = new Promise<void>((resolve) => (secondWaits = resolve));
    const second = createConfinedWorkspace(raw, { root: memoryRoot, clock: { now, sleep: async () => secondWaits() }, changeLocks: memoryChangeLocks(raw, { now }) });
    // The first process's view of the same disk, its rename onto shared.txt held until the second write is done or waits.
    const firstRaw = Object.create(raw) as MemoryRawFs;
    firstRaw.rename = async (from, fromName, to, toName) => {
      if (toName === 'shared.txt') {
        secondWrite = second.writeText('shared.txt', 'v0 + B', undefined, { expected: { exists: true, sha256: sha('v0') } });
        await Promise.race([secondWrite.catch(() => undefined), secondWaiting]);
        openGate();
      }
      await gate;
      return raw.rename(from, fromName, to, toName);
    };
    const first = createConfinedWorkspace(firstRaw, { root: memoryRoot, clock: { now, sleep: yieldOnly }, changeLocks: memoryChangeLocks(raw, { now }) });
    await first.writeText('shared.txt', 'v0 + A', undefined, { expected: { exists: true, sha256: sha('v0') } });
    await assert.rejects(secondWrite!, /shared\.txt changed after its new content was computed/);
    assert.equal(raw.text('/ws/shared.txt'), 'v0 + A');
    assert.deepEqual(namesIn(raw, folder).filter((name) => changeLockName.test(name)), [], 'a lock was left behind');
  });

  it('lets exactly one of two writes computed from the same version land; the other is refused as changed', async () => {
    const first = confinedMemoryWorkspace({ wait: yieldOnly });
    const second = confinedMemoryWorkspace({ raw: first.raw, wait: yieldOnly });
    await first.workspace.writeText('shared.txt', 'v0');
    const outcomes = await Promise.allSettled([
      first.workspace.writeText('shared.txt', 'v0 + A', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      second.workspace.writeText('shared.txt', 'v0 + B', undefined, { expected: { exists: true, sha256: sha('v0') } }),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
    const landed = outcomes[0]?.status === 'fulfilled' ? 'v0 + A' : 'v0 + B';
    assert.equal(first.raw.text('/ws/shared.txt'), landed);
  });

  it('lets exactly one of two deletions and writes of the same version go through', async () => {
    const first = confinedMemoryWorkspace({ wait: yieldOnly });
    const second = confinedMemoryWorkspace({ raw: first.raw, wait: yieldOnly });
    await first.workspace.writeText('shared.txt', 'v0');
    const outcomes = await Promise.allSettled([
      first.workspace.delete('shared.txt', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      second.workspace.writeText('shared.txt', 'v0 + B', undefined, { expected: { exists: true, sha256: sha('v0') } }),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
    const after = first.raw.node('/ws/shared.txt');
    if (outcomes[0]?.status === 'fulfilled') assert.equal(after, undefined);
    else assert.equal(first.raw.text('/ws/shared.txt'), 'v0 + B');
  });

  it('takes over a lock left by a process that ended holding it, and removes it', async () => {
    let now = 1_000_000;
    const { raw, workspace } = confinedMemoryWorkspace({ now: () => now, wait: yieldOnly });
    await workspace.writeText('a.txt', 'v0');
    // Empty: its holder cannot be told (a full disk cut its text), so its age decides.
    raw.file(`${folder}/${lockOf('a.txt')}`, '', { mtimeMs: now - staleChangeLockMs - 1 });
    now += 1;
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
    assert.equal(raw.text('/ws/a.txt'), 'v1');
    assert.deepEqual(namesIn(raw, folder), []);
  });

  it('takes over a lock dated in the future (a repository unpacked from an archive), and one whose takeover was left by a crash', async () => {
    const now = 1_000_000;
    const { raw, workspace } = confinedMemoryWorkspace({ now: () => now, wait: yieldOnly });
    await workspace.writeText('a.txt', 'v0');
    raw.file(`${folder}/${lockOf('a.txt')}`, '', { mtimeMs: now + 10 * staleChangeLockMs });
    raw.file(`${folder}/${lockOf('a.txt')}.takeover`, '', { mtimeMs: now - staleChangeLockMs - 1 });
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
    assert.equal(raw.text('/ws/a.txt'), 'v1');
    assert.deepEqual(namesIn(raw, folder), []);
  });

  it('makes a change of README.md wait for another process holding the lock of readme.md (one file on a case-insensitive disk)', async () => {
    let waits = 0;
    const { raw, workspace } = confinedMemoryWorkspace({
      // The other process renames its content in while this one waits, and lets its lock go.
      wait: async () => {
        if (++waits === 1) {
          raw.file('/ws/README.md', 'v0 + theirs');
          (raw.node(folder) as MemoryDirectory).entries.delete(lockOf('readme.md'));
        }
      },
    });
    await workspace.writeText('README.md', 'v0');
    raw.file(`${folder}/${lockOf('readme.md')}`, '');
    await assert.rejects(
      workspace.writeText('README.md', 'v0 + mine', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      /README\.md changed after its new content was computed/,
    );
    assert.equal(waits, 1);
    assert.equal(raw.text('/ws/README.md'), 'v0 + theirs');
  });

  it('leaves a stale lock that another process took anew since it was found stale', async () => {
    let now = 1_000_000;
    const { raw, workspace } = confinedMemoryWorkspace({
      now: () => now,
      wait: async (ms) => void (now += ms),
      before: (operation, name) => {
        // Right after this process found the lock stale, another takes it over and takes it anew, and keeps it.
        if (operation === 'writeNewFile' && name.endsWith('.takeover')) raw.file(`${folder}/${lockOf('a.txt')}`, '', { mtimeMs: now });
      },
    });
    await workspace.writeText('a.txt', 'v0');
    raw.file(`${folder}/${lockOf('a.txt')}`, '', { mtimeMs: now - staleChangeLockMs - 1 });
    const held = raw.node(`${folder}/${lockOf('a.txt')}`);
    await assert.rejects(
      workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      /is being changed by another Task Planner process/,
    );
    assert.notEqual(raw.node(`${folder}/${lockOf('a.txt')}`), undefined, "the other process's new lock was removed");
    assert.notEqual(raw.node(`${folder}/${lockOf('a.txt')}`), held);
    assert.equal(raw.text('/ws/a.txt'), 'v0');
  });

  // An outside attack (2026-12-02): six processes at one file; a creation refused as taken with nothing there by the time
  // it was looked at counted toward "cannot be made", so enough contention let a change go on unlocked.
  it('takes the lock after its creation was refused as taken with none there (released that moment), however often; with a folder that takes no file it goes on unlocked', async () => {
    const lock = `${folder}/${lockOf('a.txt')}`;
    let failures = 6;
    let code = 'EEXIST';
    let lockedDuringRename: boolean | undefined;
    const { raw, workspace } = confinedMemoryWorkspace({
      wait: yieldOnly,
      before: (operation, name) => {
        if (operation === 'writeNewFile' && name === lockOf('a.txt') && failures-- > 0) throw Object.assign(new Error(`${code}: refused`), { code });
        if (operation === 'rename') lockedDuringRename = raw.node(lock) !== undefined;
      },
    });
    raw.file('/ws/a.txt', 'v0');
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
    assert.equal(lockedDuringRename, true, 'the rename went on unlocked');
    [failures, code] = [2, 'EROFS'];
    await workspace.writeText('a.txt', 'v2', undefined, { expected: { exists: true, sha256: sha('v1') } });
    assert.equal(lockedDuringRename, true, 'two refusals of a folder that then took the lock: unlocked');
    [failures, code] = [3, 'EROFS'];
    await workspace.writeText('a.txt', 'v3', undefined, { expected: { exists: true, sha256: sha('v2') } });
    assert.equal(lockedDuringRename, false);
    assert.equal(raw.text('/ws/a.txt'), 'v3');
  });

  // An outside attack (2026-12-02): a CLI run stopped with Ctrl-Z while it held the lock lost the other run's change: the
  // other took the 10 s old lock over and wrote, then the woken run renamed its content over that (both "completed").
  it('attack: does not take over the lock of a holder still running (stopped, asleep): waits, then gives up saying so, the held change not lost', async () => {
    let now = 1_000_000;
    const { raw, workspace } = confinedMemoryWorkspace({
      now: () => now,
      wait: async (ms) => void (now += ms),
      locks: { running: (holder) => holder === 'stopped' },
    });
    await workspace.writeText('a.txt', 'v0');
    raw.file(`${folder}/${lockOf('a.txt')}`, 'stopped', { mtimeMs: now - staleChangeLockMs - 5_000 });
    await assert.rejects(
      workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      /a\.txt is being changed by another Task Planner process .* for more than 30 s; nothing was changed/,
    );
    assert.equal(raw.text('/ws/a.txt'), 'v0');
    assert.equal(raw.text(`${folder}/${lockOf('a.txt')}`), 'stopped', "the running holder's lock was taken");
  });

  it('takes over at once the lock of a holder that ended, however fresh; and one of a holder said to run once it is older than ten minutes (a reused process id)', async () => {
    const now = 1_000_000;
    const { raw, workspace } = confinedMemoryWorkspace({
      now: () => now,
      wait: () => Promise.reject(new Error('waited for a lock whose holder ended')),
      locks: { running: (holder) => holder !== 'killed' },
    });
    await workspace.writeText('a.txt', 'v0');
    raw.file(`${folder}/${lockOf('a.txt')}`, 'killed', { mtimeMs: now });
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
    raw.file(`${folder}/${lockOf('a.txt')}`, 'reused', { mtimeMs: now - staleTemporaryFileMs - 1 });
    await workspace.writeText('a.txt', 'v2', undefined, { expected: { exists: true, sha256: sha('v1') } });
    assert.equal(raw.text('/ws/a.txt'), 'v2');
    assert.deepEqual(namesIn(raw, folder), []);
  });

  it("leaves the lock another process took over while it held it: only its own is removed", async () => {
    const lock = `${folder}/${lockOf('a.txt')}`;
    const { raw, workspace } = confinedMemoryWorkspace({
      wait: yieldOnly,
      before: (operation) => {
        // While this one is stopped holding the lock, another takes it over and holds it.
        if (operation === 'rename' && raw.text(lock) === 'this') raw.file(lock, 'other', { mtimeMs: 0 });
      },
    });
    raw.file('/ws/a.txt', 'v0');
    await workspace.writeText('a.txt', 'v1');
    assert.equal(raw.text(lock), 'other', "the other process's lock was removed");
  });

  it('waits for a lock exactly as old as a stale one would be, and for another process taking a stale one over', async () => {
    const now = 1_000_000;
    const lock = `${folder}/${lockOf('a.txt')}`;
    const takeover = `${lock}.takeover`;
    const seen: string[] = [];
    const { raw, workspace } = confinedMemoryWorkspace({
      now: () => now,
      wait: async () => {
        // What the waiter finds while it waits; then the other process is done with both.
        seen.push([raw.node(lock) ? 'lock' : '', raw.node(takeover) ? 'takeover' : ''].join('+'));
        for (const path of [lock, takeover]) if (raw.node(path)) (raw.node(folder) as MemoryDirectory).entries.delete(path.split('/').pop()!);
      },
    });
    raw.file('/ws/a.txt', 'v0');
    raw.file(lock, '', { mtimeMs: now - staleChangeLockMs });
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
    assert.deepEqual(seen, ['lock+'], 'a lock not yet stale was taken over');
    seen.length = 0;
    raw.file(lock, '', { mtimeMs: now - staleChangeLockMs - 1 });
    raw.file(takeover, '', { mtimeMs: now });
    await workspace.writeText('a.txt', 'v2', undefined, { expected: { exists: true, sha256: sha('v1') } });
    assert.deepEqual(seen, ['lock+takeover'], "another process's takeover under way was not waited for");
    assert.equal(raw.text('/ws/a.txt'), 'v2');
  });

  it('waits for a lock another process holds, and gives up saying so after a while, changing nothing', async () => {
    let now = 1_000_000;
    let waited = 0;
    const { raw, workspace } = confinedMemoryWorkspace({
      now: () => now,
      wait: async (ms) => {
        waited += ms;
        now += ms;
        // The holder keeps its lock fresh, as a process still at work would by taking it anew.
        const held = raw.node(`${folder}/${lockOf('a.txt')}`);
        if (held?.kind === 'file') held.mtimeMs = now;
      },
    });
    await workspace.writeText('a.txt', 'v0');
    raw.file(`${folder}/${lockOf('a.txt')}`, 'a.txt\n', { mtimeMs: now });
    await assert.rejects(
      workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      /a\.txt is being changed by another Task Planner process .* for more than 30 s; nothing was changed/,
    );
    assert.ok(waited > changeLockPatienceMs && waited < changeLockPatienceMs + 100, `waited ${waited} ms`);
    assert.equal(raw.text('/ws/a.txt'), 'v0');
    assert.deepEqual(namesIn(raw, folder).filter((name) => name.startsWith('write-')), [], 'a temporary file was left behind');
  });

  it('says once, after a second, what a change waits for; a wait shorter than that says nothing', async () => {
    let now = 1_000_000;
    let releaseAt = 0;
    const { raw, workspace } = confinedMemoryWorkspace({
      now: () => now,
      wait: async (ms) => {
        now += ms;
        // The other process releases its lock at `releaseAt`.
        if (now >= releaseAt) (raw.node(folder) as MemoryDirectory).entries.delete(lockOf('a.txt'));
      },
    });
    await workspace.writeText('a.txt', 'v0');
    const told: string[] = [];
    const waiting = (message: string): number => told.push(message);
    raw.file(`${folder}/${lockOf('a.txt')}`, 'a.txt\n', { mtimeMs: now });
    releaseAt = now + changeLockNoticeMs - 100;
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') }, waiting });
    assert.deepEqual(told, [], 'a short wait was told');
    raw.file(`${folder}/${lockOf('a.txt')}`, 'a.txt\n', { mtimeMs: now });
    releaseAt = now + 2_500;
    await workspace.writeText('a.txt', 'v2', undefined, { expected: { exists: true, sha256: sha('v1') }, waiting });
    assert.equal(raw.text('/ws/a.txt'), 'v2');
    assert.deepEqual(told, ['Waiting for a.txt: another Task Planner process (a run of the command line or of another window) is changing it; this change gives up after 30 s.']);
    raw.file(`${folder}/${lockOf('a.txt')}`, 'a.txt\n', { mtimeMs: now });
    releaseAt = now + 1_500;
    await workspace.delete('a.txt', undefined, { expected: { exists: true, sha256: sha('v2') }, waiting });
    assert.equal(told.length, 2, 'a deletion that waited was not told');
    assert.equal(raw.node('/ws/a.txt'), undefined);
  });

  it('goes on unlocked when the lock cannot be made at all (a folder that takes no new file)', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      wait: yieldOnly,
      before: (operation, name) => {
        if (operation === 'writeNewFile' && changeLockName.test(name)) throw Object.assign(new Error('EROFS: read-only'), { code: 'EROFS' });
      },
    });
    await workspace.writeText('a.txt', 'v0');
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
    assert.equal(raw.text('/ws/a.txt'), 'v1');
  });

  it("is not held up without end by a stale lock whose takeover place holds a folder: it goes on unlocked", async () => {
    const now = 1_000_000;
    const { raw, workspace } = confinedMemoryWorkspace({ now: () => now, wait: () => Promise.reject(new Error('waited for a takeover that is none')) });
    await workspace.writeText('a.txt', 'v0');
    raw.file(`${folder}/${lockOf('a.txt')}`, '', { mtimeMs: now - staleChangeLockMs - 1 });
    raw.put(`${folder}/${lockOf('a.txt')}.takeover`, { kind: 'directory', entries: new Map() });
    await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
    assert.equal(raw.text('/ws/a.txt'), 'v1');
  });

  it("is not held up by a folder or a link in the lock's place: the change goes on unlocked", async () => {
    for (const planted of [{ kind: 'directory', entries: new Map() }, { kind: 'link', target: '../../elsewhere' }] as const) {
      const { raw, workspace } = confinedMemoryWorkspace({ wait: () => Promise.reject(new Error('waited for a lock that is none')) });
      await workspace.writeText('a.txt', 'v0');
      raw.put(`${folder}/${lockOf('a.txt')}`, planted);
      await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
      assert.equal(raw.text('/ws/a.txt'), 'v1');
      assert.equal(raw.node(`${folder}/${lockOf('a.txt')}`)?.kind, planted.kind, 'what was planted was removed');
    }
  });

  // The attacks the lock's old place allowed (2026-12-02): it was kept in the workspace's `.task-planner/tmp`, by the path in
  // that workspace. A repository that committed a file there turned the lock off; two windows that opened a repository and
  // a folder inside it took two locks for one file.
  it("attack: a repository's file where .task-planner/tmp goes, or a folder where a lock went, does not turn the lock off", async () => {
    for (const planted of ['file', 'lock folder'] as const) {
      let lockedDuringRename: boolean | undefined;
      const { raw, workspace } = confinedMemoryWorkspace({
        wait: yieldOnly,
        before: (operation, name) => {
          if (operation === 'rename' && name === 'a.txt') lockedDuringRename = raw.node(`${folder}/${lockOf('a.txt')}`) !== undefined;
        },
      });
      raw.file('/ws/a.txt', 'v0');
      if (planted === 'file') raw.file('/ws/.task-planner/tmp', 'committed');
      else raw.put(`/ws/.task-planner/tmp/${lockOf('a.txt')}`, { kind: 'directory', entries: new Map() });
      await workspace.writeText('a.txt', 'v1', undefined, { expected: { exists: true, sha256: sha('v0') } });
      assert.equal(lockedDuringRename, true, `the rename went on unlocked with the repository's ${planted}`);
      assert.equal(raw.text('/ws/a.txt'), 'v1');
    }
  });

  it('attack: a window of a repository and one of a folder inside it take one lock for one file, and neither loses the other\'s change', async () => {
    const outer = confinedMemoryWorkspace({ wait: yieldOnly });
    outer.raw.file('/ws/sub/x.txt', 'v0');
    const innerRaw = Object.create(outer.raw, { rootPath: { value: '/ws/sub' } }) as MemoryRawFs;
    const inner = createConfinedWorkspace(innerRaw, { root: '/ws/sub', clock: { now: () => 0, sleep: yieldOnly }, changeLocks: memoryChangeLocks(outer.raw) });
    const outcomes = await Promise.allSettled([
      outer.workspace.writeText('sub/x.txt', 'v0 + A', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      inner.writeText('x.txt', 'v0 + B', undefined, { expected: { exists: true, sha256: sha('v0') } }),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
    // And the lock one of them holds is the other's too.
    outer.raw.file(`${folder}/${lockOf('sub/x.txt')}`, '', { mtimeMs: 0 });
    let waited = false;
    const waiting = createConfinedWorkspace(innerRaw, {
      root: '/ws/sub',
      clock: {
        now: () => 0,
        sleep: async () => {
          waited = true;
          (outer.raw.node(folder) as MemoryDirectory).entries.delete(lockOf('sub/x.txt'));
        },
      },
      changeLocks: memoryChangeLocks(outer.raw),
    });
    await waiting.writeText('x.txt', 'v2');
    assert.equal(waited, true, "the inner window did not wait for the outer window's lock of the same file");
  });

  it("removes, at its first change, the locks of any file left by processes that ended holding them, older than ten minutes; keeps another process's fresh one and anything not a lock", async () => {
    const now = 10_000_000;
    const { raw, workspace } = confinedMemoryWorkspace({ now: () => now, wait: yieldOnly });
    const old = { mtimeMs: now - staleTemporaryFileMs - 1 };
    raw.file(`${folder}/${lockOf('gone/a.txt')}`, '', old);
    raw.file(`${folder}/${lockOf('gone/b.txt')}.takeover`, '', old);
    raw.file(`${folder}/${lockOf('busy.txt')}`, '', { mtimeMs: now - 1_000 });
    raw.file(`${folder}/notes.txt`, '', old);
    raw.file(`${folder}/${lockOf('at-the-limit.txt')}`, '', { mtimeMs: now - staleTemporaryFileMs });
    raw.put(`${folder}/${lockOf('a-folder')}`, { kind: 'directory', entries: new Map() });
    await workspace.writeText('a.txt', 'v0');
    assert.deepEqual(namesIn(raw, folder), [lockOf('busy.txt'), 'notes.txt', lockOf('at-the-limit.txt'), lockOf('a-folder')].sort());
  });

  it('looks for stale locks once, at its first change, and is not stopped by one gone between the listing and its look', async () => {
    const now = 10_000_000;
    let listed = 0;
    const gone = lockOf('gone.txt');
    const { raw, workspace } = confinedMemoryWorkspace({
      now: () => now,
      wait: yieldOnly,
      before: (operation, name) => {
        if (operation === 'readDirectory' && name === folder) listed++;
        // Another process removed it just after this one listed the folder.
        if (operation === 'lstat' && name === gone) (raw.node(folder) as MemoryDirectory).entries.delete(gone);
      },
    });
    raw.file(`${folder}/${gone}`, '', { mtimeMs: now - staleTemporaryFileMs - 1 });
    await workspace.writeText('a.txt', 'v0');
    await workspace.writeText('a.txt', 'v1');
    assert.equal(listed, 1);
    assert.equal(raw.text('/ws/a.txt'), 'v1');
  });

  it('locks by where the path leads: a write through a link and one to its target take the same lock', async () => {
    const first = confinedMemoryWorkspace({ wait: yieldOnly });
    const second = confinedMemoryWorkspace({ raw: first.raw, wait: yieldOnly });
    await first.workspace.writeText('real.txt', 'v0');
    first.raw.put('/ws/alias.txt', { kind: 'link', target: 'real.txt' });
    const outcomes = await Promise.allSettled([
      first.workspace.writeText('real.txt', 'v0 + A', undefined, { expected: { exists: true, sha256: sha('v0') } }),
      second.workspace.writeText('alias.txt', 'v0 + B', undefined, { expected: { exists: true, sha256: sha('v0') } }),
    ]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
  });
});
