import assert from 'node:assert/strict';
import type { WorkspaceFs } from '../../../../src/core/ports';
import { staleTemporaryFileMs, temporaryFolder, temporaryFolderIgnore } from '../../../../src/core/workspace/atomicWrites';
import { maxLinks } from '../../../../src/core/workspace/confinedWalk';
import { createConfinedWorkspace } from '../../../../src/core/workspace/confinedWorkspace';
import type { ManyTextReader } from '../../../../src/core/workspace/readTextMany';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { MemoryRawFs, type MemoryDirectory, type MemoryRawFsOptions, type RawOperation } from '../../../fakes/memoryRawFs';
import { describeWorkspaceFsConformance } from '../../conformance/workspaceFsConformance';

const root = '/ws';

function setUp(options: MemoryRawFsOptions & { allowHardLinks?: boolean; now?: () => number } = {}): { raw: MemoryRawFs; workspace: WorkspaceFs & ManyTextReader } {
  const raw = new MemoryRawFs(root, options);
  raw.put(root, { kind: 'directory', entries: new Map() });
  const workspace = createConfinedWorkspace(raw, { root, allowHardLinks: options.allowHardLinks ?? false, ...(options.now ? { now: options.now } : {}) });
  return { raw, workspace };
}

const refused = (pattern: RegExp) => (error: unknown): boolean => error instanceof PathRefusedError && pattern.test(error.message);
const failed = (code: string, pattern = /./) => (error: unknown): boolean => error instanceof WorkspaceError && error.code === code && pattern.test(error.message);

describeWorkspaceFsConformance('the workspace policy over an in-memory raw file system', async (files) => {
  const { raw, workspace } = setUp();
  for (const [file, text] of Object.entries(files)) raw.file(`${root}/${file}`, text);
  return { workspace, dispose: async () => assert.equal(raw.open, 0, 'every directory handle is closed') };
});

