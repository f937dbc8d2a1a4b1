import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('file tools on hostile files on disk', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-hostile-files-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const bytesOf = (name: string): Buffer => fs.readFileSync(path.join(root, name));

  it('attack: Undo takes back an edit and a write made through a symbolic link, keeping the link', async () => {
    // Before: the change went through `link.txt -> real.txt`, and Undo refused it as "now a link", leaving real.txt changed.
    const original = Buffer.from('#!/bin/sh\nalpha\nbeta\n');
    fs.writeFileSync(path.join(root, 'real.txt'), original, { mode: 0o755 });
    fs.symlinkSync('real.txt', path.join(root, 'link.txt'));
    for (const change of ['edit', 'write'] as const) {
      const checkpoints = createMemoryCheckpointStore();
      const workspace = createNodeWorkspace(root);
      const ctx = makeToolContext({ workspace, checkpoints });
      if (change === 'edit') await editFileTool.run(ctx, { path: 'link.txt', edits: [{ search: 'beta', replace: 'BETA' }] }, neverAborted);
      else await writeFileTool.run(ctx, { path: 'link.txt', content: '#!/bin/sh\nalpha\nbeta\ngamma\n' }, neverAborted);
      assert.ok(!bytesOf('real.txt').equals(original), change);
      const report = await undoRun('run-1', { workspace, checkpoints });
      assert.deepEqual(report.refused, [], change);
      assert.deepEqual(report.restored, ['link.txt'], change);
      assert.ok(bytesOf('real.txt').equals(original), change);
      assert.equal(fs.readlinkSync(path.join(root, 'link.txt')), 'real.txt');
      assert.equal(fs.statSync(path.join(root, 'real.txt')).mode & 0o7777, 0o755);
    }
  });

  it('still leaves alone a link retargeted after a change made through it', async () => {
    fs.writeFileSync(path.join(root, 'real.txt'), 'alpha\n');
    fs.symlinkSync('real.txt', path.join(root, 'link.txt'));
    const checkpoints = createMemoryCheckpointStore();
    const workspace = createNodeWorkspace(root);
    await editFileTool.run(makeToolContext({ workspace, checkpoints }), { path: 'link.txt', edits: [{ search: 'alpha', replace: 'ALPHA' }] }, neverAborted);
    // Another file holding what the run left, the link pointed at it: Undo must not write into it.
    fs.writeFileSync(path.join(root, 'other.txt'), 'ALPHA\n');
    fs.rmSync(path.join(root, 'link.txt'));
    fs.symlinkSync('other.txt', path.join(root, 'link.txt'));
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(report.restored, []);
    assert.match(report.refused[0]?.reason ?? '', /now a link to other\.txt/);
    assert.equal(fs.readFileSync(path.join(root, 'other.txt'), 'utf8'), 'ALPHA\n');
    assert.equal(fs.readFileSync(path.join(root, 'real.txt'), 'utf8'), 'ALPHA\n');
  });

  it('attack: a write keeps a lone CR beside LF or CRLF ends, which the diff editor shows as a line end', async () => {
    // The model wrote each lone CR as a line break (the editor splits lines there too): the diff showed one line added,
    // and every such CR became an LF, and a CRLF next to it an LF too.
    const files: Record<string, string> = {
      'mixed.txt': 'alpha\r\nbeta\nmid\rgamma\r\nomega\n',
      'last.txt': 'alpha\nbeta\ngamma\r',
      'only-cr.txt': 'alpha\nbeta\ngamma\n\r',
      'crlf.txt': 'alpha\r\nbeta\rgamma\r\n',
    };
    for (const [name, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(root, name), text);
      const ctx = makeToolContext({ workspace: createNodeWorkspace(root) });
      await writeFileTool.run(ctx, { path: name, content: `${text.replace(/\r\n?/g, '\n')}extra\n` }, neverAborted);
      const written = bytesOf(name);
      assert.ok(written.subarray(0, text.length).equals(Buffer.from(text)), `${name}: ${JSON.stringify(written.toString())}`);
      assert.match(written.subarray(text.length).toString(), /^extra\r?\n$/, name);
    }
  });
});
