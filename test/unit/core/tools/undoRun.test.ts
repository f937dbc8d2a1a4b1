import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createDirectoryTool } from '../../../../src/core/tools/createDirectoryTool';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { expectedOf } from '../../../../src/core/tools/fileVersions';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
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
    assert.deepEqual(report, {
      runId: 'run-A',
      restored: ['made/new.txt', 'made', 'twice.txt', 'twice.txt', 'gone.bin.txt', 'edit.txt'],
      // Only what the run created is "removed"; the deleted file brought back and the edited ones are restored.
      removed: [{ path: 'made/new.txt', kind: 'file' }, { path: 'made', kind: 'folder' }],
      unchanged: [],
      undoneBefore: [],
      refused: [],
      overwritable: [],
    });
    for (const [name, text] of Object.entries(originals)) assert.deepEqual(fs.readFileSync(path.join(dir, name)), Buffer.from(text), name);
    // .task-planner holds the (git-ignored) folder of the writes' temporary files.
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.task-planner', 'edit.txt', 'gone.bin.txt', 'twice.txt']);
    const again = await undoRun('run-A', { workspace, checkpoints });
    assert.deepEqual(again.refused, []);
    assert.equal(again.restored.length, 0);
  });

  // An outside attack (2026-12-02): after the run wrote x.txt, x.txt was swapped for a link to g.txt holding what the run
  // left; Undo read "exactly what the run left" through the link and wrote x.txt's old text into g.txt.
  it('attack: leaves alone a file swapped for a link to another file of the workspace, and writes nothing through it; a linked folder on the way is no link of the file', async () => {
    fs.writeFileSync(path.join(dir, 'x.txt'), 'orig\n');
    fs.mkdirSync(path.join(dir, 'real'));
    fs.writeFileSync(path.join(dir, 'real', 'y.txt'), 'orig y\n');
    fs.symlinkSync('real', path.join(dir, 'docs'));
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, runId: 'run-L' });
    await writeFileTool.run(ctx, { path: 'x.txt', content: 'run_x\n' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'docs/y.txt', content: 'run_y\n' }, neverAborted);
    fs.writeFileSync(path.join(dir, 'g.txt'), 'run_x\n');
    fs.rmSync(path.join(dir, 'x.txt'));
    fs.symlinkSync('g.txt', path.join(dir, 'x.txt'));
    const report = await undoRun('run-L', { workspace, checkpoints });
    assert.equal(fs.readFileSync(path.join(dir, 'g.txt'), 'utf8'), 'run_x\n', 'Undo wrote through the link');
    assert.deepEqual(report.refused.map((refused) => [refused.path, refused.reason]), [
      ['x.txt', 'x.txt is no longer a file in the workspace (it is now a link to g.txt), and undo does not read or write through it'],
    ]);
    assert.deepEqual(report.restored, ['docs/y.txt']);
    assert.equal(fs.readFileSync(path.join(dir, 'real', 'y.txt'), 'utf8'), 'orig y\n');
  });

  it('reports a file the run created and then changed as removed once, and a file it deleted and re-created as restored', async () => {
    fs.writeFileSync(path.join(dir, 'kept.txt'), 'before\n');
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, runId: 'run-C' });
    await writeFileTool.run(ctx, { path: 'fresh.txt', content: 'one' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'fresh.txt', content: 'two' }, neverAborted);
    await deleteFileTool.run(ctx, { path: 'kept.txt' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'kept.txt', content: 'after\n' }, neverAborted);
    const report = await undoRun('run-C', { workspace, checkpoints });
    assert.deepEqual(report.removed, [{ path: 'fresh.txt', kind: 'file' }]);
    assert.deepEqual(report.restored, ['kept.txt', 'kept.txt', 'fresh.txt', 'fresh.txt']);
    assert.equal(fs.existsSync(path.join(dir, 'fresh.txt')), false);
    assert.equal(fs.readFileSync(path.join(dir, 'kept.txt'), 'utf8'), 'before\n');
  });

  it('brings a deleted executable script back executable, and refuses to delete a link it could not bring back (issue 26, finding 4)', async () => {
    fs.writeFileSync(path.join(dir, 'deploy.sh'), '#!/bin/sh\necho deploy\n', { mode: 0o750 });
    fs.chmodSync(path.join(dir, 'deploy.sh'), 0o750);
    fs.writeFileSync(path.join(dir, 'real.txt'), 'the target\n');
    fs.symlinkSync('real.txt', path.join(dir, 'alias.txt'));
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    await deleteFileTool.run(ctx, { path: 'deploy.sh' }, neverAborted);
    assert.equal(fs.existsSync(path.join(dir, 'deploy.sh')), false);
    await assert.rejects(
      deleteFileTool.run(ctx, { path: 'alias.txt' }, neverAborted),
      /alias\.txt is a symbolic link \(to real\.txt\); delete_file removes files/,
    );
    assert.equal(fs.readlinkSync(path.join(dir, 'alias.txt')), 'real.txt');
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.restored, ['deploy.sh']);
    assert.deepEqual(report.removed, [], 'a file brought back is restored, not removed');
    assert.equal(fs.statSync(path.join(dir, 'deploy.sh')).mode & 0o7777, 0o750);
    assert.equal(fs.readFileSync(path.join(dir, 'deploy.sh'), 'utf8'), '#!/bin/sh\necho deploy\n');
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
      { path: 'd.txt', reason: 'd.txt was created again after step S2 deleted it, and is left as it is' },
      { path: 'c.txt', reason: 'c.txt was deleted after step S2 changed it: restore it by hand if you want it back' },
      {
        path: 'a.txt',
        reason: 'a.txt was changed after step S2 changed it, and undoing would lose those changes',
      },
      { path: 'a.txt', reason: 'an earlier change by step S2 was kept, since a later change to it could not be undone' },
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

  it('says which kept file a created directory still holds, not that the run did not create it (issue 28 walked again)', async () => {
    const workspace = createMemoryWorkspace();
    const checkpoints = createMemoryCheckpointStore();
    const context = makeToolContext({ workspace, checkpoints, stepId: 'S1' });
    await createDirectoryTool.run(context, { path: 'made' }, neverAborted);
    await writeFileTool.run(context, { path: 'made/notes.txt', content: 'by the run' }, neverAborted);
    await workspace.writeText('made/notes.txt', 'by the run, then the user');
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(
      report.refused.map((entry) => entry.path),
      ['made/notes.txt', 'made'],
    );
    assert.equal(report.refused[1]?.reason, 'made (a folder step S1 created) still holds made/notes.txt, which undo kept');
  });

  it('a second undo changes nothing, also after a run that wrote the original content back in between', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints });
    for (const content of ['v1', 'v0', 'v2']) await writeFileTool.run(ctx, { path: 'a.txt', content }, neverAborted);
    assert.deepEqual(await undoRun('run-1', { workspace, checkpoints }), {
      runId: 'run-1',
      restored: ['a.txt', 'a.txt', 'a.txt'],
      removed: [],
      unchanged: [],
      undoneBefore: [],
      refused: [],
      overwritable: [],
    });
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'v0' });
    // Said as done by an earlier Undo, not as "changed no file".
    assert.deepEqual(await undoRun('run-1', { workspace, checkpoints }), { runId: 'run-1', restored: [], removed: [], unchanged: [], undoneBefore: ['a.txt'], refused: [], overwritable: [] });
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'v0' });
  });

  it('a second undo leaves alone the change the user made again by hand after the first (issue 26, finding 4)', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'version = 1' });
    const checkpoints = createMemoryCheckpointStore();
    await writeFileTool.run(makeToolContext({ workspace, checkpoints }), { path: 'a.txt', content: 'version = 2' }, neverAborted);
    assert.deepEqual((await undoRun('run-1', { workspace, checkpoints })).restored, ['a.txt']);
    // The user decides they wanted it after all and types the same change.
    await workspace.writeText('a.txt', 'version = 2');
    assert.deepEqual(await undoRun('run-1', { workspace, checkpoints }), { runId: 'run-1', restored: [], removed: [], unchanged: [], undoneBefore: ['a.txt'], refused: [], overwritable: [] });
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'version = 2' });
    assert.deepEqual((await checkpoints.list('run-1')).map((checkpoint) => checkpoint.state), ['undone']);
  });

  it('removes the folders a new file needed, and leaves out changes that never landed', async () => {
    const workspace = createMemoryWorkspace({ 'keep.txt': 'k' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints });
    await writeFileTool.run(ctx, { path: 'deep/er/new.txt', content: 'new' }, neverAborted);
    workspace.failNextWrite('keep.txt', new Error('disk full'));
    await assert.rejects(writeFileTool.run(ctx, { path: 'keep.txt', content: 'never written' }, neverAborted), /disk full/);
    assert.deepEqual(
      (await checkpoints.list('run-1')).map(({ path, state }) => [path, state]),
      [
        ['deep', 'applied'],
        ['deep/er', 'applied'],
        ['deep/er/new.txt', 'applied'],
        ['keep.txt', 'abandoned'],
      ],
    );
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report, {
      runId: 'run-1',
      restored: ['deep/er/new.txt', 'deep/er', 'deep'],
      removed: [
        { path: 'deep/er/new.txt', kind: 'file' },
        { path: 'deep/er', kind: 'folder' },
        { path: 'deep', kind: 'folder' },
      ],
      unchanged: [],
      undoneBefore: [],
      refused: [],
      overwritable: [],
    });
    assert.deepEqual(workspace.snapshot(), { 'keep.txt': 'k' });
    assert.equal(await workspace.stat('deep'), undefined);
  });

  it('attack: leaves alone a file the user made what a later change found, though it is also what an earlier change left (their work); Undo anyway puts it back', async () => {
    // The run wrote v1 and then v0 again (no change in all); the user then wrote v1 by hand. Read by content alone, v1 is
    // "the second change already undone" and "what the first change left", and Undo wrote v0 over the user's v1 unasked.
    const workspace = createMemoryWorkspace({ 'a.txt': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints });
    for (const content of ['v1', 'v0']) await writeFileTool.run(ctx, { path: 'a.txt', content }, neverAborted);
    await workspace.writeText('a.txt', 'v1');
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.restored, []);
    assert.deepEqual(report.refused.map((entry) => entry.path), ['a.txt', 'a.txt']);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'v1' });
    const anyway = report.overwritable.map((overwrite) => ({ path: overwrite.path, current: expectedOf(overwrite.current), restore: expectedOf(overwrite.restore) }));
    assert.deepEqual((await undoRun('run-1', { workspace, checkpoints, anyway })).restored, ['a.txt']);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'v0' });
  });

  it('attack: an Undo stopped between writing a change back and marking it goes on from there when run again', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints });
    for (const content of ['v1', 'v2']) await writeFileTool.run(ctx, { path: 'a.txt', content }, neverAborted);
    // The first Undo is stopped (a kill) right after it put v1 back, before it marked that change undone.
    const stopped = new Error('killed');
    const stopping = { ...checkpoints, settle: async (checkpoint: Parameters<typeof checkpoints.settle>[0], state: Parameters<typeof checkpoints.settle>[1]) => {
      if (state === 'undone') throw stopped;
      await checkpoints.settle(checkpoint, state);
    } };
    await assert.rejects(undoRun('run-1', { workspace, checkpoints: stopping }), stopped);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'v1' });
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual({ restored: report.restored, unchanged: report.unchanged, refused: report.refused }, { restored: ['a.txt'], unchanged: ['a.txt'], refused: [] });
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'v0' });
    assert.deepEqual((await checkpoints.list('run-1')).map((checkpoint) => checkpoint.state), ['undone', 'undone']);
  });

  it('refuses a file the run created or deleted where a directory now stands', async () => {
    const workspace = createMemoryWorkspace({ 'gone.txt': 'old' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, stepId: 'S3' });
    await writeFileTool.run(ctx, { path: 'new.txt', content: 'made' }, neverAborted);
    await deleteFileTool.run(ctx, { path: 'gone.txt' }, neverAborted);
    await workspace.delete('new.txt');
    await workspace.writeText('new.txt/inside.txt', 'x');
    await workspace.writeText('gone.txt/inside.txt', 'y');
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.refused, [
      { path: 'gone.txt', reason: 'gone.txt is now a directory, where the run left a file' },
      { path: 'new.txt', reason: 'new.txt is now a directory, where the run left a file' },
    ]);
    assert.deepEqual(workspace.snapshot(), { 'new.txt/inside.txt': 'x', 'gone.txt/inside.txt': 'y' });
  });

  it('names a file or folder replaced by a link to the outside and undoes the rest, never acting through the link', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-undo-outside-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.txt'), 'a0\n');
      fs.writeFileSync(path.join(dir, 'f.txt'), 'f0\n');
      const workspace = createNodeWorkspace(dir);
      const checkpoints = createMemoryCheckpointStore();
      const ctx = makeToolContext({ workspace, checkpoints, stepId: 'S1' });
      await writeFileTool.run(ctx, { path: 'a.txt', content: 'a1\n' }, neverAborted);
      await createDirectoryTool.run(ctx, { path: 'made' }, neverAborted);
      await writeFileTool.run(ctx, { path: 'f.txt', content: 'f1\n' }, neverAborted);
      // Links to the outside holding exactly what the run left: undo must neither read them as the run's files nor write through them.
      fs.writeFileSync(path.join(outside, 'a.txt'), 'a1\n');
      fs.rmSync(path.join(dir, 'a.txt'));
      fs.symlinkSync(path.join(outside, 'a.txt'), path.join(dir, 'a.txt'));
      fs.mkdirSync(path.join(outside, 'empty'));
      fs.rmdirSync(path.join(dir, 'made'));
      fs.symlinkSync(path.join(outside, 'empty'), path.join(dir, 'made'));
      const report = await undoRun('run-1', { workspace, checkpoints });
      assert.deepEqual(report.restored, ['f.txt']);
      assert.deepEqual(report.refused, [
        { path: 'made', reason: 'made (a folder step S1 created) is no longer a folder in the workspace (it leads outside the workspace through a symbolic link), and undo does not remove through it' },
        { path: 'a.txt', reason: 'a.txt is no longer a file in the workspace (it leads outside the workspace through a symbolic link), and undo does not read or write through it' },
      ]);
      assert.deepEqual(report.overwritable, []);
      assert.equal(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8'), 'f0\n');
      assert.equal(fs.readFileSync(path.join(outside, 'a.txt'), 'utf8'), 'a1\n');
      assert.ok(fs.statSync(path.join(outside, 'empty')).isDirectory());
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('attack: a file Undo cannot take back (a hard link out, a pipe) is left alone and named, and the rest of the run is undone', async () => {
    // Seen before: the first such file stopped the whole Undo, every time it was tried, with nothing undone.
    fs.writeFileSync(path.join(dir, 'kept.txt'), 'before\n');
    fs.writeFileSync(path.join(dir, 'piped.txt'), 'before\n');
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints });
    for (const [file, content] of [['kept.txt', 'run\n'], ['linked.txt', 'made by the run\n'], ['piped.txt', 'run\n']] as const) {
      await writeFileTool.run(ctx, { path: file, content }, neverAborted);
    }
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-undo-outside-'));
    try {
      fs.linkSync(path.join(dir, 'linked.txt'), path.join(outside, 'copy.txt'));
      fs.rmSync(path.join(dir, 'piped.txt'));
      assert.equal(spawnSync('mkfifo', [path.join(dir, 'piped.txt')]).status, 0);
      const report = await undoRun('run-1', { workspace, checkpoints });
      assert.deepEqual(report.restored, ['kept.txt']);
      assert.deepEqual(report.refused.map((entry) => entry.path), ['piped.txt', 'linked.txt']);
      assert.match(report.refused[1]?.reason ?? '', /^linked\.txt is a hard link/);
      assert.equal(fs.readFileSync(path.join(dir, 'kept.txt'), 'utf8'), 'before\n');
      assert.equal(fs.readFileSync(path.join(outside, 'copy.txt'), 'utf8'), 'made by the run\n', 'written through the hard link');
      assert.deepEqual((await checkpoints.list('run-1')).map((checkpoint) => [checkpoint.path, checkpoint.state]), [
        ['kept.txt', 'undone'],
        ['linked.txt', 'applied'],
        ['piped.txt', 'applied'],
      ]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('attack: a write the workspace refuses after the change was marked undoing is marked back, so the file is never taken for Undo\'s own', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'v0', 'b.txt': 'b0' });
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace: memory, checkpoints });
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'v1' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'b.txt', content: 'b1' }, neverAborted);
    // a.txt changes under the write (compare-and-swap refuses it).
    const racing = {
      ...memory,
      writeText: async (...args: Parameters<typeof memory.writeText>) => {
        if (args[0] === 'a.txt') throw new WorkspaceError('changed', 'a.txt', 'a.txt changed while it was being written.');
        return memory.writeText(...args);
      },
    };
    const report = await undoRun('run-1', { workspace: racing, checkpoints });
    assert.deepEqual([report.restored, report.refused], [['b.txt'], [{ path: 'a.txt', reason: 'a.txt changed while it was being written' }]]);
    assert.deepEqual((await checkpoints.list('run-1')).map((checkpoint) => [checkpoint.path, checkpoint.state]), [['a.txt', 'applied'], ['b.txt', 'undone']]);
    // The user then writes what the run found there: theirs, not Undo's interrupted write, so it is left alone.
    await memory.writeText('a.txt', 'v0');
    assert.deepEqual((await undoRun('run-1', { workspace: memory, checkpoints })).unchanged, ['a.txt']);
    assert.deepEqual(memory.snapshot(), { 'a.txt': 'v0', 'b.txt': 'b0' });
  });

  it('takes a file deleted between looking and reading for deleted, and passes on any other read failure', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    await writeFileTool.run(makeToolContext({ workspace: memory, checkpoints, stepId: 'S1' }), { path: 'a.txt', content: 'v1' }, neverAborted);
    let looks = 0;
    const vanishing = {
      ...memory,
      // There at the first look, gone at the read and at the look after it.
      stat: async (relative: string) => (looks++ === 0 ? memory.stat(relative) : undefined),
      readBytes: async () => { throw new WorkspaceError('not_found', 'a.txt', 'gone'); },
    };
    assert.deepEqual((await undoRun('run-1', { workspace: vanishing, checkpoints })).refused, [
      { path: 'a.txt', reason: 'a.txt was deleted after step S1 changed it: restore it by hand if you want it back' },
    ]);
    // Any other failure to read it is that file's refusal, named; the rest of the run would still be undone.
    const unreadable = { ...memory, readBytes: async () => { throw new WorkspaceError('too_large', 'a.txt', 'a.txt is too large.'); } };
    assert.deepEqual((await undoRun('run-1', { workspace: unreadable, checkpoints })).refused, [
      { path: 'a.txt', reason: 'a.txt is larger than the file tools change (64 MB), so it was not read or changed; change it with a command' },
    ]);
    assert.deepEqual(memory.snapshot(), { 'a.txt': 'v1' });
  });

  it('judges the bytes the run left exactly: a byte a lenient decoding reads the same is a change, left alone and named (issue 26)', async () => {
    fs.writeFileSync(path.join(dir, 'price.txt'), 'price: 10\n');
    fs.writeFileSync(path.join(dir, 'other.txt'), 'before\n');
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, stepId: 'S1' });
    // The run leaves U+FFFD (bytes EF BF BD) in the file.
    await writeFileTool.run(ctx, { path: 'price.txt', content: 'price: \ufffd\n' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'other.txt', content: 'after\n' }, neverAborted);
    // The user puts the Latin-1 byte E9 there instead: a lenient UTF-8 decoding reads it as U+FFFD too, the same text.
    const users = Buffer.from([...Buffer.from('price: '), 0xe9, 0x0a]);
    fs.writeFileSync(path.join(dir, 'price.txt'), users);
    assert.equal(await workspace.readText('price.txt'), 'price: \ufffd\n');

    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.restored, ['other.txt']);
    assert.deepEqual(report.refused, [{
      path: 'price.txt',
      reason: 'price.txt was changed after step S1 changed it (it now holds bytes that are not UTF-8 text), and undoing would lose those changes',
    }]);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'price.txt')), users);
    assert.equal(fs.readFileSync(path.join(dir, 'other.txt'), 'utf8'), 'before\n');
    assert.deepEqual(
      (await checkpoints.list('run-1')).map((checkpoint) => [checkpoint.path, checkpoint.state]),
      [
        ['price.txt', 'applied'],
        ['other.txt', 'undone'],
      ],
    );
  });

  it('judges a file whose bytes are still what the run left as such, whatever its text (a BOM kept)', async () => {
    fs.writeFileSync(path.join(dir, 'bom.txt'), '\ufeffold\n');
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    await editFileTool.run(makeToolContext({ workspace, checkpoints }), { path: 'bom.txt', edits: [{ search: 'old', replace: 'new' }] }, neverAborted);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'bom.txt')), Buffer.from('\ufeffnew\n'));
    assert.deepEqual((await undoRun('run-1', { workspace, checkpoints })).restored, ['bom.txt']);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'bom.txt')), Buffer.from('\ufeffold\n'));
  });

  it('passes on a failure to remove a created directory other than its holding files', async () => {
    const memory = createMemoryWorkspace();
    const checkpoints = createMemoryCheckpointStore();
    await createDirectoryTool.run(makeToolContext({ workspace: memory, checkpoints }), { path: 'made' }, neverAborted);
    const failing = { ...memory, delete: async () => { throw new Error('disk on fire'); } };
    await assert.rejects(undoRun('run-1', { workspace: failing, checkpoints }), /disk on fire/);
  });
});