describe('createConfinedWorkspace: symbolic links', () => {
  it('follows links that stay inside, relative or absolute, and says where they lead', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/src/a.ts', 'a');
    raw.put('/ws/rel', { kind: 'link', target: 'src' });
    raw.put('/ws/abs', { kind: 'link', target: '/ws/src/a.ts' });
    raw.put('/ws/src/up', { kind: 'link', target: '../src/a.ts' });
    assert.deepEqual([await workspace.readText('rel/a.ts'), await workspace.readText('abs'), await workspace.readText('src/up')], ['a', 'a', 'a']);
    assert.deepEqual([await workspace.locate?.('rel/a.ts'), await workspace.locate?.('abs'), await workspace.locate?.('rel/new/x.ts')], ['src/a.ts', 'src/a.ts', 'src/new/x.ts']);
    await workspace.writeText('rel/b.ts', 'b');
    assert.equal(raw.text('/ws/src/b.ts'), 'b');
    assert.equal(raw.open, 0);
  });

  it('refuses links that lead out, absolutely or by climbing, in every method, touching nothing outside', async () => {
    const { raw, workspace } = setUp();
    raw.file('/outside/secret.txt', 'SECRET');
    raw.put('/ws/out', { kind: 'link', target: '/outside' });
    raw.put('/ws/climb', { kind: 'link', target: '../outside' });
    raw.put('/ws/deep', { kind: 'link', target: 'x/../../outside/secret.txt' });
    raw.put('/ws/x', { kind: 'directory', entries: new Map() });
    const outside = refused(/leads outside the workspace through a symbolic link/);
    for (const input of ['out/secret.txt', 'climb/secret.txt', 'deep']) {
      await assert.rejects(workspace.readText(input), outside, input);
      await assert.rejects(workspace.writeText(input, 'x'), outside, input);
      await assert.rejects(workspace.stat(input), outside, input);
      await assert.rejects(workspace.delete(input), outside, input);
    }
    await assert.rejects(workspace.createDirectory('out/new'), outside);
    assert.deepEqual([...(raw.node('/outside') as MemoryDirectory).entries.keys()], ['secret.txt']);
    assert.equal(raw.text('/outside/secret.txt'), 'SECRET');
    assert.deepEqual(await workspace.list(), []);
    assert.equal(raw.open, 0);
  });

  it('refuses a dangling link, and a loop, saying so', async () => {
    const { raw, workspace } = setUp();
    raw.put('/ws/dangling', { kind: 'link', target: 'nowhere.txt' });
    raw.put('/ws/dir-dangling', { kind: 'link', target: 'nowhere' });
    raw.put('/ws/loop', { kind: 'link', target: 'loop' });
    const dangling = refused(/symbolic link whose target does not exist/);
    await assert.rejects(workspace.readText('dangling'), dangling);
    await assert.rejects(workspace.writeText('dangling', 'x'), dangling);
    await assert.rejects(workspace.writeText('dir-dangling/a.txt', 'x'), dangling);
    await assert.rejects(workspace.createDirectory('dir-dangling/sub'), dangling);
    await assert.rejects(workspace.stat('dangling'), dangling);
    await assert.rejects(workspace.delete('dangling'), dangling);
    assert.equal(raw.node('/ws/nowhere.txt'), undefined, 'nothing was created where the link points');
    assert.equal(raw.node('/ws/nowhere'), undefined);
    await assert.rejects(workspace.readText('loop'), refused(new RegExp(`too many symbolic links`)));
    assert.equal(maxLinks, 40);
  });

  it('refuses changes that lead into .git through a link (any letter case), creating nothing there', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/.git/config', '[core]');
    raw.put('/ws/docs', { kind: 'link', target: '.GIT' });
    raw.put('/ws/.GIT', { kind: 'link', target: '.git' });
    const intoGit = refused(/inside \.git, which git manages/);
    await assert.rejects(workspace.writeText('docs/hooks/pre-commit', 'echo pwned'), intoGit);
    await assert.rejects(workspace.createDirectory('docs/hooks'), intoGit);
    await assert.rejects(workspace.delete('docs/config'), intoGit);
    await assert.rejects(workspace.writeText('.git/config', 'x'), refused(/leads to \.git\/config, inside \.git/));
    assert.deepEqual([...(raw.node('/ws/.git') as MemoryDirectory).entries.keys()], ['config']);
    assert.equal(await workspace.readText('docs/config'), '[core]', 'reading stays allowed');
  });

  it('deletes a link itself, never its target', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/target.txt', 't');
    raw.put('/ws/link', { kind: 'link', target: 'target.txt' });
    await workspace.delete('link');
    assert.equal(raw.node('/ws/link'), undefined);
    assert.equal(raw.text('/ws/target.txt'), 't');
  });
});

