// search_text in the real extension host: narrowed by the ripgrep the host ships (found under vscode.env.appRoot),
// it returns what the core reader alone returns on the demo workspace.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { searchTextTool } from '../../src/core/tools/searchTextTool';
import { createVscodeWorkspaceFs } from '../../src/vscode/vscodeWorkspaceFs';
import { makeToolContext, neverAborted } from '../fakes/toolContext';

describe('search_text through the bundled ripgrep', () => {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file('/nonexistent');

  it('finds the ripgrep under appRoot and narrows the search with it', async () => {
    const searcher = createVscodeWorkspaceFs(folder).textSearcher;
    assert.ok(searcher, `no ripgrep found under ${vscode.env.appRoot}`);
    const narrowing = await searcher.narrow({ pattern: 'searchNotes', regex: false, caseSensitive: true }, Promise.resolve([]), neverAborted);
    assert.ok(narrowing);
    assert.ok(narrowing.matched.has('src/notes.js') && narrowing.matched.has('src/cli.js'));
    assert.ok(narrowing.seen.has('package.json') && !narrowing.matched.has('package.json'));
  });

  it('gets the same results as the core reader on the demo workspace', async () => {
    const withRipgrep = makeToolContext({ workspace: createVscodeWorkspaceFs(folder) });
    const readerOnly = makeToolContext({ workspace: createVscodeWorkspaceFs(folder, { narrowSearch: false }) });
    assert.equal(readerOnly.workspace.textSearcher, undefined);
    const queries = [
      { query: 'notes' },
      { query: 'NOTE', caseSensitive: false, contextLines: 2 },
      { query: 'export function \\w+\\(', regex: true },
      { query: '^import .* from', regex: true, glob: 'src/*.js' },
      { query: 'note', maxMatches: 3 },
      { query: 'no such text anywhere' },
    ];
    let found = 0;
    for (const input of queries) {
      const expected = await searchTextTool.run(readerOnly, input, neverAborted);
      const actual = await searchTextTool.run(withRipgrep, input, neverAborted);
      assert.deepEqual(actual, expected, JSON.stringify(input));
      found += actual.matches.length;
    }
    assert.ok(found > 10, `the queries found only ${found} matches`);
  });
});
