import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { WorkspaceFs } from '../../../src/core/workspacePorts';
import { PathRefusedError } from '../../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../../src/core/workspace/workspaceError';

/** A fresh workspace holding `files` (workspace-relative path → text), and how to throw it away. */
export type WorkspaceFsFactory = (files: Record<string, string>) => Promise<{ workspace: WorkspaceFs; dispose: () => Promise<void> }>;

/**
 * The contract of `WorkspaceFs` (src/core/ports.ts). Every implementation (memory fake,
 * Node, VS Code in the real host) runs this same suite; it uses only the port itself.
 */
export function describeWorkspaceFsConformance(name: string, makeFs: WorkspaceFsFactory): void {
  describe(`WorkspaceFs conformance: ${name}`, () => {
    let disposers: (() => Promise<void>)[] = [];
    const open = async (files: Record<string, string> = {}): Promise<WorkspaceFs> => {
      const made = await makeFs(files);
      disposers.push(made.dispose);
      return made.workspace;
    };
    afterEach(async () => {
      await Promise.all(disposers.map((dispose) => dispose()));
      disposers = [];
    });

    it('reads back exactly what it wrote, including Unicode, CRLF and empty text', async () => {
      const fs = await open();
      for (const text of ['hello\n', 'ünïcödé ✓ 日本語\r\nline2', '', 'x'.repeat(100_000)]) {
        await fs.writeText('notes/file.txt', text);
        assert.equal(await fs.readText('notes/file.txt'), text);
      }
    });

    it('refuses a read over maxBytes with code too_large, and reads up to it', async () => {
      const fs = await open({ 'big.txt': 'x'.repeat(2000), 'small.txt': 'x'.repeat(100) });
      await assert.rejects(fs.readText('big.txt', undefined, { maxBytes: 1000 }), (error: unknown) => error instanceof WorkspaceError && error.code === 'too_large');
      assert.equal((await fs.readText('small.txt', undefined, { maxBytes: 100 })).length, 100);
    });

    it('reads a file\'s bytes under the same rules as its text', async () => {
      const fs = await open({ 'pic.txt': 'é✓\n', 'big.txt': 'x'.repeat(2000), 'dir/inner.txt': 'x' });
      const readBytes = (path: string, maxBytes?: number): Promise<Uint8Array> => {
        if (fs.readBytes === undefined) throw new Error('every workspace can read bytes');
        return fs.readBytes(path, undefined, maxBytes === undefined ? {} : { maxBytes });
      };
      assert.deepEqual([...(await readBytes('pic.txt'))], [...new TextEncoder().encode('é✓\n')]);
      assert.equal((await readBytes('big.txt', 2000)).length, 2000);
      await assert.rejects(readBytes('big.txt', 1999), (error: unknown) => error instanceof WorkspaceError && error.code === 'too_large');
      await assert.rejects(readBytes('missing.txt'), (error: unknown) => error instanceof WorkspaceError && error.code === 'not_found');
      await assert.rejects(readBytes('dir'), (error: unknown) => error instanceof WorkspaceError && error.code === 'is_directory');
      await assert.rejects(readBytes('../outside.txt'), PathRefusedError);
    });

    it('changes a file only while it is the version the change expects (compare-and-swap), else refuses with code changed', async () => {
      const fs = await open({ 'a.txt': 'v1', 'gone.txt': 'bye' });
      const changed = (error: unknown): boolean => error instanceof WorkspaceError && error.code === 'changed' && /a\.txt changed after its new content was computed/.test(error.message);
      await assert.rejects(fs.writeText('a.txt', 'v2', undefined, { expected: { exists: true, sha256: sha256Hex('v0') } }), changed);
      await assert.rejects(fs.writeText('a.txt', 'v2', undefined, { expected: { exists: false } }), changed);
      assert.equal(await fs.readText('a.txt'), 'v1');
      await fs.writeText('a.txt', 'v2', undefined, { expected: { exists: true, sha256: sha256Hex('v1') } });
      assert.equal(await fs.readText('a.txt'), 'v2');
      await assert.rejects(fs.writeText('new.txt', 'x', undefined, { expected: { exists: true, sha256: sha256Hex('x') } }), (error: unknown) => error instanceof WorkspaceError && error.code === 'changed');
      assert.equal(await fs.stat('new.txt'), undefined);
      await fs.writeText('new.txt', 'x', undefined, { expected: { exists: false } });
      await assert.rejects(fs.delete('gone.txt', undefined, { expected: { exists: true, sha256: sha256Hex('other') } }), (error: unknown) => error instanceof WorkspaceError && error.code === 'changed');
      assert.equal(await fs.readText('gone.txt'), 'bye');
      await fs.delete('gone.txt', undefined, { expected: { exists: true, sha256: sha256Hex('bye') } });
      assert.equal(await fs.stat('gone.txt'), undefined);
    });

    it('asks refuseTarget where a read and a write lead, refusing with its error and changing nothing', async () => {
      const fs = await open({ 'dir/a.txt': 'v1' });
      const seen: [string, string][] = [];
      const refuse = (resolved: string, input: string): Error | undefined => {
        seen.push([resolved, input]);
        return resolved === 'dir/a.txt' ? new Error('not this file') : undefined;
      };
      await assert.rejects(fs.writeText('./dir/a.txt', 'v2', undefined, { refuseTarget: refuse }), /^Error: not this file$/);
      await assert.rejects(fs.readText('dir/./a.txt', undefined, { refuseTarget: refuse }), /^Error: not this file$/);
      assert.equal(await fs.readText('dir/a.txt'), 'v1');
      await fs.writeText('dir/b.txt', 'new', undefined, { refuseTarget: refuse });
      assert.equal(await fs.readText('dir/b.txt'), 'new');
      assert.deepEqual(seen, [['dir/a.txt', './dir/a.txt'], ['dir/a.txt', 'dir/./a.txt'], ['dir/b.txt', 'dir/b.txt']]);
    });

    it('creates missing parent directories on write', async () => {
      const fs = await open();
      await fs.writeText('a/b/c/d.txt', 'deep');
      assert.equal((await fs.stat('a/b/c'))?.type, 'directory');
      assert.equal(await fs.readText('a/b/c/d.txt'), 'deep');
    });

    it('overwrites only the target file', async () => {
      const fs = await open({ 'one.txt': '1', 'two.txt': '2' });
      await fs.writeText('one.txt', 'uno');
      assert.equal(await fs.readText('one.txt'), 'uno');
      assert.equal(await fs.readText('two.txt'), '2');
    });

    it('reports a missing file with code not_found', async () => {
      const fs = await open();
      await assert.rejects(fs.readText('missing.txt'), (error: unknown) => error instanceof WorkspaceError && error.code === 'not_found');
    });

    it('refuses to read or overwrite a directory as a file', async () => {
      const fs = await open({ 'dir/inner.txt': 'x' });
      await assert.rejects(fs.readText('dir'), (error: unknown) => error instanceof WorkspaceError && error.code === 'is_directory');
      await assert.rejects(fs.writeText('dir', 'x'), (error: unknown) => error instanceof WorkspaceError && error.code === 'is_directory');
      assert.equal(await fs.readText('dir/inner.txt'), 'x');
    });

    it('stats files, directories and absent paths', async () => {
      const fs = await open({ 'src/a.ts': 'abc' });
      assert.deepEqual(
        { type: (await fs.stat('src/a.ts'))?.type, size: (await fs.stat('src/a.ts'))?.size },
        { type: 'file', size: 3 },
      );
      assert.equal((await fs.stat('src'))?.type, 'directory');
      assert.equal((await fs.stat(''))?.type, 'directory');
      assert.equal(await fs.stat('nope.txt'), undefined);
    });

    it('deletes files and empty directories, refuses non-empty ones and missing paths', async () => {
      const fs = await open({ 'a.txt': 'a', 'full/x.txt': 'x' });
      await fs.delete('a.txt');
      assert.equal(await fs.stat('a.txt'), undefined);
      await assert.rejects(fs.delete('a.txt'), (error: unknown) => error instanceof WorkspaceError && error.code === 'not_found');
      await assert.rejects(fs.delete('full'), (error: unknown) => error instanceof WorkspaceError && error.code === 'not_empty');
      await fs.delete('full/x.txt');
      await fs.delete('full');
      assert.equal(await fs.stat('full'), undefined);
    });

    it('creates directories recursively and idempotently, refusing when a file is in the way', async () => {
      const fs = await open({ 'file.txt': 'f' });
      await fs.createDirectory('x/y/z');
      await fs.createDirectory('x/y/z');
      assert.equal((await fs.stat('x/y/z'))?.type, 'directory');
      await assert.rejects(fs.createDirectory('file.txt/sub'), (error: unknown) => error instanceof WorkspaceError && error.code === 'not_directory');
      assert.equal(await fs.readText('file.txt'), 'f');
    });

    it('lists every file sorted, without directories', async () => {
      const fs = await open({ 'b.txt': '', 'a/z.ts': '', 'a/b/c.ts': '', 'A.md': '' });
      await fs.createDirectory('empty');
      assert.deepEqual((await fs.list()).files, ['A.md', 'a/b/c.ts', 'a/z.ts', 'b.txt']);
    });

    it('filters the listing with globs', async () => {
      const fs = await open({ 'src/a.ts': '', 'src/deep/b.ts': '', 'src/c.js': '', 'd.ts': '', 'docs/readme.md': '' });
      assert.deepEqual((await fs.list('src/*.ts')).files, ['src/a.ts']);
      assert.deepEqual((await fs.list('src/**/*.ts')).files, ['src/a.ts', 'src/deep/b.ts']);
      assert.deepEqual((await fs.list('**/*.ts')).files, ['d.ts', 'src/a.ts', 'src/deep/b.ts']);
      assert.deepEqual((await fs.list('*.ts')).files, ['d.ts', 'src/a.ts', 'src/deep/b.ts']);
      assert.deepEqual((await fs.list('**/*.{md,js}')).files, ['docs/readme.md', 'src/c.js']);
      assert.deepEqual((await fs.list('src/?.js')).files, ['src/c.js']);
    });

    it('skips .git and node_modules at any depth and honours .gitignore files at every level', async () => {
      const fs = await open({
        '.gitignore': 'dist/\n*.log\n!keep.log\n',
        '.git/config': '',
        'node_modules/pkg/index.js': '',
        'packages/p/node_modules/q/index.js': '',
        'packages/p/.gitignore': 'generated.ts\n',
        'packages/p/generated.ts': '',
        'packages/p/source.ts': '',
        'generated.ts': '',
        'dist/out.js': '',
        'sub/dist/out.js': '',
        'debug.log': '',
        'keep.log': '',
        'src/main.ts': '',
      });
      assert.deepEqual((await fs.list()).files, ['.gitignore', 'generated.ts', 'keep.log', 'packages/p/.gitignore', 'packages/p/source.ts', 'src/main.ts']);
    });

    it('accepts legitimate names with dots, spaces and Unicode', async () => {
      const fs = await open();
      const names = ['.env.example', 'my file (1).txt', 'a..b/c...d.txt', 'café/résumé.md', '日本語/ファイル.txt', 'emoji 🎉.md', './x/./y.txt', 'x/../z.txt'];
      for (const name of names) await fs.writeText(name, name);
      for (const name of names) assert.equal(await fs.readText(name), name);
      assert.ok((await fs.list()).files.includes('café/résumé.md'));
      assert.equal(await fs.readText('x/y.txt'), './x/./y.txt');
      assert.equal(await fs.readText('z.txt'), 'x/../z.txt');
    });

    it('refuses escaping paths in every method with PathRefusedError', async () => {
      const fs = await open({ 'a.txt': 'a' });
      for (const hostile of ['../outside.txt', '/etc/passwd', 'a/../../x', 'a\u0000b', 'C:\\Windows\\win.ini', '\\\\server\\share\\x']) {
        await assert.rejects(fs.readText(hostile), PathRefusedError, hostile);
        await assert.rejects(fs.writeText(hostile, 'x'), PathRefusedError, hostile);
        await assert.rejects(fs.delete(hostile), PathRefusedError, hostile);
        await assert.rejects(fs.createDirectory(hostile), PathRefusedError, hostile);
        await assert.rejects(fs.stat(hostile), PathRefusedError, hostile);
      }
      await assert.rejects(fs.list('../**'), PathRefusedError);
      await assert.rejects(fs.list('/etc/*'), PathRefusedError);
    });

    it('accepts an absolute path inside its root', async () => {
      const fs = await open({ 'inside.txt': 'in' });
      if (!fs.rootLabel.startsWith('/')) return;
      assert.equal(await fs.readText(`${fs.rootLabel}/inside.txt`), 'in');
    });

    it('rejects when the signal is already aborted, changing nothing', async () => {
      const fs = await open({ 'a.txt': 'a' });
      const controller = new AbortController();
      controller.abort(new Error('stop'));
      await assert.rejects(fs.writeText('a.txt', 'changed', controller.signal));
      await assert.rejects(fs.readText('a.txt', controller.signal));
      await assert.rejects(async () => fs.readBytes?.('a.txt', controller.signal), /stop/);
      assert.equal(await fs.readText('a.txt'), 'a');
    });
  });
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