describe('createConfinedWorkspace: races (a directory swapped while the policy works)', () => {
  it('keeps reading in the directory it opened when that directory is swapped for a link that leads out', async () => {
    let swapped = false;
    const { raw, workspace } = setUp({
      before: (operation, name) => {
        if (operation === 'openFile' && name === 'secret.txt' && !swapped) {
          swapped = true;
          const inside = raw.node('/ws/d');
          raw.put('/ws/d-old', inside as MemoryDirectory);
          raw.put('/ws/d', { kind: 'link', target: '/outside' });
        }
      },
    });
    raw.file('/ws/d/secret.txt', 'inside');
    raw.file('/outside/secret.txt', 'OUTSIDE');
    assert.equal(await workspace.readText('d/secret.txt'), 'inside');
    assert.equal(swapped, true);
    await assert.rejects(workspace.readText('d/secret.txt'), refused(/leads outside/));
  });

  it('writes into the directory it opened when that directory is swapped for a link that leads out', async () => {
    const { raw, workspace } = setUp({
      before: (operation, name) => {
        if (operation === 'rename' && name === 'new.txt') {
          raw.put('/ws/d-old', raw.node('/ws/d') as MemoryDirectory);
          raw.put('/ws/d', { kind: 'link', target: '/outside' });
        }
      },
    });
    raw.put('/ws/d', { kind: 'directory', entries: new Map() });
    raw.put('/outside', { kind: 'directory', entries: new Map() });
    await workspace.writeText('d/new.txt', 'text');
    assert.equal(raw.text('/ws/d-old/new.txt'), 'text');
    assert.deepEqual([...(raw.node('/outside') as MemoryDirectory).entries.keys()], []);
  });

  it('refuses when a directory on the way was moved outside after it was opened', async () => {
    const { raw, workspace } = setUp({
      before: (operation, name) => {
        if (operation === 'openDirectory' && name === 'sub') {
          raw.put('/outside/d', raw.node('/ws/d') as MemoryDirectory);
          (raw.node('/ws') as MemoryDirectory).entries.delete('d');
        }
      },
    });
    raw.file('/ws/d/sub/a.txt', 'a');
    await assert.rejects(workspace.writeText('d/sub/a.txt', 'changed'), refused(/a directory on its way was moved outside the workspace/));
    assert.equal(raw.text('/outside/d/sub/a.txt'), 'a');
    assert.equal(raw.open, 0);
  });

  it('refuses when the root was replaced while in use, and names a missing root', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/a.txt', 'a');
    assert.equal(await workspace.readText('a.txt'), 'a');
    raw.put('/ws-moved', raw.node('/ws') as MemoryDirectory);
    raw.file('/elsewhere/a.txt', 'ELSEWHERE');
    raw.put('/ws', { kind: 'link', target: '/elsewhere' });
    await assert.rejects(workspace.readText('a.txt'), refused(/the workspace root \/ws was moved or replaced while in use/));
    raw.top.entries.delete('ws');
    await assert.rejects(workspace.readText('a.txt'), refused(/the workspace root \/ws does not exist/));
    const absent = new MemoryRawFs('/absent');
    await assert.rejects(createConfinedWorkspace(absent, { root: '/absent' }).list(), refused(/the workspace root \/absent does not exist/));
  });

  it('gives up on a link that keeps vanishing and reappearing, saying to try again', async () => {
    const { raw, workspace } = setUp({
      before: (operation, name) => {
        if (operation === 'readLink' && name === 'flip') (raw.node('/ws') as MemoryDirectory).entries.delete('flip');
        if (operation === 'openDirectory' && name === 'flip') raw.put('/ws/flip', { kind: 'link', target: 'd' });
      },
    });
    raw.file('/ws/d/a.txt', 'a');
    raw.put('/ws/flip', { kind: 'link', target: 'd' });
    await assert.rejects(workspace.readText('flip/a.txt'), /flip\/a\.txt kept changing while it was being opened; try again/);
    assert.equal(raw.open, 0);
  });
});

