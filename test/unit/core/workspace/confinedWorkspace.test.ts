import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { isWorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { createConfinedWorkspace } from '../../../../src/core/workspace/confinedWorkspace';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { confinedMemoryWorkspace, memoryRoot, type MemoryDirectory, namesIn, stillClock } from '../../../fakes/memoryRawFs';
import { memoryChangeLocks } from '../../../fakes/memoryChangeLocks';
import { describeWorkspaceFsConformance } from '../../conformance/workspaceFsConformance';

const failed = (code: string, pattern = /./) => (error: unknown): boolean => error instanceof WorkspaceError && error.code === code && pattern.test(error.message);

describeWorkspaceFsConformance('the workspace policy over an in-memory raw file system', async (files) => {
  const { raw, workspace } = confinedMemoryWorkspace();
  for (const [file, text] of Object.entries(files)) raw.file(`${memoryRoot}/${file}`, text);
  return { workspace, dispose: async () => assert.equal(raw.open, 0, 'every directory handle is closed') };
});

// Where handles are paths (the editor's file service, systems without directory descriptors), the policy is the same.
describeWorkspaceFsConformance('the workspace policy over an in-memory raw file system whose handles are paths', async (files) => {
  const { raw, workspace } = confinedMemoryWorkspace({ handlesKnowTheirPlace: false });
  for (const [file, text] of Object.entries(files)) raw.file(`${memoryRoot}/${file}`, text);
  return { workspace, dispose: async () => undefined };
});

describe('createConfinedWorkspace', () => {
  it('refuses a file with several hard links by default, in every method that touches it, and allows it when asked', async () => {
    const { raw } = confinedMemoryWorkspace();
    raw.file('/ws/hard.txt', 'SECRET', { links: 2 });
    const workspace = createConfinedWorkspace(raw, { root: memoryRoot, clock: stillClock, changeLocks: memoryChangeLocks(raw) });
    const hard = failed('hard_link', /^hard\.txt is a hard link: the same file has 2 names/);
    await assert.rejects(workspace.readText('hard.txt'), hard);
    await assert.rejects(workspace.writeText('hard.txt', 'x'), hard);
    await assert.rejects(workspace.delete('hard.txt'), hard);
    assert.equal(raw.text('/ws/hard.txt'), 'SECRET');
    const allowed = createConfinedWorkspace(raw, { root: memoryRoot, clock: stillClock, allowHardLinks: true, changeLocks: memoryChangeLocks(raw) });
    assert.equal(await allowed.readText('hard.txt'), 'SECRET');
    await allowed.writeText('hard.txt', 'changed');
    assert.equal(raw.text('/ws/hard.txt'), 'changed');
  });

  it('refuses to read anything but a regular file, and to write over a directory', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.put('/ws/pipe', { kind: 'other' });
    raw.file('/ws/dir/a.txt', 'a');
    await assert.rejects(workspace.readText('pipe'), failed('not_regular', /^pipe is not a regular file \(a device, socket or pipe\); only regular files can be read$/));
    await assert.rejects(workspace.readText('dir'), failed('is_directory', /^dir is a directory, not a file$/));
    await assert.rejects(workspace.readText(''), failed('is_directory', /^\. is a directory, not a file$/));
    await assert.rejects(workspace.writeText('', 'x'), failed('is_directory', /^The workspace root is a directory, not a file$/));
    await assert.rejects(workspace.writeText('dir', 'x'), failed('is_directory', /^dir is a directory; choose a file path$/));
    assert.equal((await workspace.stat('pipe'))?.type, 'file');
  });

  it('refuses a read over the limit before reading, saying the size and the limit', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/big.txt', 'é'.repeat(10));
    await assert.rejects(workspace.readText('big.txt', undefined, { maxBytes: 19 }), failed('too_large', /^big\.txt is 20 bytes, more than the 19-byte limit for this read$/));
    assert.equal(await workspace.readText('big.txt', undefined, { maxBytes: 20 }), 'é'.repeat(10));
  });

  it('deletes what the path names and refuses the root, missing paths and full directories, saying what to do', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/full/a.txt', 'a');
    raw.put('/ws/empty', { kind: 'directory', entries: new Map() });
    await assert.rejects(workspace.delete(''), (error: unknown) => error instanceof PathRefusedError && /the workspace root itself cannot be deleted/.test(error.message));
    await assert.rejects(workspace.delete('nope.txt'), failed('not_found', /^Nothing to delete: nope\.txt does not exist$/));
    await assert.rejects(workspace.delete('nope/x.txt'), failed('not_found', /^Nothing to delete: nope\/x\.txt does not exist$/));
    await assert.rejects(workspace.delete('full'), failed('not_empty', /^full is a directory that is not empty; delete its files first$/));
    await workspace.delete('empty');
    assert.deepEqual(namesIn(raw, '/ws'), ['full']);
  });

  it('deletes a link (never its target) only while the file it leads to is the version the deletion expects, as every read sees it', async () => {
    const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/target.txt', 'v1');
    raw.put('/ws/dir', { kind: 'directory', entries: new Map([['inner.txt', { kind: 'file', text: 'x', links: 1, mtimeMs: 0, mode: 0o644 }]]) });
    raw.put('/ws/link.txt', { kind: 'link', target: 'target.txt' });
    raw.put('/ws/to-dir', { kind: 'link', target: 'dir' });
    await assert.rejects(workspace.delete('link.txt', undefined, { expected: { exists: true, sha256: sha('v0') } }), failed('changed', /^link\.txt changed after/));
    await assert.rejects(workspace.delete('link.txt', undefined, { expected: { exists: false } }), failed('changed'));
    // No file is read through a link to a folder: only a deletion that expects none goes ahead.
    await assert.rejects(workspace.delete('to-dir', undefined, { expected: { exists: true, sha256: sha('x') } }), failed('changed'));
    assert.deepEqual(namesIn(raw, '/ws'), ['dir', 'link.txt', 'target.txt', 'to-dir']);
    await workspace.delete('link.txt', undefined, { expected: { exists: true, sha256: sha('v1') } });
    await workspace.delete('to-dir', undefined, { expected: { exists: false } });
    assert.deepEqual(namesIn(raw, '/ws'), ['dir', 'target.txt']);
    assert.equal(raw.text('/ws/target.txt'), 'v1');
    assert.deepEqual(namesIn(raw, '/ws/dir'), ['inner.txt']);
  });

  it('says nothing is there to delete when the entry vanished between the check and the deletion', async () => {
    const vanishing = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'lstat' && name === 'gone.txt' && vanishing.raw.text('/ws/gone.txt') === 'second look') (vanishing.raw.node('/ws') as MemoryDirectory).entries.delete('gone.txt');
        else if (operation === 'lstat' && name === 'gone.txt') vanishing.raw.file('/ws/gone.txt', 'second look');
      },
    });
    vanishing.raw.file('/ws/gone.txt', 'g');
    await assert.rejects(vanishing.workspace.delete('gone.txt'), failed('not_found', /^Nothing to delete: gone\.txt does not exist$/));
  });

  it('reports missing files with their path, and stats files, directories and nothing', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/a.txt', 'abc', { mtimeMs: 1234 });
    await assert.rejects(workspace.readText('b/c.txt'), failed('not_found', /^File not found: b\/c\.txt$/));
    await assert.rejects(workspace.readText('b.txt'), failed('not_found', /^File not found: b\.txt$/));
    assert.deepEqual(await workspace.stat('a.txt'), { type: 'file', size: 3, mtimeMs: 1234, mode: 0o644 });
    // No mode where the file system keeps none (a directory of this fake).
    assert.deepEqual(await workspace.stat(''), { type: 'directory', size: 0, mtimeMs: 0 });
    assert.equal(await workspace.stat('b.txt'), undefined);
    assert.equal(await workspace.stat('b/c.txt'), undefined);
  });

  it('lets other work run every 64 reads or looks', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    let breaths = 0;
    raw.breathe = async () => void breaths++;
    raw.file('/ws/a.txt', 'a');
    for (let index = 0; index < 100; index++) await workspace.readText('a.txt');
    assert.equal(breaths, 1);
    for (let index = 0; index < 28; index++) await workspace.stat('a.txt');
    assert.equal(breaths, 2);
  });

  it('reports a file-system failure in the user\'s words (the path they gave, never an internal one), releasing every handle', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation) => {
        if (operation === 'lstat' || operation === 'statDirectory') throw Object.assign(new Error("EACCES: permission denied, open '/proc/self/fd/12/a.txt'"), { code: 'EACCES' });
      },
    });
    raw.file('/ws/d/a.txt', 'a');
    const denied = (path: string) => (error: unknown) => {
      assert.ok(isWorkspaceError(error, 'no_permission'));
      assert.equal(error.message, `${path} cannot be read: permission denied. Check the permissions of it and of the folders above it.`);
      assert.equal(error.path, path === 'the workspace folder' ? '' : path);
      return true;
    };
    await assert.rejects(workspace.stat('d/a.txt'), denied('d/a.txt'));
    await assert.rejects(workspace.stat('d'), denied('d'));
    await assert.rejects(workspace.stat(''), denied('the workspace folder'));
    assert.equal(raw.open, 0);
  });

  it('says in a failure whether the path could not be read, changed or listed', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation) => {
        if (operation === 'realRoot') throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      },
    });
    raw.file('/ws/a.txt', 'a');
    const failure = (words: string) => failed('io_error', new RegExp(`^${words}: an input/output error \\(EIO\\)\\.$`));
    await assert.rejects(workspace.readText('a.txt'), failure('a.txt cannot be read'));
    await assert.rejects((workspace.readBytes as NonNullable<typeof workspace.readBytes>)('a.txt'), failure('a.txt cannot be read'));
    await assert.rejects(workspace.stat('a.txt'), failure('a.txt cannot be read'));
    await assert.rejects((workspace.locate as NonNullable<typeof workspace.locate>)('a.txt'), failure('a.txt cannot be read'));
    await assert.rejects(workspace.writeText('a.txt', 'b'), failure('a.txt cannot be changed'));
    await assert.rejects(workspace.delete('a.txt'), failure('a.txt cannot be changed'));
    await assert.rejects(workspace.createDirectory('d'), failure('d cannot be changed'));
    await assert.rejects(workspace.list(), failure('the workspace folder cannot be listed'));
    assert.equal(raw.text('/ws/a.txt'), 'a');
  });

  it('never deletes a pipe or device that a deletion expecting no file finds there', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.put('/ws/pipe', { kind: 'other' });
    await assert.rejects(workspace.delete('pipe', undefined, { expected: { exists: false } }), failed('changed', /^pipe changed after/));
    assert.deepEqual(namesIn(raw, '/ws'), ['pipe']);
  });

  it('leaves out of a listing a folder it may not read, and skips such a file in a search (attack: a locked folder or file)', async () => {
    const deny = (name: string) => {
      if (name === 'locked' || name === 'locked.txt') throw Object.assign(new Error("EACCES: permission denied, open '/proc/self/fd/9/locked'"), { code: 'EACCES' });
    };
    const { raw, workspace } = confinedMemoryWorkspace({ before: (operation, name) => (operation === 'openDirectory' || operation === 'openFile' ? deny(name) : undefined) });
    raw.file('/ws/a.txt', 'x');
    raw.file('/ws/locked/b.txt', 'x');
    raw.file('/ws/locked.txt', 'x');
    raw.file('/ws/src/locked/deep/c.txt', 'x');
    raw.file('/ws/ignored/locked/d.txt', 'x');
    raw.file('/ws/.gitignore', 'ignored/\n');
    assert.deepEqual(await workspace.list(), { files: ['.gitignore', 'a.txt', 'locked.txt'], unreadable: ['locked', 'src/locked'], links: [] }, 'named, an ignored folder never looked at');
    assert.deepEqual(await workspace.list('**/*.md'), { files: [], unreadable: ['locked', 'src/locked'], links: [] }, 'named whatever the glob: it may hold matches');
    await assert.rejects(workspace.readText('locked.txt'), /^WorkspaceError: locked\.txt cannot be read: permission denied\./);
    await assert.rejects(workspace.readText('locked/b.txt'), /^WorkspaceError: locked\/b\.txt cannot be read: permission denied\./);
    await assert.rejects(workspace.writeText('locked/c.txt', 'y'), /^WorkspaceError: locked\/c\.txt cannot be changed: permission denied\./);
    assert.equal(raw.open, 0);
  });

  it('fails a listing whose root it may not read, saying so', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation) => {
        if (operation === 'readDirectory') throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    });
    raw.file('/ws/a.txt', 'x');
    await assert.rejects(workspace.list(), /^WorkspaceError: the workspace folder cannot be listed: permission denied\./);
  });

  it('passes on an error that is no file-system failure as it is', async () => {
    const { raw, workspace } = confinedMemoryWorkspace({
      before: (operation) => {
        if (operation === 'lstat') throw new TypeError('a bug in the adapter');
      },
    });
    raw.file('/ws/a.txt', 'a');
    await assert.rejects(workspace.stat('a.txt'), (error: unknown) => error instanceof TypeError && error.message === 'a bug in the adapter');
  });

  it('accepts long legitimate names up to the file-system limit and refuses longer, hidden or look-alike ones before touching anything', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    const longest = 'é'.repeat(127) + 'x';
    await workspace.writeText(`dir/${longest}`, 'long');
    assert.equal(raw.text(`/ws/dir/${longest}`), 'long');
    await assert.rejects(workspace.writeText(`dir/${longest}xx`, 'x'), PathRefusedError);
    for (const input of ['⒈⒈/x', 'a﹪2e', 'a\u202eb.txt', '..', 'a/../../b', ' ..', 'dir/\u200b.txt']) await assert.rejects(workspace.writeText(input, 'x'), PathRefusedError, input);
    assert.deepEqual(namesIn(raw, '/ws/dir'), [longest]);
    assert.deepEqual(namesIn(raw, '/ws'), ['.task-planner', 'dir']);
  });

  it('reads bytes under the rules of reading text: hard links and reads over the limit refused, a breath every 64 reads, every handle closed', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/hard.png', 'SECRET', { links: 2 });
    raw.file('/ws/a.png', 'ab');
    await assert.rejects(async () => workspace.readBytes?.('hard.png'), failed('hard_link'));
    await assert.rejects(async () => workspace.readBytes?.('a.png', undefined, { maxBytes: 1 }), failed('too_large', /^a\.png is 2 bytes, more than the 1-byte limit for this read$/));
    let breaths = 0;
    raw.breathe = async () => void breaths++;
    for (let index = 0; index < 64; index++) assert.deepEqual([...((await workspace.readBytes?.('a.png')) ?? [])], [0x61, 0x62]);
    assert.equal(breaths, 1);
    assert.equal(raw.open, 0, 'every handle is closed');
  });
});
