import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { otherWindowStorages } from '../../../src/node/otherWindowStorage';

const extension = 'task-planner.task-planner';
/** A pid no process has: above any pid_max. */
const deadPid = 2_147_483_646;

describe('otherWindowStorages', () => {
  let root: string;
  const now = Date.now();
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'workspace-storage-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** `<root>/<name>/<extension>`, with `lock` written as that storage folder's vscode.lock (touched `touchedAgoMs` before now). */
  function storage(name: string, lock?: string | object, touchedAgoMs = 1_000): string {
    const dir = join(root, name, extension);
    mkdirSync(dir, { recursive: true });
    if (lock !== undefined) {
      const file = join(root, name, 'vscode.lock');
      writeFileSync(file, typeof lock === 'string' ? lock : JSON.stringify(lock));
      const touched = new Date(now - touchedAgoMs);
      utimesSync(file, touched, touched);
    }
    return dir;
  }
  const held = (pid = process.pid) => ({ pid, willReleaseAt: 0 });

  it("lists the base folder and the other numbered ones holding this extension's folder, never this window's own", async () => {
    const mine = storage('abc123-1', held());
    const base = storage('abc123', held());
    const third = storage('abc123-2');
    mkdirSync(join(root, 'abc123-3'));
    storage('other456', held());
    storage('abc123-10', held());
    const found = await otherWindowStorages(mine, now);
    // In the order VS Code tries them.
    assert.deepEqual(
      found,
      [
        { storageDir: base, held: true, reloadTakesIt: true },
        { storageDir: third, held: false, reloadTakesIt: false },
      ],
    );
  });

  it('lists the numbered folders when this window has the base folder', async () => {
    const mine = storage('abc123', held());
    const second = storage('abc123-1', held());
    assert.deepEqual(await otherWindowStorages(mine, now), [{ storageDir: second, held: true, reloadTakesIt: false }]);
  });

  it('says a reload takes a folder only when it comes before this window\'s own and every folder before it is held', async () => {
    const mine = storage('s-3', held());
    storage('s', held());
    storage('s-2');
    // s-1 is free (never made): a reload takes it, not s-2.
    assert.deepEqual(
      (await otherWindowStorages(mine, now)).map((found) => [found.storageDir, found.held, found.reloadTakesIt]),
      [
        [join(root, 's', extension), true, true],
        [join(root, 's-2', extension), false, false],
      ],
    );
    // s-1 held by a window that never used Task Planner (no folder of it there): now a reload takes s-2.
    mkdirSync(join(root, 's-1'));
    writeFileSync(join(root, 's-1', 'vscode.lock'), JSON.stringify(held()));
    assert.deepEqual(
      (await otherWindowStorages(mine, now)).map((found) => [found.storageDir, found.held, found.reloadTakesIt]),
      [
        [join(root, 's', extension), true, true],
        [join(root, 's-2', extension), false, true],
      ],
    );
  });

  it('counts a lock as held only as VS Code does: its process alive, touched within 10 minutes, not released', async () => {
    const mine = storage('w-1');
    const cases: [string | object, number, boolean][] = [
      [held(), 1_000, true],
      [held(), 599_000, true],
      [held(), 601_000, false],
      [held(deadPid), 1_000, false],
      [{ pid: process.pid, willReleaseAt: now - 1 }, 1_000, false],
      [{ pid: process.pid, willReleaseAt: now + 6_000 }, 1_000, true],
    ];
    for (const [lock, ago, expected] of cases) {
      storage('w', lock, ago);
      assert.deepEqual(await otherWindowStorages(mine, now), [{ storageDir: join(root, 'w', extension), held: expected, reloadTakesIt: true }], JSON.stringify({ lock, ago }));
    }
  });

  it('takes a hostile or damaged lock file for no lock: not JSON, not an object, a pid that is no pid, a huge file', async () => {
    const mine = storage('w-1');
    const hostile: string[] = [
      'not json',
      'null',
      '[1]',
      JSON.stringify({ pid: '1' }),
      JSON.stringify({ pid: -1 }),
      JSON.stringify({ pid: 0 }),
      JSON.stringify({ pid: 1.5 }),
      JSON.stringify({ pid: process.pid, pad: 'x'.repeat(10_000) }),
    ];
    for (const lock of hostile) {
      storage('w', lock);
      assert.deepEqual(await otherWindowStorages(mine, now), [{ storageDir: join(root, 'w', extension), held: false, reloadTakesIt: true }], lock.slice(0, 40));
    }
  });

  it('finds nothing, and creates nothing, when no other window kept a folder', async () => {
    const mine = storage('solo');
    assert.deepEqual(await otherWindowStorages(mine, now), []);
    assert.deepEqual(await otherWindowStorages(join(root, 'never', extension), now), []);
    assert.deepEqual(readdirSync(root), ['solo']);
  });
});
