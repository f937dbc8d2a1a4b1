import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createDirectoryTool } from '../../../../src/core/tools/createDirectoryTool';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { filesChangedSince, undoRun } from '../../../../src/core/tools/undoRun';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// An editor trial: Undo's question said README.md "goes back to how it was before the run"; the user had changed it since,
// and Undo then left it alone. The question now names such files before the user chooses.
describe('filesChangedSince', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-changed-since-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('names exactly the files Undo would leave alone: changed since the run, deleted since, or made a folder', async () => {
    for (const name of ['kept.txt', 'edited.txt', 'twice.txt', 'back.txt', 'gone.txt', 'folder.txt']) fs.writeFileSync(path.join(dir, name), `${name} before\n`);
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, runId: 'run-A' });
    for (const name of ['kept.txt', 'edited.txt', 'back.txt', 'gone.txt', 'folder.txt']) await writeFileTool.run(ctx, { path: name, content: `${name} by the run\n` }, neverAborted);
    await editFileTool.run(ctx, { path: 'twice.txt', edits: [{ search: 'before', replace: 'first' }] }, neverAborted);
    await editFileTool.run(ctx, { path: 'twice.txt', edits: [{ search: 'first', replace: 'second' }] }, neverAborted);
    await writeFileTool.run(ctx, { path: 'new.txt', content: 'made by the run\n' }, neverAborted);
    await createDirectoryTool.run(ctx, { path: 'made' }, neverAborted);
    // What the user did since.
    fs.writeFileSync(path.join(dir, 'edited.txt'), 'the user\'s line\n');
    fs.writeFileSync(path.join(dir, 'back.txt'), 'back.txt before\n');
    fs.rmSync(path.join(dir, 'gone.txt'));
    fs.rmSync(path.join(dir, 'folder.txt'));
    fs.mkdirSync(path.join(dir, 'folder.txt'));
    const list = await checkpoints.list('run-A');

    const changed = await filesChangedSince(workspace, list);
    // twice.txt holds the run's last change, new.txt the run's own file, back.txt is as before the run: none is left alone.
    assert.deepEqual(changed.sort(), ['edited.txt', 'folder.txt', 'gone.txt']);
    const report = await undoRun('run-A', { workspace, checkpoints });
    assert.deepEqual([...new Set(report.refused.map((refusal) => refusal.path))].sort(), changed.sort(), 'what it named is what Undo left alone');
  });

  it('names nothing for a run whose files are as it left them', async () => {
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, runId: 'run-B' });
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'a\n' }, neverAborted);
    assert.deepEqual(await filesChangedSince(workspace, await checkpoints.list('run-B')), []);
  });
});
