import assert from 'node:assert/strict';
import { searchTextTool } from '../../../../src/core/tools/searchTextTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('search_text', () => {
  const workspace = createMemoryWorkspace({
    'src/a.ts': 'const a = 1;\n// TODO fix\nexport { a };\n',
    'src/b.ts': 'import { a } from "./a";\r\nconsole.log(a + 1);\r\n',
    'docs/notes.md': 'Todo list\n- a.b(c)\n',
    'bin.dat': 'TODO\u0000\u0001',
    'ignored/x.ts': 'TODO',
    '.gitignore': 'ignored/\n',
  });
  const ctx = makeToolContext({ workspace });

  it('finds literal text with 1-based line and column, in path order', async () => {
    const result = await searchTextTool.run(ctx, { query: 'a.b(c)' }, neverAborted);
    assert.deepEqual(result.matches, [{ path: 'docs/notes.md', line: 2, column: 3, text: '- a.b(c)' }]);
    assert.equal(result.truncated, false);
    assert.equal(result.filesSkipped, 1);
  });

  it('is case-sensitive by default and insensitive on request', async () => {
    assert.deepEqual((await searchTextTool.run(ctx, { query: 'TODO' }, neverAborted)).matches.map((m) => m.path), ['src/a.ts']);
    assert.deepEqual((await searchTextTool.run(ctx, { query: 'todo', caseSensitive: false }, neverAborted)).matches.map((m) => `${m.path}:${m.line}`), ['docs/notes.md:1', 'src/a.ts:2']);
  });

  it('searches with a regular expression, filtered by glob, with context lines', async () => {
    const result = await searchTextTool.run(ctx, { query: '^export\\s+\\{', regex: true, glob: '*.ts', contextLines: 1 }, neverAborted);
    assert.deepEqual(result.matches, [{ path: 'src/a.ts', line: 3, column: 1, text: 'export { a };', before: ['// TODO fix'], after: [''] }]);
    assert.deepEqual((await searchTextTool.run(ctx, { query: 'log\\(a', regex: true }, neverAborted)).matches.map((m) => m.text), ['console.log(a + 1);']);
  });

  it('stops at maxMatches and says so', async () => {
    const result = await searchTextTool.run(ctx, { query: 'a', maxMatches: 2 }, neverAborted);
    assert.equal(result.matches.length, 2);
    assert.equal(result.truncated, true);
  });

  it('explains an invalid regular expression', async () => {
    await assert.rejects(searchTextTool.run(ctx, { query: '(unclosed', regex: true }, neverAborted), /The regular expression "\(unclosed" is invalid: .*search literally with regex: false/);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await assert.rejects(searchTextTool.run(ctx, { query: 'a' }, controller.signal), /cancelled/);
  });
});
