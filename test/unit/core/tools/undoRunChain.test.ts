import assert from 'node:assert/strict';
import { runChain } from '../../../../src/core/engine/replanRecord';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { undoRun, undoRunChain } from '../../../../src/core/tools/undoRun';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// A newcomer's find (2026-12-01): after three repair plans the panel listed src/notes.js as changed and offered Undo run,
// which said "Nothing to undo: the run changed no file" and left the change: it undid the last repair's run alone.
describe('undoRunChain', () => {
  it('takes back what the run and every repair changed, newest first, so a file both changed is as before the run', async () => {
    const workspace = createMemoryWorkspace({ 'notes.js': 'v0', 'keep.txt': 'mine' });
    const checkpoints = createMemoryCheckpointStore();
    const write = (runId: string, path: string, content: string) =>
      writeFileTool.run(makeToolContext({ workspace, checkpoints, runId }), { path, content }, neverAborted);
    await write('r1', 'notes.js', 'v1');
    await write('r1-replan-1', 'notes.js', 'v2');
    await write('r1-replan-2', 'added.txt', 'new');
    const chain = runChain({ runId: 'r1-replan-2', replanHistory: [{ failedRunId: 'r1' }, { failedRunId: 'r1-replan-1' }] });
    assert.deepEqual(chain, ['r1', 'r1-replan-1', 'r1-replan-2']);
    const forged = runChain({ runId: 'r1-replan-1', replanHistory: [{ failedRunId: 'r1' }, { failedRunId: 'users-real-run' }, { failedRunId: 'r1-replan-x' }] });
    assert.deepEqual(forged, ['r1', 'r1-replan-1'], 'a journal cannot name another run as one its repairs replaced');

    const lastAlone = await undoRun('r1-replan-2', { workspace: createMemoryWorkspace({}), checkpoints: createMemoryCheckpointStore() });
    assert.deepEqual(lastAlone.restored, [], 'the last run alone holds none of the first two runs\' changes');
    const report = await undoRunChain(chain, { workspace, checkpoints });
    assert.equal(report.runId, 'r1-replan-2');
    assert.deepEqual(report.restored, ['added.txt', 'notes.js', 'notes.js']);
    assert.deepEqual(report.removed, [{ path: 'added.txt', kind: 'file' }]);
    assert.equal(await workspace.readText('notes.js', neverAborted), 'v0');
    assert.equal(await workspace.stat('added.txt', neverAborted), undefined);
    assert.equal(await workspace.readText('keep.txt', neverAborted), 'mine');
    const again = await undoRunChain(chain, { workspace, checkpoints });
    assert.deepEqual([again.restored, again.undoneBefore.sort()], [[], ['added.txt', 'notes.js', 'notes.js']]);
  });

  it('names a file changed since once, as the last run found it, and Undo anyway would put it back as the first run found it', async () => {
    const workspace = createMemoryWorkspace({ 'notes.js': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    await writeFileTool.run(makeToolContext({ workspace, checkpoints, runId: 'r1' }), { path: 'notes.js', content: 'v1' }, neverAborted);
    await writeFileTool.run(makeToolContext({ workspace, checkpoints, runId: 'r1-replan-1' }), { path: 'notes.js', content: 'v2' }, neverAborted);
    await workspace.writeText('notes.js', 'edited by hand', neverAborted);
    const report = await undoRunChain(['r1', 'r1-replan-1'], { workspace, checkpoints });
    assert.deepEqual(report.refused.map((entry) => entry.path), ['notes.js']);
    assert.deepEqual(report.overwritable.map((entry) => [entry.path, entry.current.exists && entry.current.text, entry.restore.exists && entry.restore.text]), [
      ['notes.js', 'edited by hand', 'v0'],
    ]);
    assert.equal(await workspace.readText('notes.js', neverAborted), 'edited by hand');
  });

  it('names each file the journals say the runs changed but no checkpoint records, and only those', async () => {
    const workspace = createMemoryWorkspace({ 'notes.js': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    await writeFileTool.run(makeToolContext({ workspace, checkpoints, runId: 'r1' }), { path: 'notes.js', content: 'v1' }, neverAborted);
    const stepId = (await checkpoints.list('r1'))[0]!.stepId;
    const journaled = [
      { stepId, path: 'notes.js' },
      { stepId: 'S2', path: 'lost.txt' },
      { stepId: 'S3', path: 'lost.txt' },
      // Another step's change to a file whose other change was put back (outside attack, second round).
      { stepId: 'S4', path: 'notes.js' },
    ];
    const report = await undoRunChain(['r1'], { workspace, checkpoints, journaled });
    assert.deepEqual(report.restored, ['notes.js']);
    const missing = (id: string): string => `the record of how it was before step ${id} changed it is missing (the run's checkpoints are damaged), so Undo cannot put that change back`;
    assert.deepEqual(report.refused, [
      { path: 'lost.txt', reason: missing('S2') },
      { path: 'notes.js', reason: missing('S4') },
    ]);
    // Undone already: recorded, so not named again.
    const again = await undoRunChain(['r1'], { workspace, checkpoints, journaled: [{ stepId, path: 'notes.js' }] });
    assert.deepEqual(again.refused, []);
  });
});

