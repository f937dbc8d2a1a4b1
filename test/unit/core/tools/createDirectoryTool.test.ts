import assert from 'node:assert/strict';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createDirectoryTool } from '../../../../src/core/tools/createDirectoryTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('create_directory', () => {
  it('creates nested directories without asking, records a checkpoint, and is idempotent', async () => {
    const workspace = createMemoryWorkspace({ 'file.txt': '' });
    const checkpoints = createMemoryCheckpointStore();
    const interaction = new ScriptedInteraction();
    const ctx = makeToolContext({ workspace, checkpoints, interaction });
    assert.deepEqual(await createDirectoryTool.run(ctx, { path: 'a/b' }, neverAborted), { path: 'a/b', created: true });
    assert.deepEqual(await createDirectoryTool.run(ctx, { path: 'a/b/' }, neverAborted), { path: 'a/b', created: false });
    assert.equal((await workspace.stat('a/b'))?.type, 'directory');
    assert.equal((await checkpoints.list('run-1')).length, 1);
    assert.equal(interaction.requests.length, 0);
    await assert.rejects(createDirectoryTool.run(ctx, { path: 'file.txt' }, neverAborted), /a file with that name exists/);
    await assert.rejects(createDirectoryTool.run(ctx, { path: '.git/x' }, neverAborted), /managed by git/);
  });
});
