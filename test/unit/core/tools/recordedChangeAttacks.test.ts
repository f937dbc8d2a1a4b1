import assert from 'node:assert/strict';
import type { CheckpointState } from '../../../../src/core/runStorePorts';
import { createMemoryCheckpointStore, type MemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { sha256, versionOf } from '../../../../src/core/tools/fileVersions';
import { applyRecorded, recoverInterruptedChanges } from '../../../../src/core/tools/recordedChange';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const states = async (store: MemoryCheckpointStore): Promise<CheckpointState[]> => (await store.list('run-1')).map((checkpoint) => checkpoint.state);

// A crash between a change and its record, at each point, then a resume: the change is made once, never lost, and Undo
// still brings back what the file held before the run.
describe('recorded changes across a crash (attacks)', () => {
  it('attack: a step’s second change of a file landed, its record cut by the crash: the first is still known made, and Undo restores the start', async () => {
    const workspace = createMemoryWorkspace({ 'v.txt': 'version = 1\n' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    // The step (an agent) edits the file twice; the second edit lands, and the process dies before it is settled.
    await editFileTool.run(ctx, { path: 'v.txt', edits: [{ search: 'version = 1', replace: 'version = 2' }] }, neverAborted);
    await checkpoints.record({ runId: 'run-1', stepId: 'S1', path: 'v.txt', operation: 'edit', before: versionOf('version = 2\n'), afterSha256: sha256('version = 3\n') });
    await workspace.writeText('v.txt', 'version = 3\n');

    await recoverInterruptedChanges('run-1', workspace, checkpoints, new Set(['S1']), neverAborted);
    // Both landed, as the disk shows: neither is taken for a change it cannot judge.
    assert.deepEqual(await states(checkpoints), ['recovered', 'recovered']);

    // The resumed step does the same again: both are claimed, nothing is asked or made twice.
    const interaction = new ScriptedInteraction();
    const resumed = makeToolContext({ workspace, checkpoints, interaction, approvalPolicy: 'commandsOnly' });
    await editFileTool.run(resumed, { path: 'v.txt', edits: [{ search: 'version = 1', replace: 'version = 2' }] }, neverAborted);
    await editFileTool.run(resumed, { path: 'v.txt', edits: [{ search: 'version = 2', replace: 'version = 3' }] }, neverAborted);
    assert.equal(interaction.requests.length, 0);
    assert.equal(workspace.snapshot()['v.txt'], 'version = 3\n');

    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.refused, []);
    assert.equal(workspace.snapshot()['v.txt'], 'version = 1\n');
  });

  it('attack: the same crash, and the resumed step does something else to the file: Undo still restores the start', async () => {
    const workspace = createMemoryWorkspace({ 'v.txt': 'a\n' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    await writeFileTool.run(ctx, { path: 'v.txt', content: 'b\n' }, neverAborted);
    await checkpoints.record({ runId: 'run-1', stepId: 'S1', path: 'v.txt', operation: 'write', before: versionOf('b\n'), afterSha256: sha256('c\n') });
    await workspace.writeText('v.txt', 'c\n');
    await recoverInterruptedChanges('run-1', workspace, checkpoints, new Set(['S1']), neverAborted);

    // The model, resumed, now writes another text over what it sees.
    const resumed = makeToolContext({ workspace, checkpoints, interaction: ScriptedInteraction.approvingAll(), approvalPolicy: 'commandsOnly' });
    resumed.seenVersions = new Map([['v.txt', sha256('c\n')]]);
    await writeFileTool.run(resumed, { path: 'v.txt', content: 'd\n' }, neverAborted);
    assert.equal(workspace.snapshot()['v.txt'], 'd\n');

    await undoRun('run-1', { workspace, checkpoints });
    assert.equal(workspace.snapshot()['v.txt'], 'a\n');
  });

  it('attack: a step that changed a file and then changed it back, the crash cutting the second record: Undo leaves the start, not the middle', async () => {
    const workspace = createMemoryWorkspace({ 'v.txt': 'a\n' });
    const checkpoints = createMemoryCheckpointStore();
    await writeFileTool.run(makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' }), { path: 'v.txt', content: 'b\n' }, neverAborted);
    await checkpoints.record({ runId: 'run-1', stepId: 'S1', path: 'v.txt', operation: 'write', before: versionOf('b\n'), afterSha256: sha256('a\n') });
    await workspace.writeText('v.txt', 'a\n');
    await recoverInterruptedChanges('run-1', workspace, checkpoints, new Set(['S1']), neverAborted);
    assert.deepEqual(await states(checkpoints), ['recovered', 'recovered']);
    await undoRun('run-1', { workspace, checkpoints });
    assert.equal(workspace.snapshot()['v.txt'], 'a\n');
  });

  it('attack: a creation whose folders were made, its file not, before the crash: made once on resume, and Undo removes file and folders', async () => {
    const workspace = createMemoryWorkspace({});
    const checkpoints = createMemoryCheckpointStore();
    const before = { exists: false as const };
    await checkpoints.record({ runId: 'run-1', stepId: 'S1', path: 'new', operation: 'createDirectory', before, afterSha256: undefined });
    await checkpoints.record({ runId: 'run-1', stepId: 'S1', path: 'new/file.txt', operation: 'write', before, afterSha256: sha256('hello\n') });
    await workspace.createDirectory('new');
    await recoverInterruptedChanges('run-1', workspace, checkpoints, new Set(['S1']), neverAborted);
    assert.deepEqual(await states(checkpoints), ['applied', 'abandoned']);
    const resumed = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    await writeFileTool.run(resumed, { path: 'new/file.txt', content: 'hello\n' }, neverAborted);
    assert.deepEqual(workspace.snapshot(), { 'new/file.txt': 'hello\n' });
    await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(workspace.snapshot(), {});
    assert.equal(await workspace.stat('new'), undefined);
  });

  it('attack: a write that fails after its intent is recorded leaves Undo nothing to take back of it, and the earlier change still undone', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': 'start\n' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    await writeFileTool.run(ctx, { path: 'f.txt', content: 'first\n' }, neverAborted);
    workspace.failNextWrite('f.txt', new Error('disk full'));
    await assert.rejects(writeFileTool.run(ctx, { path: 'f.txt', content: 'second\n' }, neverAborted), /disk full/);
    assert.deepEqual(await states(checkpoints), ['applied', 'abandoned']);
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.refused, []);
    assert.equal(workspace.snapshot()['f.txt'], 'start\n');
  });

  it('attack: a write that fails after its bytes landed is known made: Undo takes it back, and the step\'s re-run claims it instead of asking', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': 'start\n' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    workspace.failNextWrite('f.txt', new Error('the flush failed'), { afterWriting: true });
    await assert.rejects(writeFileTool.run(ctx, { path: 'f.txt', content: 'second\n' }, neverAborted), /the flush failed/);
    assert.deepEqual(await states(checkpoints), ['applied'], 'the file holds the change: settled abandoned, Undo would leave it');
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.refused, []);
    assert.equal(workspace.snapshot()['f.txt'], 'start\n');
  });

  it('attack: a write refused because the file changed under it is never taken for made, even when the file now holds the same text', async () => {
    // The user saved the very text the step proposes after it read the file: the write is refused as a conflict, and Undo
    // must not take back the user's own save.
    const workspace = createMemoryWorkspace({ 'f.txt': 'second\n' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    await assert.rejects(applyRecorded(ctx, { path: 'f.txt', operation: 'write', before: versionOf('start\n'), after: 'second\n' }, neverAborted));
    assert.deepEqual(await states(checkpoints), ['abandoned']);
  });
});
