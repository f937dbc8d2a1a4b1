import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { temporaryFolder } from '../../../src/core/workspace/atomicWrites';

describe('temporary files of atomic writes', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-temp-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const strayFromCrash = (name: string, ageMs: number): string => {
    const file = path.join(root, temporaryFolder, name);
    fs.writeFileSync(file, 'x'.repeat(1000));
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(file, when, when);
    return file;
  };

  it('leaves nothing git shows but the files written, even with a temporary file a crash left behind', async function () {
    if (spawnSync('git', ['init', '-q', root]).status !== 0) this.skip();
    const workspace = createNodeWorkspace(root);
    await workspace.writeText('src/a.ts', 'export {};\n');
    strayFromCrash('write-00112233445566ff', 0);
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
    assert.equal(status.stdout, '?? src/a.ts\n');
  });

  it('removes the temporary files of interrupted writes at the first write of a later workspace, keeping recent ones', async () => {
    await createNodeWorkspace(root).writeText('a.txt', 'a');
    const stale = strayFromCrash('write-00112233445566aa', 11 * 60 * 1000);
    const recent = strayFromCrash('write-00112233445566bb', 60 * 1000);
    const notOurs = strayFromCrash('notes.txt', 11 * 60 * 1000);
    const workspace = createNodeWorkspace(root);
    await workspace.readText('a.txt');
    assert.ok(fs.existsSync(stale), 'reading removes nothing');
    await workspace.writeText('b.txt', 'b');
    assert.deepEqual([fs.existsSync(stale), fs.existsSync(recent), fs.existsSync(notOurs)], [false, true, true]);
    assert.deepEqual(fs.readdirSync(path.join(root, temporaryFolder)).sort(), ['.gitignore', 'notes.txt', 'write-00112233445566bb']);
  });

  it('writes next to the target when the temporary folder cannot be used, leaving nothing behind', async () => {
    fs.mkdirSync(path.join(root, '.task-planner'));
    fs.writeFileSync(path.join(root, temporaryFolder), 'a file in the way');
    await createNodeWorkspace(root).writeText('dir/a.txt', 'a');
    assert.equal(fs.readFileSync(path.join(root, 'dir/a.txt'), 'utf8'), 'a');
    assert.deepEqual(fs.readdirSync(path.join(root, 'dir')), ['a.txt']);
  });

  it('never uses or sweeps a folder a planted .task-planner link points at, also one inside the workspace (issue 27)', async () => {
    // The repository's own folder, with a file named like a stale temporary file of ours.
    fs.mkdirSync(path.join(root, 'theirs', 'tmp'), { recursive: true });
    const theirs = path.join(root, 'theirs', 'tmp', 'write-00112233445566aa');
    fs.writeFileSync(theirs, 'their data');
    const old = new Date(Date.now() - 60 * 60 * 1000);
    fs.utimesSync(theirs, old, old);
    fs.symlinkSync('theirs', path.join(root, '.task-planner'));
    await createNodeWorkspace(root).writeText('dir/a.txt', 'a');
    assert.equal(fs.readFileSync(path.join(root, 'dir/a.txt'), 'utf8'), 'a');
    assert.deepEqual(fs.readdirSync(path.join(root, 'theirs', 'tmp')), ['write-00112233445566aa'], 'the link led the write or the sweep into their folder');
    assert.deepEqual(fs.readdirSync(path.join(root, 'dir')), ['a.txt']);
  });
});
