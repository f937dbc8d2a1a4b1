import assert from 'node:assert/strict';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';

describe('createMemoryCheckpointStore', () => {
  it('numbers checkpoints per run, returns copies, and survives a JSON round trip', async () => {
    const store = createMemoryCheckpointStore();
    const first = await store.record({ runId: 'r1', stepId: 'S1', path: 'a', operation: 'write', before: { exists: false }, afterSha256: 'h' });
    await store.record({ runId: 'r2', stepId: 'S1', path: 'b', operation: 'delete', before: { exists: true, text: 'b', sha256: 'hb' }, afterSha256: undefined });
    await store.record({ runId: 'r1', stepId: 'S2', path: 'c', operation: 'edit', before: { exists: true, text: 'c', sha256: 'hc' }, afterSha256: 'hc2' });
    assert.equal(first.seq, 1);
    const listed = await store.list('r1');
    assert.deepEqual(listed.map((c) => [c.seq, c.path]), [[1, 'a'], [2, 'c']]);
    listed[0]!.path = 'mutated';
    assert.equal((await store.list('r1'))[0]?.path, 'a');
    const reloaded = createMemoryCheckpointStore(JSON.parse(JSON.stringify(store.toJSON())) as ReturnType<typeof store.toJSON>);
    assert.deepEqual(await reloaded.list('r1'), await store.list('r1'));
    assert.deepEqual((await reloaded.record({ runId: 'r1', stepId: 'S3', path: 'd', operation: 'write', before: { exists: false }, afterSha256: 'x' })).seq, 3);
    assert.deepEqual(await store.list('unknown'), []);
  });
});
