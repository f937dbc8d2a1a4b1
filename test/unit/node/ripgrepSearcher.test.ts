import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { searchTextTool } from '../../../src/core/tools/searchTextTool';
import { createNodeWorkspace } from '../../../src/node/nodeWorkspace';
import { createRipgrepSearcher, findBundledRipgrep, findRipgrepOnPath } from '../../../src/node/ripgrepSearcher';
import { makeToolContext, neverAborted } from '../../fakes/toolContext';
import { makeSearchTree, searchQueries } from './searchTree';

// The ripgrep code-server ships (test/host, installed for the integration tests), else one on PATH.
const ripgrep =
  findBundledRipgrep(path.join(__dirname, '..', '..', 'host', 'node_modules', 'code-server', 'lib', 'vscode')) ?? findRipgrepOnPath(process.env.PATH);

// Ripgrep walks by itself: the listing is not its input.
const nothingListed = Promise.resolve([]);

describe('ripgrep searcher', () => {
  let base: string;
  let root: string;
  beforeEach(() => {
    ({ base, root } = makeSearchTree());
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it("finds exactly what the core reader finds (ignore rules, ripgrep's own ignore files, hidden files, links, binary, oversized files, CRLF, odd names)", async function () {
    if (ripgrep === undefined) this.skip();
    const plain = makeToolContext({ workspace: createNodeWorkspace(root) });
    const withRipgrep = makeToolContext({ workspace: createNodeWorkspace(root, { ripgrepPath: ripgrep }) });
    for (const input of searchQueries) {
      const expected = await searchTextTool.run(plain, input, neverAborted);
      const actual = await searchTextTool.run(withRipgrep, input, neverAborted);
      assert.deepEqual(actual.matches, expected.matches, JSON.stringify(input));
      assert.equal(actual.truncated, expected.truncated, JSON.stringify(input));
    }
    // "new\nline.txt" matches for ripgrep (below) but is no workspace path (a control character), so neither reader returns it.
    const all = await searchTextTool.run(withRipgrep, { query: 'NEEDLE' }, neverAborted);
    assert.deepEqual(
      all.matches.map((m) => m.path),
      ['-dash.txt', '.hidden/h.md', 'keep.log', 'late-nul.txt', 'latin1.txt', 'src/a.ts', 'src/a.ts', 'src/b.ts', 'src/in-link.ts', 'src/in-link.ts'],
    );
  });

  it('names the files with a match and the files it saw, never following a link', async function () {
    if (ripgrep === undefined) this.skip();
    const narrowing = await createRipgrepSearcher(ripgrep, root).narrow({ pattern: 'NEEDLE', regex: false, caseSensitive: true }, nothingListed, neverAborted);
    assert.ok(narrowing);
    assert.deepEqual([...narrowing.matched].sort(), [
      '-dash.txt',
      '.hidden/h.md',
      'bin.dat',
      'keep.log',
      'late-nul.txt',
      'latin1.txt',
      'new\nline.txt',
      'src/a.ts',
      'src/b.ts',
    ]);
    assert.ok(narrowing.seen.has('src/local.ts') === false && narrowing.seen.has('src/out-link.txt') === false && narrowing.seen.has('huge.txt') === false);
    assert.ok(narrowing.seen.has('src/b.ts') && narrowing.seen.has('.gitignore'));
  });

  it('finds what the reader alone finds beside a name holding a backslash (which the listing leaves out: to the reader "c\\d.txt" is c/d.txt)', async function () {
    if (ripgrep === undefined) this.skip();
    for (const [file, text] of [['c\\d.txt', 'nothing\n'], ['c/d.txt', 'NEEDLE in c/d\n'], ['e\\f.txt', 'NEEDLE alone\n']]) {
      fs.mkdirSync(path.dirname(path.join(root, file as string)), { recursive: true });
      fs.writeFileSync(path.join(root, file as string), text as string);
    }
    const { textSearcher: _none, ...readerOnly } = createNodeWorkspace(root);
    const withRipgrep = makeToolContext({ workspace: createNodeWorkspace(root, { ripgrepPath: ripgrep }) });
    const plain = makeToolContext({ workspace: readerOnly });
    for (const input of [{ query: 'NEEDLE' }, { query: 'nothing' }]) {
      const expected = await searchTextTool.run(plain, input, neverAborted);
      assert.deepEqual((await searchTextTool.run(withRipgrep, input, neverAborted)).matches, expected.matches, JSON.stringify(input));
    }
  });

  it('does not narrow a pattern whose classes mean more in JavaScript, a missing program, or output over the limit', async function () {
    const query = { pattern: 'NEEDLE', regex: false, caseSensitive: true };
    assert.equal(await createRipgrepSearcher(path.join(base, 'no-such-rg'), root).narrow(query, nothingListed, neverAborted), undefined);
    if (ripgrep === undefined) this.skip();
    assert.equal(
      await createRipgrepSearcher(ripgrep, root).narrow({ pattern: '\\bNEEDLE', regex: true, caseSensitive: true }, nothingListed, neverAborted),
      undefined,
    );
    assert.equal(
      await createRipgrepSearcher(ripgrep, root).narrow({ pattern: 'a\uFFFDb', regex: false, caseSensitive: true }, nothingListed, neverAborted),
      undefined,
    );
    assert.equal(await createRipgrepSearcher(ripgrep, root, { maxOutputBytes: 8 }).narrow(query, nothingListed, neverAborted), undefined);
    // A pattern ripgrep refuses (a newline in a line-oriented search) leaves the search to the core reader.
    assert.equal(
      await createRipgrepSearcher(ripgrep, root).narrow({ pattern: 'a\\nb', regex: true, caseSensitive: true }, nothingListed, neverAborted),
      undefined,
    );
  });

  it('stops when aborted', async function () {
    if (ripgrep === undefined) this.skip();
    const controller = new AbortController();
    const pending = createRipgrepSearcher(ripgrep, root).narrow({ pattern: 'NEEDLE', regex: false, caseSensitive: true }, nothingListed, controller.signal);
    controller.abort(new Error('stopped by the user'));
    await assert.rejects(pending, /stopped by the user/);
  });

  it('finds the ripgrep of each VS Code layout under appRoot, executable files only', () => {
    const appRoot = path.join(base, 'app');
    const place = (relative: string, mode: number): string => {
      const file = path.join(appRoot, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '');
      fs.chmodSync(file, mode);
      return file;
    };
    assert.equal(findBundledRipgrep(appRoot, 'linux', 'x64'), undefined);
    const universal = place('node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg', 0o755);
    assert.equal(findBundledRipgrep(appRoot, 'linux', 'x64'), universal);
    assert.equal(findBundledRipgrep(appRoot, 'linux', 'arm64'), undefined);
    place('node_modules.asar.unpacked/@vscode/ripgrep/bin/rg', 0o644);
    assert.equal(findBundledRipgrep(appRoot, 'linux', 'x64'), universal);
    const unpacked = place('node_modules.asar.unpacked/@vscode/ripgrep/bin/rg', 0o755);
    assert.equal(findBundledRipgrep(appRoot, 'linux', 'x64'), unpacked);
    assert.equal(findBundledRipgrep(appRoot, 'win32', 'x64'), undefined);
  });

  it('takes an rg on PATH only from an absolute directory', () => {
    const bin = path.join(base, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'rg'), '');
    fs.chmodSync(path.join(bin, 'rg'), 0o755);
    assert.equal(findRipgrepOnPath(`relative${path.delimiter}${bin}`), path.join(bin, 'rg'));
    assert.equal(findRipgrepOnPath(path.relative(process.cwd(), bin)), undefined);
    assert.equal(findRipgrepOnPath(undefined), undefined);
  });
});
