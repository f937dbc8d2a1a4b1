import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkspaceFs } from '../../../src/core/workspacePorts';
import { searchTextTool } from '../../../src/core/tools/searchTextTool';
import { batchesOf, createParallelTextSearcher } from '../../../src/node/parallelTextSearcher';
import { kernelKnowsOpenFiles } from '../../../src/node/nodeDirectoryFs';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { makeToolContext, neverAborted } from '../../fakes/toolContext';
import { makeSearchTree, searchQueries } from './searchTree';

const needle = { pattern: 'NEEDLE', regex: false, caseSensitive: true };

/** The Node workspace of `root` with its search narrowed by `searcher` (threads even for a few files). */
function workspaceWith(root: string, options: Parameters<typeof createParallelTextSearcher>[1] = {}): WorkspaceFs {
  const workspace = createNodeWorkspace(root);
  const textSearcher = createParallelTextSearcher(root, { minFiles: 1, batchFiles: 3, ...options });
  assert.ok(textSearcher);
  return { ...workspace, textSearcher };
}

/** The Node workspace of `root` reading every file itself. */
function readerOnly(root: string): WorkspaceFs {
  const { textSearcher: _none, ...workspace } = createNodeWorkspace(root);
  return workspace;
}

describe('parallel text searcher', () => {
  let base: string;
  let root: string;
  beforeEach(function () {
    if (!kernelKnowsOpenFiles) this.skip();
    ({ base, root } = makeSearchTree());
  });
  afterEach(() => {
    if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  });

  it('finds exactly what the core reader finds, batches split inside directories', async () => {
    const plain = makeToolContext({ workspace: readerOnly(root) });
    const threaded = makeToolContext({ workspace: workspaceWith(root) });
    for (const input of searchQueries) {
      const expected = await searchTextTool.run(plain, input, neverAborted);
      const actual = await searchTextTool.run(threaded, input, neverAborted);
      assert.deepEqual(actual, expected, JSON.stringify(input));
    }
  });

  it('sees regular files with one link only, never through a link, and names those with a match', async () => {
    fs.linkSync(path.join(root, 'src/b.ts'), path.join(root, 'src/b-hard.ts'));
    const workspace = createNodeWorkspace(root);
    const listed = workspace.list(undefined, neverAborted).then((listing) => listing.files);
    const narrowing = await createParallelTextSearcher(root, { minFiles: 1 })?.narrow(needle, listed, neverAborted);
    assert.ok(narrowing);
    // Binary files and "new\nline.txt" (listed, its name refused by the reader) are left to the core's reader, which skips them.
    assert.deepEqual([...narrowing.matched].sort(), ['-dash.txt', '.hidden/h.md', 'keep.log', 'late-nul.txt', 'latin1.txt', 'src/a.ts']);
    for (const unseen of ['src/in-link.ts', 'huge.txt', 'src/b.ts', 'src/b-hard.ts', 'bin.dat', 'new\nline.txt']) assert.equal(narrowing.seen.has(unseen), false, unseen);
    assert.ok(narrowing.seen.has('.gitignore') && narrowing.seen.has('src/.gitignore'));
  });

  it('reads nothing through a directory swapped for a link to the outside after the listing (attack)', async () => {
    const listed = (await createNodeWorkspace(root).list(undefined, neverAborted)).files;
    // The same names outside, each holding the needle: a searcher that followed the swap would report them as matched.
    const outside = path.join(base, 'outside-src');
    fs.mkdirSync(outside);
    for (const file of listed.filter((file) => file.startsWith('src/'))) fs.writeFileSync(path.join(outside, path.basename(file)), 'NEEDLE from outside');
    fs.renameSync(path.join(root, 'src'), path.join(base, 'moved-src'));
    fs.symlinkSync(outside, path.join(root, 'src'));
    const narrowing = await createParallelTextSearcher(root, { minFiles: 1 })?.narrow(needle, Promise.resolve(listed), neverAborted);
    assert.ok(narrowing);
    assert.deepEqual([...narrowing.seen].filter((file) => file.startsWith('src/')), []);
    assert.ok(narrowing.seen.has('keep.log'));
    // And the search as a whole returns nothing from there: the core's own reader refuses the link.
    const result = await searchTextTool.run(makeToolContext({ workspace: workspaceWith(root) }), { query: 'from outside' }, neverAborted);
    assert.deepEqual(result.matches, []);
  });

  it('leaves the search to the core reader when its threads cannot start, and stays so', async () => {
    const broken = workspaceWith(root, { workerScript: path.join(base, 'no-such-worker.js'), threads: 2 });
    assert.equal(await broken.textSearcher?.narrow(needle, broken.list(undefined, neverAborted).then((listing) => listing.files), neverAborted), undefined);
    assert.equal(await broken.textSearcher?.narrow(needle, broken.list(undefined, neverAborted).then((listing) => listing.files), neverAborted), undefined);
    const expected = await searchTextTool.run(makeToolContext({ workspace: readerOnly(root) }), { query: 'NEEDLE' }, neverAborted);
    assert.deepEqual(await searchTextTool.run(makeToolContext({ workspace: broken }), { query: 'NEEDLE' }, neverAborted), expected);
  });

  it('answers nothing below its file count, for an invalid pattern, and rejects as its listing does', async () => {
    const few = createParallelTextSearcher(root, { minFiles: 10_000 });
    assert.equal(await few?.narrow(needle, Promise.resolve(['src/a.ts']), neverAborted), undefined);
    const searcher = createParallelTextSearcher(root, { minFiles: 1 });
    assert.equal(await searcher?.narrow({ pattern: '(unclosed', regex: true, caseSensitive: true }, Promise.resolve(['src/a.ts']), neverAborted), undefined);
    await assert.rejects(searcher?.narrow(needle, Promise.reject(new Error('The folder cannot be listed')), neverAborted) ?? Promise.resolve(), /cannot be listed/);
  });

  it('rejects with the reason when cancelled while its threads read', async () => {
    const controller = new AbortController();
    const listed = (await createNodeWorkspace(root).list(undefined, neverAborted)).files;
    const pending = createParallelTextSearcher(root, { minFiles: 1, batchFiles: 1 })?.narrow(needle, Promise.resolve(listed), controller.signal);
    // The listing is already there: the batches are queued before this line runs.
    await Promise.resolve();
    controller.abort(new Error('stopped by the user'));
    await assert.rejects(pending ?? Promise.resolve(), /stopped by the user/);
  });
});

describe('batchesOf', () => {
  it('cuts the listing into batches of whole directories where they fit, indexes kept', () => {
    const files = ['a.txt', 'src/a.ts', 'src/b.ts', 'src/c.ts', 'src/deep/d.ts', 'z/e'];
    assert.deepEqual(batchesOf(files, 3), [
      { first: 0, directories: [['', ['a.txt']], ['src', ['a.ts', 'b.ts']]] },
      { first: 3, directories: [['src', ['c.ts']], ['src/deep', ['d.ts']], ['z', ['e']]] },
    ]);
    assert.deepEqual(batchesOf([], 3), []);
  });
});
