import assert from 'node:assert/strict';
import { listFilesTool, maxNamedUnreadableFolders } from '../../../../src/core/tools/listFilesTool';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { confinedMemoryWorkspace } from '../../../fakes/memoryRawFs';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('list_files', () => {
  const workspace = createMemoryWorkspace({
    '.gitignore': 'out/\n',
    'src/a.ts': '', 'src/b.ts': '', 'src/c.md': '', 'out/gen.ts': '', 'node_modules/x/i.ts': '', '.git/HEAD': '',
  });
  const ctx = makeToolContext({ workspace });

  it('lists by glob, honouring .gitignore and skipping .git and node_modules', async () => {
    assert.deepEqual(await listFilesTool.run(ctx, { glob: '**/*.ts' }, neverAborted), { files: ['src/a.ts', 'src/b.ts'], total: 2, truncated: false });
    assert.deepEqual((await listFilesTool.run(ctx, {}, neverAborted)).files, ['.gitignore', 'src/a.ts', 'src/b.ts', 'src/c.md']);
  });

  it('takes a folder as `path`, as models ask for one (a local model\'s list_files {"path": "src"} was refused, a turn lost)', async () => {
    const list = async (input: { path?: string; glob?: string }) => (await listFilesTool.run(ctx, input, neverAborted)).files;
    assert.deepEqual(await list({ path: 'src' }), ['src/a.ts', 'src/b.ts', 'src/c.md']);
    assert.deepEqual(await list({ path: './src/' }), ['src/a.ts', 'src/b.ts', 'src/c.md']);
    assert.deepEqual(await list({ path: 'src', glob: '*.md' }), ['src/c.md']);
    assert.deepEqual(await list({ path: '.' }), ['.gitignore', 'src/a.ts', 'src/b.ts', 'src/c.md']);
    assert.deepEqual(await list({ path: 'sr' }), [], 'a folder, not a prefix of names');
    // Filtered from the workspace's own listing: nothing outside it, in .git or ignored is reached through it.
    for (const path of ['..', '../src', '/etc', '.git', 'out', 'node_modules']) assert.deepEqual(await list({ path }), [], path);
    assert.equal(listFilesTool.inputSchema.safeParse({ path: 'src', folder: 'x' }).success, false, 'other keys are still refused');
  });

  it('caps the result and reports the total', async () => {
    assert.deepEqual(await listFilesTool.run(ctx, { limit: 2 }, neverAborted), { files: ['.gitignore', 'src/a.ts'], total: 4, truncated: true });
    assert.equal(listFilesTool.inputSchema.safeParse({ limit: 0 }).success, false);
    assert.equal(listFilesTool.inputSchema.safeParse({ limit: 10_001 }).success, false);
  });

  it('refuses globs that leave the workspace', async () => {
    await assert.rejects(listFilesTool.run(ctx, { glob: '../**/*' }, neverAborted), PathRefusedError);
    await assert.rejects(listFilesTool.run(ctx, { glob: '/etc/*' }, neverAborted), PathRefusedError);
  });

  it('names the folders it was not allowed to read, at most 50, and counts the others (attack: many locked folders)', async () => {
    const { raw, workspace: locked } = confinedMemoryWorkspace({
      before: (operation, name) => {
        if (operation === 'openDirectory' && name.startsWith('locked')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    });
    raw.file('/ws/a.txt', 'x');
    for (let index = 0; index < 60; index++) raw.file(`/ws/locked${String(index).padStart(2, '0')}/b.txt`, 'x');
    const result = await listFilesTool.run(makeToolContext({ workspace: locked }), {}, neverAborted);
    assert.deepEqual([result.files, result.total], [['a.txt'], 1]);
    assert.equal(result.unreadableFolders?.length, maxNamedUnreadableFolders);
    assert.deepEqual(result.unreadableFolders?.slice(0, 2), ['locked00', 'locked01']);
    assert.equal(result.unreadableFoldersNotNamed, 10, 'says how many more it could not read');
    assert.equal('unreadableFolders' in (await listFilesTool.run(ctx, {}, neverAborted)), false, 'absent when every folder was read');
  });
});
