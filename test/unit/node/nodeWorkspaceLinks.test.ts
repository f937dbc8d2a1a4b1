import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PathRefusedError } from '../../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../../src/core/workspace/workspaceError';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { watchOpens } from './openWatcher';

describe('createNodeWorkspace with hard links, links into .git and links to pipes', () => {
  let base: string;
  let root: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-links-'));
    root = path.join(base, 'root');
    fs.mkdirSync(path.join(root, '.git/hooks'), { recursive: true });
    fs.mkdirSync(path.join(base, 'outside'));
    fs.writeFileSync(path.join(root, '.git/config'), '[core]\n');
    fs.writeFileSync(path.join(base, 'outside/secret.txt'), 'SECRET');
    fs.symlinkSync('.git', path.join(root, 'docs'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const isHardLinkRefusal = (error: unknown): boolean =>
    error instanceof WorkspaceError && error.code === 'hard_link' && /hard link/.test(error.message) && /allowHardLinks/.test(error.message);

  it('refuses to read, overwrite or delete a file hard-linked from outside, unless hard links are allowed', async () => {
    fs.linkSync(path.join(base, 'outside/secret.txt'), path.join(root, 'hardlink.txt'));
    const workspace = createNodeWorkspace(root);
    await assert.rejects(workspace.readText('hardlink.txt'), isHardLinkRefusal);
    const seen: unknown[] = [];
    await workspace.readTextMany(['hardlink.txt'], (_, text, error) => void seen.push(text ?? error));
    assert.ok(isHardLinkRefusal(seen[0]), String(seen[0]));
    await assert.rejects(workspace.writeText('hardlink.txt', 'changed'), isHardLinkRefusal);
    await assert.rejects(workspace.delete('hardlink.txt'), isHardLinkRefusal);
    assert.equal(fs.readFileSync(path.join(base, 'outside/secret.txt'), 'utf8'), 'SECRET');
    assert.equal(fs.statSync(path.join(root, 'hardlink.txt')).nlink, 2);
    assert.equal(await createNodeWorkspace(root, { allowHardLinks: true }).readText('hardlink.txt'), 'SECRET');
  });

  it('refuses writes, deletions and new directories that lead into .git through a link, and creates nothing there', async () => {
    const workspace = createNodeWorkspace(root);
    const refusedIntoGit = (error: unknown): boolean => error instanceof PathRefusedError && /\.git\/hooks\/pre-commit|\.git\/config|\.git\/new/.test(error.message);
    await assert.rejects(workspace.writeText('docs/hooks/pre-commit', '#!/bin/sh\necho pwned\n'), refusedIntoGit);
    await assert.rejects(workspace.writeText('docs/config', '[core]\nhooksPath=/tmp\n'), refusedIntoGit);
    await assert.rejects(workspace.delete('docs/config'), refusedIntoGit);
    await assert.rejects(workspace.createDirectory('docs/new/deeper'), refusedIntoGit);
    assert.deepEqual(fs.readdirSync(path.join(root, '.git')).sort(), ['config', 'hooks']);
    assert.deepEqual(fs.readdirSync(path.join(root, '.git/hooks')), []);
    assert.equal(fs.readFileSync(path.join(root, '.git/config'), 'utf8'), '[core]\n');
    // Reading through the link stays allowed, and the link itself can go.
    assert.equal(await workspace.readText('docs/config'), '[core]\n');
    await workspace.delete('docs');
    assert.ok(fs.existsSync(path.join(root, '.git/config')));
  });

  it('attack: a planted .task-planner link is not followed to make the temporary folder (it made .git/tmp), and writes still work', async () => {
    fs.symlinkSync('.git', path.join(root, '.task-planner'));
    await createNodeWorkspace(root).writeText('src/a.txt', 'hello\n');
    assert.equal(fs.readFileSync(path.join(root, 'src/a.txt'), 'utf8'), 'hello\n');
    assert.deepEqual(fs.readdirSync(path.join(root, '.git')).sort(), ['config', 'hooks']);
    // Into another folder of the workspace: nothing made there either.
    fs.rmSync(path.join(root, '.task-planner'));
    fs.mkdirSync(path.join(root, 'notes'));
    fs.symlinkSync('notes', path.join(root, '.task-planner'));
    await createNodeWorkspace(root).writeText('src/b.txt', 'hi\n');
    assert.deepEqual(fs.readdirSync(path.join(root, 'notes')), []);
    assert.deepEqual(fs.readdirSync(path.join(root, 'src')).sort(), ['a.txt', 'b.txt']);
  });

  it('never opens a named pipe outside that a link points to', async function () {
    const pipe = path.join(base, 'outside/pipe');
    if (spawnSync('mkfifo', [pipe]).status !== 0) this.skip();
    fs.symlinkSync(pipe, path.join(root, 'pipe-link'));
    const watcher = await watchOpens(pipe);
    if (!watcher) this.skip();
    try {
      const workspace = createNodeWorkspace(root);
      await assert.rejects(workspace.readText('pipe-link'), PathRefusedError);
      await workspace.readTextMany(['pipe-link'], () => undefined);
      await assert.rejects(workspace.stat('pipe-link'), PathRefusedError);
      await assert.rejects(workspace.writeText('pipe-link', 'x'), PathRefusedError);
      assert.deepEqual((await workspace.list()).files, []);
      assert.equal(await watcher.opensSinceLastCount(), 0);
      // The watcher does see an open: this one, through the link.
      fs.closeSync(fs.openSync(path.join(root, 'pipe-link'), fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
      assert.equal(await watcher.opensSinceLastCount(), 1);
    } finally {
      watcher.stop();
    }
  });

  it('tells where a path leads through links', async () => {
    fs.mkdirSync(path.join(root, 'src'));
    fs.symlinkSync('src', path.join(root, 'alias'));
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'absolute'));
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'a');
    const workspace = createNodeWorkspace(root);
    assert.equal(await workspace.locate?.('alias/new/file.ts'), 'src/new/file.ts');
    assert.equal(await workspace.locate?.('absolute/a.ts'), 'src/a.ts');
    assert.equal(await workspace.readText('absolute/a.ts'), 'a');
    assert.equal(await workspace.locate?.('docs/hooks/pre-commit'), '.git/hooks/pre-commit');
    assert.equal(await workspace.locate?.('plain.txt'), 'plain.txt');
  });

  it('names the listed files that are links, the only ones that can lead elsewhere (search_text locates only those)', async () => {
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'a');
    fs.symlinkSync('src/a.ts', path.join(root, 'b.ts'));
    fs.symlinkSync('src', path.join(root, 'alias'));
    const listing = await createNodeWorkspace(root).list();
    // A linked folder is not descended into: alias/a.ts is no listed file.
    assert.deepEqual(listing.files.filter((file) => !file.startsWith('.git')), ['b.ts', 'src/a.ts']);
    assert.deepEqual(listing.links, ['b.ts']);
  });
});
