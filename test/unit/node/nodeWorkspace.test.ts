import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import type { NodeFileSystem } from '../../../src/node/nodeWorkspace';
import { changeLockName, tempFilePrefix, temporaryFolder } from '../../../src/core/workspace/atomicWrites';
import { WorkspaceError } from '../../../src/core/workspace/workspaceError';
import { describeWorkspaceFsConformance } from '../conformance/workspaceFsConformance';

function makeTree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ws-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describeWorkspaceFsConformance('node', async (files) => {
  const dir = makeTree(files);
  return { workspace: createNodeWorkspace(dir), dispose: async () => fs.rmSync(dir, { recursive: true, force: true }) };
});

// The walk as it runs where the kernel offers no directory handles (macOS, Windows).
describeWorkspaceFsConformance('node, on paths instead of directory handles', async (files) => {
  const dir = makeTree(files);
  return { workspace: createNodeWorkspace(dir, { directoryHandles: false }), dispose: async () => fs.rmSync(dir, { recursive: true, force: true }) };
});

describe('createNodeWorkspace', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTree({ 'keep.txt': 'original bytes\r\n\u00e9' });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const failingRename = (onRename?: () => void): NodeFileSystem => ({
    ...fs.promises,
    rename: async () => {
      onRename?.();
      throw Object.assign(new Error('EIO: simulated crash between temp file and rename'), { code: 'EIO' });
    },
  });

  // The change lock held around the rename is no temporary file.
  const temporaries = (): string[] => fs.readdirSync(path.join(dir, temporaryFolder)).filter((name) => name !== '.gitignore' && !changeLockName.test(name));

  it('leaves the original intact and no temporary file when the rename fails', async () => {
    let tempSeen: string[] = [];
    const workspace = createNodeWorkspace(dir, { fileSystem: failingRename(() => (tempSeen = temporaries())) });
    await assert.rejects(workspace.writeText('keep.txt', 'new content'), /^WorkspaceError: keep\.txt cannot be changed: an input\/output error \(EIO\)\.$/);
    assert.equal(tempSeen.length, 1, 'the temporary file existed before the rename');
    assert.deepEqual(fs.readFileSync(path.join(dir, 'keep.txt')), Buffer.from('original bytes\r\n\u00e9'));
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.task-planner', 'keep.txt']);
    assert.deepEqual(temporaries(), []);
  });

  it('leaves the original intact when aborted after the temporary file is written', async () => {
    const controller = new AbortController();
    const fileSystem: NodeFileSystem = {
      ...fs.promises,
      open: async (...args: Parameters<typeof fs.promises.open>) => {
        const handle = await fs.promises.open(...args);
        const close = handle.close.bind(handle);
        handle.close = async () => {
          await close();
          controller.abort(new Error('cancelled by the user'));
        };
        return handle;
      },
    };
    const workspace = createNodeWorkspace(dir, { fileSystem });
    await assert.rejects(workspace.writeText('keep.txt', 'new content', controller.signal), /cancelled by the user/);
    assert.equal(fs.readFileSync(path.join(dir, 'keep.txt'), 'utf8'), 'original bytes\r\n\u00e9');
    assert.deepEqual(temporaries(), []);
  });

  it('keeps the file mode across an atomic overwrite', async () => {
    fs.chmodSync(path.join(dir, 'keep.txt'), 0o750);
    await createNodeWorkspace(dir).writeText('keep.txt', '#!/bin/sh\n');
    assert.equal(fs.statSync(path.join(dir, 'keep.txt')).mode & 0o777, 0o750);
  });

  it('does not list its own temporary files', async () => {
    const workspace = createNodeWorkspace(dir);
    await workspace.writeText('other.txt', 'other');
    fs.writeFileSync(path.join(dir, `${tempFilePrefix}keep.txt.abc`), 'stray');
    fs.writeFileSync(path.join(dir, temporaryFolder, 'write-0123456789abcdef'), 'stray');
    assert.deepEqual((await workspace.list()).files, ['keep.txt', 'other.txt']);
  });

  it('refuses to read a named pipe instead of hanging on it', async function () {
    if (spawnSync('mkfifo', [path.join(dir, 'pipe')]).status !== 0) this.skip();
    await assert.rejects(createNodeWorkspace(dir).readText('pipe'), (error: unknown) => error instanceof WorkspaceError && error.code === 'not_regular');
  });

  it('names a missing workspace root in its error', async () => {
    await assert.rejects(createNodeWorkspace(path.join(dir, 'absent')).readText('a.txt'), /workspace root .*absent does not exist/);
  });
});