describe('createConfinedWorkspace: a file system that fails mid-write', () => {
  const failing = (fail: RawOperation, code: string, when: (name: string) => boolean = () => true): MemoryRawFsOptions => ({
    before: (operation, name) => {
      if (operation === fail && when(name)) throw Object.assign(new Error(`${code}: simulated ${operation} failure`), { code });
    },
  });
  const temporaries = (raw: MemoryRawFs): string[] => [...((raw.node(`${root}/${temporaryFolder}`) as MemoryDirectory | undefined)?.entries.keys() ?? [])].filter((name) => name !== '.gitignore');

  for (const [operation, code] of [['writeNewFile', 'ENOSPC'], ['rename', 'EIO']] as const) {
    it(`leaves the old file whole and no temporary file when ${operation} fails (${code})`, async () => {
      const { raw, workspace } = setUp(failing(operation, code, (name) => name !== '.gitignore'));
      raw.file('/ws/keep.txt', 'original');
      await assert.rejects(workspace.writeText('keep.txt', 'new'), new RegExp(`simulated ${operation} failure`));
      assert.equal(raw.text('/ws/keep.txt'), 'original');
      assert.deepEqual(temporaries(raw), []);
      assert.deepEqual([...(raw.node('/ws') as MemoryDirectory).entries.keys()].sort(), ['.task-planner', 'keep.txt']);
      assert.equal(raw.open, 0);
    });
  }

  it('writes next to the target when the rename cannot cross file systems, leaving no temporary file', async () => {
    const { raw, workspace } = setUp(failing('rename', 'EXDEV', () => temporaries(raw).length > 0));
    raw.file('/ws/dir/keep.txt', 'original', { mode: 0o750 });
    await workspace.writeText('dir/keep.txt', 'new');
    assert.equal(raw.text('/ws/dir/keep.txt'), 'new');
    assert.equal((raw.node('/ws/dir/keep.txt') as { mode: number }).mode, 0o750, 'the mode is kept');
    assert.deepEqual([...(raw.node('/ws/dir') as MemoryDirectory).entries.keys()], ['keep.txt']);
    assert.deepEqual(temporaries(raw), []);
  });

  it('leaves the old file when aborted after the temporary file is written, and does not retry elsewhere', async () => {
    const controller = new AbortController();
    const { raw, workspace } = setUp({ before: (operation) => operation === 'writeNewFile' && temporaries(raw).length === 0 && raw.node(`${root}/${temporaryFolder}/.gitignore`) && queueMicrotask(() => controller.abort(new Error('cancelled by the user'))) });
    raw.file('/ws/keep.txt', 'original');
    await assert.rejects(workspace.writeText('keep.txt', 'new', controller.signal), /cancelled by the user/);
    assert.equal(raw.text('/ws/keep.txt'), 'original');
    assert.deepEqual(temporaries(raw), []);
    assert.deepEqual([...(raw.node('/ws') as MemoryDirectory).entries.keys()].sort(), ['.task-planner', 'keep.txt']);
  });

  it('hides its temporary folder from git and removes only stale temporary files at the first write', async () => {
    const now = 100 * staleTemporaryFileMs;
    const { raw, workspace } = setUp({ now: () => now });
    raw.file(`/ws/${temporaryFolder}/write-00112233445566aa`, 'stale', { mtimeMs: now - staleTemporaryFileMs - 1 });
    raw.file(`/ws/${temporaryFolder}/write-00112233445566bb`, 'recent', { mtimeMs: now - staleTemporaryFileMs });
    raw.file(`/ws/${temporaryFolder}/notes.txt`, 'not ours', { mtimeMs: 0 });
    raw.put(`/ws/${temporaryFolder}/write-00112233445566cc`, { kind: 'directory', entries: new Map() });
    await workspace.readText(`${temporaryFolder}/notes.txt`);
    assert.equal(raw.text(`/ws/${temporaryFolder}/write-00112233445566aa`), 'stale', 'reading removes nothing');
    await workspace.writeText('a.txt', 'a');
    assert.deepEqual([...(raw.node(`/ws/${temporaryFolder}`) as MemoryDirectory).entries.keys()].sort(), ['.gitignore', 'notes.txt', 'write-00112233445566bb', 'write-00112233445566cc']);
    assert.equal(raw.text(`/ws/${temporaryFolder}/.gitignore`), temporaryFolderIgnore);
    assert.deepEqual(await workspace.list(), ['a.txt']);
  });

  it('writes next to the target when the temporary folder cannot be made', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/.task-planner', 'a file in the way');
    await workspace.writeText('dir/a.txt', 'a');
    assert.equal(raw.text('/ws/dir/a.txt'), 'a');
    assert.deepEqual([...(raw.node('/ws/dir') as MemoryDirectory).entries.keys()], ['a.txt']);
  });

  it('says which file is in the way of a new directory', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/a/file.txt', 'x');
    await assert.rejects(workspace.writeText('a/file.txt/b/c.txt', 'x'), failed('not_directory', /Cannot create a\/file\.txt\/b\/c\.txt: a\/file\.txt is a file in the way/));
    await assert.rejects(workspace.createDirectory('a/file.txt'), failed('not_directory', /a\/file\.txt is a file in the way/));
    const racing = setUp({ before: (operation) => operation === 'makeDirectory' && undefined });
    racing.raw.makeDirectory = async () => 'not_directory';
    await assert.rejects(racing.workspace.createDirectory('new'), failed('not_directory', /Cannot create new: a file is in the way/));
  });
});

