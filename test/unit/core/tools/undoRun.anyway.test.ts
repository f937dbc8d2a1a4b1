import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { undoRun, type UndoAnyway, type UndoOverwrite } from '../../../../src/core/tools/undoRun';
import { expectedOf, sha256, textOf } from '../../../../src/core/tools/fileVersions';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('Undo anyway (issue 28 item 14)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-undo-anyway-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The run S2 changed a.txt twice, created n.txt, deleted d.txt; the user then edited a.txt and n.txt, re-created d.txt, deleted c.txt. */
  async function changedSince() {
    const workspace = createMemoryWorkspace({ 'a.txt': 'a0', 'c.txt': 'c0', 'd.txt': 'd0' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, stepId: 'S2' });
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'a1' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'a2' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'n.txt', content: 'n1' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'c.txt', content: 'c1' }, neverAborted);
    await deleteFileTool.run(ctx, { path: 'd.txt' }, neverAborted);
    await workspace.writeText('a.txt', 'a2 and the user\'s line');
    await workspace.writeText('n.txt', 'n1 and the user\'s line');
    await workspace.delete('c.txt');
    await workspace.writeText('d.txt', 'the user\'s d');
    return { workspace, checkpoints };
  }
  const consentTo = (overwrite: UndoOverwrite): UndoAnyway => ({ path: overwrite.path, current: expectedOf(overwrite.current), restore: expectedOf(overwrite.restore) });

  it('offers each file changed since with exactly what is there now and what the file was before the run', async () => {
    const { workspace, checkpoints } = await changedSince();
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(
      report.overwritable.map(({ path: where, current, restore }) => [where, textOf(current), textOf(restore)]),
      [
        ['d.txt', 'the user\'s d', 'd0'],
        ['c.txt', undefined, 'c0'],
        ['n.txt', 'n1 and the user\'s line', undefined],
        // Both of the run's changes to a.txt are taken back: the file as it was before its first.
        ['a.txt', 'a2 and the user\'s line', 'a0'],
      ],
    );
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a2 and the user\'s line', 'n.txt': 'n1 and the user\'s line', 'd.txt': 'the user\'s d' });
  });

  it('writes exactly the shown before-the-run content over exactly the shown content, and a second Undo does nothing', async () => {
    const { workspace, checkpoints } = await changedSince();
    const first = await undoRun('run-1', { workspace, checkpoints });
    const report = await undoRun('run-1', { workspace, checkpoints, anyway: first.overwritable.map(consentTo) });
    assert.deepEqual(report.refused, []);
    assert.deepEqual(report.restored, ['d.txt', 'c.txt', 'n.txt', 'a.txt']);
    assert.deepEqual(report.removed, [{ path: 'n.txt', kind: 'file' }]);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a0', 'c.txt': 'c0', 'd.txt': 'd0' });
    assert.ok((await checkpoints.list('run-1')).every((checkpoint) => checkpoint.state === 'undone'));
    await workspace.writeText('a.txt', 'a2');
    const again = await undoRun('run-1', { workspace, checkpoints, anyway: first.overwritable.map(consentTo) });
    assert.deepEqual([again.restored, again.refused, again.overwritable], [[], [], []]);
    assert.equal(workspace.snapshot()['a.txt'], 'a2');
  });

  it('overwrites only the files consented to', async () => {
    const { workspace, checkpoints } = await changedSince();
    const first = await undoRun('run-1', { workspace, checkpoints });
    const a = first.overwritable.find((overwrite) => overwrite.path === 'a.txt');
    assert.ok(a);
    const report = await undoRun('run-1', { workspace, checkpoints, anyway: [consentTo(a)] });
    assert.deepEqual(report.restored, ['a.txt']);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a0', 'n.txt': 'n1 and the user\'s line', 'd.txt': 'the user\'s d' });
  });

  it('never overwrites a file changed again after the difference was shown, and offers the new content instead', async () => {
    const { workspace, checkpoints } = await changedSince();
    const first = await undoRun('run-1', { workspace, checkpoints });
    await workspace.writeText('a.txt', 'a line typed while the difference was open');
    await workspace.writeText('c.txt', 'c.txt made again while the difference was open');
    const report = await undoRun('run-1', { workspace, checkpoints, anyway: first.overwritable.map(consentTo) });
    assert.deepEqual(workspace.snapshot()['a.txt'], 'a line typed while the difference was open');
    assert.deepEqual(workspace.snapshot()['c.txt'], 'c.txt made again while the difference was open');
    assert.match(report.refused.find((entry) => entry.path === 'a.txt')?.reason ?? '', /changed again after the difference was shown, so Undo anyway left it too/);
    assert.equal(textOf(report.overwritable.find((overwrite) => overwrite.path === 'a.txt')?.current ?? { exists: false }), 'a line typed while the difference was open');
    assert.deepEqual(report.restored.sort(), ['d.txt', 'n.txt']);
  });

  it('never writes a content other than the one shown as before the run', async () => {
    const { workspace, checkpoints } = await changedSince();
    const first = await undoRun('run-1', { workspace, checkpoints });
    const forged = first.overwritable.map((overwrite) => ({ ...consentTo(overwrite), restore: { exists: true as const, sha256: sha256('something else') } }));
    const report = await undoRun('run-1', { workspace, checkpoints, anyway: forged });
    assert.deepEqual(report.restored, []);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a2 and the user\'s line', 'n.txt': 'n1 and the user\'s line', 'd.txt': 'the user\'s d' });
  });

  it('does not offer a directory or bytes that are not text, and never writes over them', async () => {
    fs.writeFileSync(path.join(dir, 'bytes.txt'), 'ok\n');
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints });
    await writeFileTool.run(ctx, { path: 'bytes.txt', content: 'changed\n' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'dir.txt', content: 'x' }, neverAborted);
    fs.writeFileSync(path.join(dir, 'bytes.txt'), Buffer.from([0xff, 0xfe, 0x00]));
    fs.rmSync(path.join(dir, 'dir.txt'));
    fs.mkdirSync(path.join(dir, 'dir.txt'));
    const anyway = ['bytes.txt', 'dir.txt'].map((where) => ({ path: where, current: { exists: false as const }, restore: { exists: false as const } }));
    const report = await undoRun('run-1', { workspace, checkpoints, anyway });
    assert.deepEqual(report.overwritable, []);
    assert.deepEqual(report.refused.map((entry) => entry.path).sort(), ['bytes.txt', 'dir.txt']);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'bytes.txt')), Buffer.from([0xff, 0xfe, 0x00]));
    assert.ok(fs.statSync(path.join(dir, 'dir.txt')).isDirectory());
  });
});
