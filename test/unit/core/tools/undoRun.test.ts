import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createDirectoryTool } from '../../../../src/core/tools/createDirectoryTool';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('undoRun', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-undo-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('restores every file the run changed, byte-identical, in reverse order (on disk)', async () => {
    const originals = { 'edit.txt': 'line 1\r\nline 2\r\n\u00e9\u00e8\n', 'gone.bin.txt': '\u{1f600} emoji\n', 'twice.txt': 'v0' };
    for (const [name, text] of Object.entries(originals)) fs.writeFileSync(path.join(dir, name), text);
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, runId: 'run-A' });
    await editFileTool.run(ctx, { path: 'edit.txt', edits: [{ search: 'line 2', replace: 'LINE TWO' }] }, neverAborted);
    await deleteFileTool.run(ctx, { path: 'gone.bin.txt' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'twice.txt', content: 'v1' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'twice.txt', content: 'v2' }, neverAborted);
    await createDirectoryTool.run(ctx, { path: 'made' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'made/new.txt', content: 'new' }, neverAborted);

    const report = await undoRun('run-A', { workspace, checkpoints });
    assert.deepEqual(report, { runId: 'run-A', restored: ['made/new.txt', 'made', 'twice.txt', 'twice.txt', 'gone.bin.txt', 'edit.txt'], unchanged: [], refused: [] });
    for (const [name, text] of Object.entries(originals)) assert.deepEqual(fs.readFileSync(path.join(dir, name)), Buffer.from(text), name);
    // .task-planner holds the (git-ignored) folder of the writes' temporary files.
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.task-planner', 'edit.txt', 'gone.bin.txt', 'twice.txt']);
    const again = await undoRun('run-A', { workspace, checkpoints });
    assert.deepEqual(again.refused, []);
    assert.equal(again.restored.length, 0);
  });

  it('refuses, per file and with the reason, files changed after the run, and restores the rest', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'a0', 'b.txt': 'b0', 'c.txt': 'c0', 'd.txt': 'd0' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, stepId: 'S2' });
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'a1' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'a2' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'b.txt', content: 'b1' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'c.txt', content: 'c1' }, neverAborted);
    await deleteFileTool.run(ctx, { path: 'd.txt' }, neverAborted);
    await workspace.writeText('a.txt', 'a2 plus the user\'s edit');
    await workspace.delete('c.txt');
    await workspace.writeText('d.txt', 'recreated by the user');

    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.restored, ['b.txt']);
    assert.deepEqual(report.refused, [
      { path: 'd.txt', reason: 'd.txt was created again after step S2 deleted it; it is left as it is' },
      { path: 'c.txt', reason: 'c.txt was deleted after step S2 changed it; restore it by hand if you want it back' },
      { path: 'a.txt', reason: 'a.txt was modified after step S2 changed it (its content no longer matches what the run wrote); undoing would lose those changes' },
      { path: 'a.txt', reason: 'an earlier change by step S2 was kept because a later change to a.txt could not be undone' },
    ]);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a2 plus the user\'s edit', 'b.txt': 'b0', 'd.txt': 'recreated by the user' });
  });

  it('leaves a created directory that now holds someone else\'s files', async () => {
    const workspace = createMemoryWorkspace();
    const checkpoints = createMemoryCheckpointStore();
    await createDirectoryTool.run(makeToolContext({ workspace, checkpoints }), { path: 'made' }, neverAborted);
    await workspace.writeText('made/theirs.txt', 'x');
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.match(report.refused[0]?.reason ?? '', /now holds files the run did not create/);
  });
});