describe('createConfinedWorkspace: what it reads and changes', () => {
  it('refuses a file with several hard links unless allowed, in every method that touches it', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/hard.txt', 'SECRET', { links: 2 });
    const hard = failed('hard_link', /hard\.txt is a hard link: the same file has 2 names/);
    await assert.rejects(workspace.readText('hard.txt'), hard);
    await assert.rejects(workspace.writeText('hard.txt', 'x'), hard);
    await assert.rejects(workspace.delete('hard.txt'), hard);
    const seen: unknown[] = [];
    await workspace.readTextMany(['hard.txt'], (_, text, error) => void seen.push(text ?? (error as WorkspaceError).code));
    assert.deepEqual(seen, ['hard_link']);
    assert.equal(raw.text('/ws/hard.txt'), 'SECRET');
    const allowed = createConfinedWorkspace(raw, { root, allowHardLinks: true });
    assert.equal(await allowed.readText('hard.txt'), 'SECRET');
    await allowed.writeText('hard.txt', 'changed');
    assert.equal(raw.text('/ws/hard.txt'), 'changed');
  });

  it('refuses to read anything but a regular file', async () => {
    const { raw, workspace } = setUp();
    raw.put('/ws/pipe', { kind: 'other' });
    raw.file('/ws/dir/a.txt', 'a');
    await assert.rejects(workspace.readText('pipe'), failed('not_regular', /pipe is not a regular file \(a device, socket or pipe\)/));
    await assert.rejects(workspace.readText('dir'), failed('is_directory', /^dir is a directory, not a file$/));
    await assert.rejects(workspace.readText(''), failed('is_directory', /^\. is a directory, not a file$/));
    await assert.rejects(workspace.writeText('', 'x'), failed('is_directory', /The workspace root is a directory/));
    await assert.rejects(workspace.writeText('dir', 'x'), failed('is_directory', /dir is a directory; choose a file path/));
    assert.equal((await workspace.stat('pipe'))?.type, 'file');
  });

  it('refuses a read over the limit before reading, saying the size and the limit', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/big.txt', 'é'.repeat(10));
    await assert.rejects(workspace.readText('big.txt', undefined, { maxBytes: 19 }), failed('too_large', /^big\.txt is 20 bytes, more than the 19-byte limit for this read$/));
    assert.equal(await workspace.readText('big.txt', undefined, { maxBytes: 20 }), 'é'.repeat(10));
  });

  it('deletes what the path names and refuses the root, missing paths and full directories with what to do', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/full/a.txt', 'a');
    raw.put('/ws/empty', { kind: 'directory', entries: new Map() });
    await assert.rejects(workspace.delete(''), refused(/the workspace root itself cannot be deleted/));
    await assert.rejects(workspace.delete('nope.txt'), failed('not_found', /^Nothing to delete: nope\.txt does not exist$/));
    await assert.rejects(workspace.delete('nope/x.txt'), failed('not_found', /^Nothing to delete: nope\/x\.txt does not exist$/));
    await assert.rejects(workspace.delete('full'), failed('not_empty', /^full is a directory that is not empty; delete its files first$/));
    await workspace.delete('empty');
    assert.equal(raw.node('/ws/empty'), undefined);
    const vanishing = setUp({ before: (operation, name) => operation === 'lstat' && name === 'gone.txt' && vanishing && (vanishing.raw.node('/ws') as MemoryDirectory).entries.delete('gone.txt') });
    vanishing.raw.file('/ws/gone.txt', 'g');
    await assert.rejects(vanishing.workspace.delete('gone.txt'), failed('not_found', /Nothing to delete: gone\.txt/));
  });

  it('stats files, directories and nothing, with size and time', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/a.txt', 'abc', { mtimeMs: 1234 });
    assert.deepEqual(await workspace.stat('a.txt'), { type: 'file', size: 3, mtimeMs: 1234 });
    assert.equal((await workspace.stat(''))?.type, 'directory');
    assert.equal(await workspace.stat('b.txt'), undefined);
    assert.equal(await workspace.stat('b/c.txt'), undefined);
  });

  it('lists files and file links inside, not linked directories, links out, temporary or ignored files', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/src/a.ts', 'a');
    raw.file('/ws/src/.gitignore', 'gen/\n*.log\n');
    raw.file('/ws/src/gen/x.ts', 'x');
    raw.file('/ws/src/b.log', 'b');
    raw.file('/ws/.task-planner-tmp-0011', 'stray');
    raw.file('/ws/node_modules/m.js', 'm');
    raw.put('/ws/src/link.ts', { kind: 'link', target: 'a.ts' });
    raw.put('/ws/src/ignored.log', { kind: 'link', target: 'a.ts' });
    raw.put('/ws/out.ts', { kind: 'link', target: '/outside/a.ts' });
    raw.put('/ws/dir-link', { kind: 'link', target: 'src' });
    raw.put('/ws/pipe', { kind: 'other' });
    raw.file('/outside/a.ts', 'SECRET');
    assert.deepEqual(await workspace.list(), ['src/.gitignore', 'src/a.ts', 'src/link.ts']);
    assert.deepEqual(await workspace.list('**/*.ts'), ['src/a.ts', 'src/link.ts']);
    assert.equal(raw.open, 0);
  });

  it('reads many files with exactly what readText gives each, closing every handle', async () => {
    const { raw, workspace } = setUp();
    raw.file('/ws/a.txt', 'a');
    raw.file('/ws/src/b.txt', 'b');
    raw.file('/ws/src/hard.txt', 'h', { links: 2 });
    raw.file('/ws/src/big.txt', 'x'.repeat(50));
    raw.put('/ws/src/link.txt', { kind: 'link', target: 'b.txt' });
    raw.put('/ws/src/pipe', { kind: 'other' });
    raw.put('/ws/out', { kind: 'link', target: '/outside' });
    raw.file('/outside/s.txt', 'SECRET');
    const paths = ['a.txt', 'src/b.txt', 'src/link.txt', 'src/hard.txt', 'src/big.txt', 'src/pipe', 'src', '', 'out/s.txt', 'nope/x', '../x', 'src/b.txt'];
    const describe = (text: string | undefined, error: unknown): string => text ?? `${(error as Error).name}: ${(error as Error).message}`;
    const expected: string[] = [];
    for (const input of paths) expected.push(await workspace.readText(input, undefined, { maxBytes: 40 }).then((text) => describe(text, undefined), (error: unknown) => describe(undefined, error)));
    const seen: string[] = [];
    await workspace.readTextMany(paths, (_, text, error) => void seen.push(describe(text, error)), undefined, { maxBytes: 40 });
    assert.deepEqual(seen, expected);
    assert.deepEqual(seen.slice(0, 3), ['a', 'b', 'b']);
    assert.equal(raw.open, 0);
    const stopped: string[] = [];
    await workspace.readTextMany(paths, (input) => stopped.push(input) < 2);
    assert.deepEqual(stopped, ['a.txt', 'src/b.txt']);
    assert.equal(raw.open, 0);
  });

  it('keeps at most a bounded number of directories open while reading many', async () => {
    const { raw, workspace } = setUp();
    const paths: string[] = [];
    let most = 0;
    for (let index = 0; index < 40; index++) {
      raw.file(`/ws/d${index}/f.txt`, `${index}`);
      paths.push(`d${index}/f.txt`);
    }
    const texts: string[] = [];
    await workspace.readTextMany(paths, (_, text) => {
      most = Math.max(most, raw.open);
      texts.push(text ?? '');
    });
    assert.deepEqual(texts, paths.map((_, index) => `${index}`));
    assert.ok(most <= 17, `${most} open at most`);
    assert.equal(raw.open, 0);
  });

  it('accepts long legitimate names up to the file-system limit and refuses longer ones before touching anything', async () => {
    const { raw, workspace } = setUp();
    const longest = 'é'.repeat(127) + 'x';
    await workspace.writeText(`dir/${longest}`, 'long');
    assert.equal(raw.text(`/ws/dir/${longest}`), 'long');
    await assert.rejects(workspace.writeText(`dir/${longest}xx`, 'x'), refused(/a path segment is longer than 255 bytes/));
    for (const input of ['⒈⒈/x', 'a﹪2e', 'a\u202eb.txt', '..', 'a/../../b', ' ..']) await assert.rejects(workspace.writeText(input, 'x'), PathRefusedError, input);
    assert.deepEqual([...(raw.node('/ws/dir') as MemoryDirectory).entries.keys()], [longest]);
  });
});

// Where handles are paths (the editor's file service, systems without directory descriptors), the policy is the same.
describeWorkspaceFsConformance('the workspace policy over an in-memory raw file system whose handles are paths', async (files) => {
  const { raw, workspace } = setUp({ handlesKnowTheirPlace: false });
  for (const [file, text] of Object.entries(files)) raw.file(`${root}/${file}`, text);
  return { workspace, dispose: async () => undefined };
});
