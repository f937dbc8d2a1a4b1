import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace, tempFilePrefix } from '../../../src/node/nodeWorkspace';
import type { NodeFileSystem } from '../../../src/node/nodeWorkspace';
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

  it('leaves the original intact and no temporary file when the rename fails', async () => {
    let tempSeen: string[] = [];
    const workspace = createNodeWorkspace(dir, { fileSystem: failingRename(() => (tempSeen = fs.readdirSync(dir).filter((name) => name.startsWith(tempFilePrefix)))) });
    await assert.rejects(workspace.writeText('keep.txt', 'new content'), /simulated crash/);
    assert.equal(tempSeen.length, 1, 'the temporary file existed before the rename');
    assert.deepEqual(fs.readFileSync(path.join(dir, 'keep.txt')), Buffer.from('original bytes\r\n\u00e9'));
    assert.deepEqual(fs.readdirSync(dir), ['keep.txt']);
  });

  it('leaves the original intact when aborted after the temporary file is written', async () => {
    const controller = new AbortController();
    const fileSystem: NodeFileSystem = {
      ...fs.promises,
      chmod: async (...args: Parameters<typeof fs.promises.chmod>) => {
        await fs.promises.chmod(...args);
        controller.abort(new Error('cancelled by the user'));
      },
    };
    const workspace = createNodeWorkspace(dir, { fileSystem });
    await assert.rejects(workspace.writeText('keep.txt', 'new content', controller.signal), /cancelled by the user/);
    assert.equal(fs.readFileSync(path.join(dir, 'keep.txt'), 'utf8'), 'original bytes\r\n\u00e9');
    assert.deepEqual(fs.readdirSync(dir), ['keep.txt']);
  });

  it('keeps the file mode across an atomic overwrite', async () => {
    fs.chmodSync(path.join(dir, 'keep.txt'), 0o750);
    await createNodeWorkspace(dir).writeText('keep.txt', '#!/bin/sh\n');
    assert.equal(fs.statSync(path.join(dir, 'keep.txt')).mode & 0o777, 0o750);
  });

  it('does not list its own temporary files', async () => {
    fs.writeFileSync(path.join(dir, `${tempFilePrefix}keep.txt.abc`), 'stray');
    assert.deepEqual(await createNodeWorkspace(dir).list(), ['keep.txt']);
  });

  it('refuses to read a named pipe instead of hanging on it', async function () {
    if (spawnSync('mkfifo', [path.join(dir, 'pipe')]).status !== 0) this.skip();
    await assert.rejects(createNodeWorkspace(dir).readText('pipe'), (error: unknown) => error instanceof WorkspaceError && error.code === 'not_regular');
  });

  it('names a missing workspace root in its error', async () => {
    await assert.rejects(createNodeWorkspace(path.join(dir, 'absent')).readText('a.txt'), /workspace root .*absent does not exist/);
  });
});