describe('createNodeWorkspace readTextMany', () => {
  let base: string;
  let root: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-many-'));
    root = path.join(base, 'root');
    const files: Record<string, string> = {
      'root/top.txt': 'top',
      'root/src/a.ts': 'const a = 1;\n',
      'root/src/unicode.md': 'ünïcödé ✓ 日本語\r\n',
      'root/src/big.bin': 'y'.repeat(200_000),
      'root/src/small.txt': 'small',
      'root/src/deep/b.ts': 'b',
      'outside/secret.txt': 'SECRET',
      'outside/dir/a.ts': 'SECRET',
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
      fs.writeFileSync(path.join(base, file), text);
    }
    fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(root, 'src/out-link.txt'));
    fs.symlinkSync('a.ts', path.join(root, 'src/in-link.ts'));
    fs.symlinkSync(path.join(base, 'outside/dir'), path.join(root, 'out-dir'));
    fs.symlinkSync('src', path.join(root, 'in-dir'));
    fs.symlinkSync(path.join(base, 'outside/missing.txt'), path.join(root, 'dangling.txt'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const openDescriptors = (): number => fs.readdirSync('/proc/self/fd').length;
  const describeOutcome = (text: string | undefined, error: unknown): string =>
    text !== undefined ? `text:${text.length}:${text.slice(0, 20)}` : `${(error as Error).name}:${(error as { code?: string }).code ?? ''}:${(error as Error).message}`;

  it('gives every path exactly what readText gives it, links and refusals included', async () => {
    const workspace = createNodeWorkspace(root);
    const paths = [
      'top.txt', 'src/a.ts', 'src/unicode.md', 'src/big.bin', 'src/small.txt', 'src/deep/b.ts',
      'src/out-link.txt', 'src/in-link.ts', 'out-dir/a.ts', 'in-dir/a.ts', 'dangling.txt', 'src/missing.txt', 'missing/x.ts', 'top.txt/x',
      'src', '', '../outside/secret.txt', `${base}/outside/secret.txt`, './src/../top.txt',
    ];
    if (spawnSync('mkfifo', [path.join(root, 'src/pipe')]).status === 0) paths.push('src/pipe');
    for (const maxBytes of [undefined, 100_000]) {
      const expected: string[] = [];
      for (const input of paths) {
        expected.push(await workspace.readText(input, undefined, { maxBytes }).then((text) => describeOutcome(text, undefined), (error: unknown) => describeOutcome(undefined, error)));
      }
      const seen: string[] = [];
      await workspace.readTextMany(paths, (_, text, error) => void seen.push(describeOutcome(text, error)), undefined, { maxBytes });
      assert.deepEqual(seen, expected);
      assert.ok(!seen.some((outcome) => outcome.includes('SECRET')));
    }
  });

  it('reads each file whole after a bigger one, through many directories, and leaves no descriptor open', async () => {
    const files: string[] = [];
    for (let index = 0; index < 40; index++) {
      fs.mkdirSync(path.join(root, `d${index}`));
      fs.writeFileSync(path.join(root, `d${index}`, 'f.txt'), `file ${index}`);
      files.push(`d${index}/f.txt`, 'src/big.bin', 'src/small.txt');
    }
    const before = openDescriptors();
    const seen: string[] = [];
    await createNodeWorkspace(root).readTextMany(files, (file, text) => void seen.push(`${file}:${text?.length === 200_000 ? 'big' : text}`));
    assert.deepEqual(seen, files.map((file) => `${file}:${file === 'src/big.bin' ? 'big' : file === 'src/small.txt' ? 'small' : `file ${file.slice(1, -6)}`}`));
    assert.equal(openDescriptors(), before);
  });

  it('keeps reading the directory it checked when that directory is swapped for a link that leads out', async () => {
    fs.writeFileSync(path.join(root, 'src/c.ts'), 'inside c');
    fs.writeFileSync(path.join(base, 'outside/dir/c.ts'), 'SECRET');
    const seen: string[] = [];
    await createNodeWorkspace(root).readTextMany(['src/a.ts', 'src/c.ts'], (file, text, error) => {
      seen.push(describeOutcome(text, error));
      if (file === 'src/a.ts') {
        fs.renameSync(path.join(root, 'src'), path.join(root, 'src-old'));
        fs.symlinkSync(path.join(base, 'outside/dir'), path.join(root, 'src'));
      }
    });
    assert.deepEqual(seen, ['text:13:const a = 1;\n', 'text:8:inside c']);
  });

  it('stops when the visitor says so or throws, closing what it opened', async () => {
    const workspace = createNodeWorkspace(root);
    const before = openDescriptors();
    const seen: string[] = [];
    await workspace.readTextMany(['top.txt', 'src/a.ts', 'src/small.txt'], (file) => seen.push(file) < 2);
    assert.deepEqual(seen, ['top.txt', 'src/a.ts']);
    await assert.rejects(
      workspace.readTextMany(['src/a.ts', 'src/small.txt'], () => {
        throw new Error('visitor failed');
      }),
      /visitor failed/,
    );
    assert.equal(openDescriptors(), before);
  });

  it('rejects when aborted, also while it is reading', async () => {
    const workspace = createNodeWorkspace(root);
    const aborted = new AbortController();
    aborted.abort(new Error('stopped before'));
    await assert.rejects(workspace.readTextMany(['top.txt'], () => assert.fail('nothing is read'), aborted.signal), /stopped before/);
    const controller = new AbortController();
    const paths = Array.from({ length: 1000 }, () => 'src/small.txt');
    let visits = 0;
    // aborted from inside the read (a timer could fire before the first file on a loaded machine)
    const visit = (): void => {
      visits += 1;
      if (visits === 10) controller.abort(new Error('stopped during'));
    };
    await assert.rejects(workspace.readTextMany(paths, visit, controller.signal), /stopped during/);
    assert.ok(visits >= 10 && visits < paths.length, `${visits} visits`);
  });
});
