import assert from 'node:assert/strict';
import { listFilesTool } from '../../../../src/core/tools/listFilesTool';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
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

  it('caps the result and reports the total', async () => {
    assert.deepEqual(await listFilesTool.run(ctx, { limit: 2 }, neverAborted), { files: ['.gitignore', 'src/a.ts'], total: 4, truncated: true });
    assert.equal(listFilesTool.inputSchema.safeParse({ limit: 0 }).success, false);
    assert.equal(listFilesTool.inputSchema.safeParse({ limit: 10_001 }).success, false);
  });

  it('refuses globs that leave the workspace', async () => {
    await assert.rejects(listFilesTool.run(ctx, { glob: '../**/*' }, neverAborted), PathRefusedError);
    await assert.rejects(listFilesTool.run(ctx, { glob: '/etc/*' }, neverAborted), PathRefusedError);
  });
});
