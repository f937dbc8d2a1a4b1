import assert from 'node:assert/strict';
import { ApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createDirectoryTool } from '../../../../src/core/tools/createDirectoryTool';
import { DeferredError } from '../../../../src/core/tools/deferral';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('create_directory', () => {
  it('asks before creating nested directories, records a checkpoint, and is idempotent without asking again', async () => {
    const workspace = createMemoryWorkspace({ 'file.txt': '' });
    const checkpoints = createMemoryCheckpointStore();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const ctx = makeToolContext({ workspace, checkpoints, interaction });
    assert.deepEqual(await createDirectoryTool.run(ctx, { path: 'a/b' }, neverAborted), { path: 'a/b', created: true });
    assert.deepEqual(interaction.approvals(), [{ kind: 'directory', stepId: 'S1', title: 'Test step', path: 'a/b' }]);
    assert.deepEqual(await createDirectoryTool.run(ctx, { path: 'a/b/' }, neverAborted), { path: 'a/b', created: false });
    assert.equal((await workspace.stat('a/b'))?.type, 'directory');
    assert.deepEqual(
      (await checkpoints.list('run-1')).map(({ path, state }) => [path, state]),
      [['a', 'applied'], ['a/b', 'applied']],
      'each folder made is recorded, the outermost first, so Undo removes them all',
    );
    assert.equal(interaction.requests.length, 1, 'an existing directory asks nothing');
    await assert.rejects(createDirectoryTool.run(ctx, { path: 'file.txt' }, neverAborted), /a file with that name exists/);
    await assert.rejects(createDirectoryTool.run(ctx, { path: '.git/x' }, neverAborted), /managed by git/);
  });

  it('creates nothing when the user rejects or nobody can answer', async () => {
    const workspace = createMemoryWorkspace();
    const checkpoints = createMemoryCheckpointStore();
    const rejecting = makeToolContext({ workspace, checkpoints, interaction: new ScriptedInteraction({ approvals: [{ approved: false, reason: 'no' }] }) });
    await assert.rejects(createDirectoryTool.run(rejecting, { path: 'made' }, neverAborted), ApprovalRejectedError);
    const deferring = makeToolContext({ workspace, checkpoints, interaction: new ScriptedInteraction({ approvals: ['defer'] }) });
    await assert.rejects(createDirectoryTool.run(deferring, { path: 'made' }, neverAborted), DeferredError);
    assert.equal(await workspace.stat('made'), undefined);
    assert.deepEqual(await checkpoints.list('run-1'), []);
  });

  it('asks under the same policy as writes: not under commandsOnly', async () => {
    const interaction = new ScriptedInteraction();
    const ctx = makeToolContext({ interaction, approvalPolicy: 'commandsOnly' });
    assert.deepEqual(await createDirectoryTool.run(ctx, { path: 'free' }, neverAborted), { path: 'free', created: true });
    assert.equal(interaction.requests.length, 0);
  });

  it('refuses .git and .task-planner in any letter case as written, creating nothing, even under commandsOnly', async () => {
    const workspace = createMemoryWorkspace();
    const interaction = new ScriptedInteraction();
    const ctx = makeToolContext({ workspace, interaction, approvalPolicy: 'commandsOnly' });
    await assert.rejects(
      createDirectoryTool.run(ctx, { path: '.GIT/hooks' }, neverAborted),
      /it is inside \.git, which git manages: tools never change files there\.$/,
    );
    await assert.rejects(
      createDirectoryTool.run(ctx, { path: '.Task-Planner/runs' }, neverAborted),
      /inside \.task-planner, where Task Planner keeps its run journals/,
    );
    await assert.rejects(createDirectoryTool.run(ctx, { path: '.task-planner' }, neverAborted), /inside \.task-planner/);
    assert.deepEqual(
      [await workspace.stat('.GIT'), await workspace.stat('.Task-Planner'), await workspace.stat('.task-planner')],
      [undefined, undefined, undefined],
    );
    assert.equal(interaction.requests.length, 0);
  });

  it('records what undo needs, refuses a file in the way by cause, and says which directory the user rejected', async () => {
    const workspace = createMemoryWorkspace({ 'file.txt': '' });
    const checkpoints = createMemoryCheckpointStore();
    await createDirectoryTool.run(makeToolContext({ workspace, checkpoints, stepId: 'S4' }), { path: 'made' }, neverAborted);
    assert.deepEqual(await checkpoints.list('run-1'), [
      { runId: 'run-1', stepId: 'S4', seq: 1, path: 'made', operation: 'createDirectory', before: { exists: false }, afterSha256: undefined, state: 'applied' },
    ]);
    await assert.rejects(createDirectoryTool.run(makeToolContext({ workspace }), { path: 'file.txt' }, neverAborted), {
      code: 'not_directory',
      message: 'Cannot create directory file.txt: a file with that name exists',
    });
    const rejecting = makeToolContext({ workspace, interaction: new ScriptedInteraction({ approvals: [{ approved: false }] }) });
    await assert.rejects(createDirectoryTool.run(rejecting, { path: 'other' }, neverAborted), {
      message: 'The user rejected creating the directory other. Nothing was changed.',
    });
  });

  it('creates a directory where no checkpoints are kept', async () => {
    const workspace = createMemoryWorkspace();
    assert.deepEqual(await createDirectoryTool.run(makeToolContext({ workspace, checkpoints: undefined }), { path: 'made' }, neverAborted), {
      path: 'made',
      created: true,
    });
    assert.equal((await workspace.stat('made'))?.type, 'directory');
  });
});
