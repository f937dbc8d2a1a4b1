import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    assert.deepEqual(readdirSync(join(dir, 'state')), ['checkpoints.json']);
  });

  it('starts empty from a missing or unreadable file', async () => {
    assert.deepEqual(await (await loadCheckpointFile(join(dir, 'none.json'))).list('r1'), []);
    writeFileSync(join(dir, 'bad.json'), '{not json');
    const store = await loadCheckpointFile(join(dir, 'bad.json'));
    assert.deepEqual(await store.list('r1'), []);
    await store.record(change);
    assert.equal((await (await loadCheckpointFile(join(dir, 'bad.json'))).list('r1')).length, 1);
  });
});
