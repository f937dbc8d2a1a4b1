// search_text in the real extension host where the host ships no ripgrep: the extension's bundled reader thread
// (dist/textSearchWorker.js) starts there and narrows the search to exactly what the editor's own reader finds.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { searchTextTool } from '../../src/core/tools/searchTextTool';
import { createParallelTextSearcher } from '../../src/node/parallelTextSearcher';
import { createVscodeWorkspaceFs } from '../../src/vscode/vscodeWorkspaceFs';
import { makeToolContext, neverAborted } from '../fakes/toolContext';
import { makeSearchTree, searchQueries } from '../unit/node/searchTree';

describe('search_text on the reader threads of the extension host', () => {
  let tree: { base: string; root: string } | undefined;
  afterEach(() => {
    if (tree !== undefined) rmSync(tree.base, { recursive: true, force: true });
  });

  it('starts the bundled thread and finds what the editor reader alone finds', async () => {
    const extension = vscode.extensions.all.find((candidate) => (candidate.packageJSON as { name?: string }).name === 'task-planner');
    assert.ok(extension, 'the extension under test is not installed');
    const workerScript = join(extension.extensionPath, 'dist', 'textSearchWorker.js');
    assert.ok(existsSync(workerScript), `${workerScript} is not shipped`);
    tree = makeSearchTree();
    const readerOnly = createVscodeWorkspaceFs(vscode.Uri.file(tree.root), { narrowSearch: false });
    const textSearcher = createParallelTextSearcher(tree.root, { minFiles: 1, batchFiles: 3, threads: 2, workerScript });
    assert.ok(textSearcher);
    // The thread answers (a failed one leaves the narrowing undefined), naming a file with a match.
    const narrowing = await textSearcher.narrow(
      { pattern: 'NEEDLE', regex: false, caseSensitive: true },
      readerOnly.list(undefined, neverAborted).then((listing) => listing.files),
      neverAborted,
    );
    assert.ok(narrowing?.matched.has('src/a.ts'));
    const plain = makeToolContext({ workspace: readerOnly });
    const threaded = makeToolContext({ workspace: { ...readerOnly, textSearcher } });
    for (const input of searchQueries) {
      assert.deepEqual(await searchTextTool.run(threaded, input, neverAborted), await searchTextTool.run(plain, input, neverAborted), JSON.stringify(input));
    }
  });
});
