import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCheckpointFile } from '../../../src/node/checkpointFile';

describe('loadCheckpointFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const change = { runId: 'r1', stepId: 'S1', path: 'a.txt', operation: 'write' as const, before: { exists: false as const }, afterSha256: 'abc' };

  it('keeps the checkpoints across a reload (a new store over the same file), with no temporary file left', async () => {
    const file = join(dir, 'state', 'checkpoints.json');
    const first = await loadCheckpointFile(file);
    await first.record(change);
    await first.record({ ...change, path: 'b.txt' });
    const reloaded = await loadCheckpointFile(file);
    assert.deepEqual((await reloaded.list('r1')).map((checkpoint) => [checkpoint.seq, checkpoint.path]), [[1, 'a.txt'], [2, 'b.txt']]);
    assert.deepEqual(await reloaded.list('other'), []);
    assert.deepEqual(readdirSync(join(dir, 'state')), ['.gitignore', 'checkpoints.json'], 'the folder is kept out of git');
  });

  // An outside attacker's report: each line was synced, the folder never, so a new log could be lost to a power loss.
  it("syncs every line, and the log's folder once, after its first line", async () => {
    const file = join(dir, 'state', 'checkpoints.json');
    const store = await loadCheckpointFile(file);
    const probe = await open(join(dir, 'probe'), 'w');
    const handles = Object.getPrototypeOf(probe) as { sync: (this: FileHandle) => Promise<void> };
    await probe.close();
    const { sync } = handles;
    const synced: string[] = [];
    handles.sync = async function (this: FileHandle) {
      synced.push((await this.stat()).isDirectory() ? 'folder' : 'line');
      return sync.call(this);
    };
    try {
      const first = await store.record(change);
      await store.settle(first, 'applied');
      await store.record({ ...change, path: 'b.txt' });
    } finally {
      handles.sync = sync;
    }
    assert.deepEqual(synced, ['line', 'folder', 'line', 'line']);
  });

  it('starts empty from a missing or unreadable file', async () => {
    assert.deepEqual(await (await loadCheckpointFile(join(dir, 'none.json'))).list('r1'), []);
    writeFileSync(join(dir, 'bad.json'), '{not json');
    const store = await loadCheckpointFile(join(dir, 'bad.json'));
    assert.deepEqual(await store.list('r1'), []);
    await store.record(change);
    assert.equal((await (await loadCheckpointFile(join(dir, 'bad.json'))).list('r1')).length, 1);
  });

  it('appends one line per record and settlement: what was written before is never rewritten', async () => {
    const file = join(dir, 'checkpoints.json');
    const store = await loadCheckpointFile(file);
    const big = { exists: true as const, text: 'x'.repeat(10_000), sha256: 'f'.repeat(64) };
    const first = await store.record({ ...change, before: big });
    const afterFirst = readFileSync(file, 'utf8');
    await store.settle(first, 'applied');
    await store.record({ ...change, path: 'b.txt', before: big });
    const now = readFileSync(file, 'utf8');
    assert.ok(now.startsWith(afterFirst), 'the first line is kept as it was');
    assert.equal(now.split('\n').filter(Boolean).length, 3);
    assert.ok(now.length < 2 * afterFirst.length + 200, 'a settlement is a short line, not the store again');
    assert.deepEqual((await (await loadCheckpointFile(file)).list('r1')).map((checkpoint) => checkpoint.state), ['applied', 'intended']);
  });

  // An outside attacker's find (2026-12-01): a record the disk cut short was followed, once space came back, by the next
  // one glued to it, so the next record (its change then made) was gone after a reload, and Undo did not restore it.
  for (const truncates of [true, false]) {
    it(`keeps the next record whole after a write that failed part way (${truncates ? 'cut off' : 'when it cannot be cut off'})`, async () => {
      const file = join(dir, 'checkpoints.json');
      let failNext = false;
      const failing: typeof open = async (path, flags) => {
        const handle = await open(path, flags);
        if (!failNext) return handle;
        failNext = false;
        const writeFile: FileHandle['writeFile'] = async (data) => {
          await handle.write(String(data).slice(0, 30));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        };
        const truncate: FileHandle['truncate'] = truncates ? (length) => handle.truncate(length) : async () => Promise.reject(new Error('EIO'));
        return Object.assign(Object.create(handle) as FileHandle, { writeFile, truncate });
      };
      const store = await loadCheckpointFile(file, { open: failing });
      await store.record({ ...change, stepId: 'S1' });
      failNext = true;
      await assert.rejects(store.record({ ...change, stepId: 'S2', before: { exists: true, text: 'x'.repeat(1000), sha256: 'b', mode: 0o644 } }), /ENOSPC/);
      await store.record({ ...change, stepId: 'S3' });
      const reloaded = await loadCheckpointFile(file);
      assert.deepEqual((await reloaded.list('r1')).map((found) => found.stepId), ['S1', 'S3']);
    });
  }

  it('skips a last line cut short by a crash: the change it began was never made', async () => {
    const file = join(dir, 'checkpoints.json');
    const store = await loadCheckpointFile(file);
    await store.record(change);
    appendFileSync(file, '{"record":{"runId":"r1","stepId":"S2","seq":2,"pa');
    const reloaded = await loadCheckpointFile(file);
    assert.deepEqual((await reloaded.list('r1')).map((checkpoint) => checkpoint.seq), [1]);
    await reloaded.record({ ...change, path: 'c.txt' });
    assert.deepEqual((await (await loadCheckpointFile(file)).list('r1')).map((checkpoint) => checkpoint.path), ['a.txt', 'c.txt']);
  });

  it('reads the JSON array an older version wrote, and turns it into lines at the first write without losing any', async () => {
    const file = join(dir, 'checkpoints.json');
    writeFileSync(file, JSON.stringify([{ ...change, seq: 1, state: 'applied' }, { ...change, runId: 'r0', seq: 1 }]));
    const store = await loadCheckpointFile(file);
    assert.deepEqual((await store.list('r0')).map((checkpoint) => checkpoint.state), ['applied'], 'a checkpoint without a state was applied');
    await store.record({ ...change, path: 'b.txt' });
    assert.ok(!readFileSync(file, 'utf8').startsWith('['));
    const reloaded = await loadCheckpointFile(file);
    assert.deepEqual((await reloaded.list('r1')).map((checkpoint) => [checkpoint.seq, checkpoint.path, checkpoint.state]), [[1, 'a.txt', 'applied'], [2, 'b.txt', 'intended']]);
    assert.equal((await reloaded.list('r0')).length, 1);
    assert.deepEqual(readdirSync(dir).filter((name) => name !== '.gitignore'), ['checkpoints.json'], 'no temporary file left');
  });
});
