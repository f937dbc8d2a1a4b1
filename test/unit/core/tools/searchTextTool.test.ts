import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { maxMatchLineChars, maxSearchFileBytes, searchTextTool } from '../../../../src/core/tools/searchTextTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { confinedMemoryWorkspace } from '../../../fakes/memoryRawFs';
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
    const result = await searchTextTool.run(ctx, { query: 'a.b(c)', caseSensitive: false }, neverAborted);
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

  it('reads only the files a text searcher found a match in or did not see, counting the rest as searched', async () => {
    const read: string[] = [];
    const narrowed: WorkspaceFs = {
      ...workspace,
      readText: async (file, signal, options) => {
        read.push(file);
        return workspace.readText(file, signal, options);
      },
      textSearcher: {
        narrow: async (query) => {
          assert.deepEqual(query, { pattern: 'todo', regex: false, caseSensitive: false });
          return { matched: new Set(['src/a.ts']), seen: new Set(['src/a.ts', 'docs/notes.md', 'src/b.ts', '.gitignore', 'bin.dat']) };
        },
      },
    };
    const result = await searchTextTool.run(makeToolContext({ workspace: narrowed }), { query: 'todo', caseSensitive: false }, neverAborted);
    // docs/notes.md holds "Todo" but the searcher said it saw it without a match: not read.
    assert.deepEqual(result.matches.map((m) => `${m.path}:${m.line}`), ['src/a.ts:2']);
    assert.deepEqual(read, ['src/a.ts']);
    assert.deepEqual({ searched: result.filesSearched, skipped: result.filesSkipped }, { searched: 5, skipped: 0 });
    const unanswered: WorkspaceFs = { ...workspace, textSearcher: { narrow: async () => undefined } };
    assert.deepEqual((await searchTextTool.run(makeToolContext({ workspace: unanswered }), { query: 'todo', caseSensitive: false }, neverAborted)).matches.length, 2);
  });

  it('counts the files searched as the reader alone does when it stops at maxMatches with a text searcher', async () => {
    const files = createMemoryWorkspace({ 'a.txt': 'x\nx\n', 'b.txt': 'nothing\n', 'c.txt': 'x\n', 'd.txt': 'nothing\n', 'e.txt': 'x\n' });
    const plain = await searchTextTool.run(makeToolContext({ workspace: files }), { query: 'x', maxMatches: 2 }, neverAborted);
    const all = new Set(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']);
    const narrowed: WorkspaceFs = { ...files, textSearcher: { narrow: async () => ({ matched: new Set(['a.txt', 'c.txt', 'e.txt']), seen: all }) } };
    const through = await searchTextTool.run(makeToolContext({ workspace: narrowed }), { query: 'x', maxMatches: 2 }, neverAborted);
    assert.deepEqual(through, plain);
    assert.equal(through.filesSearched, 3, 'a.txt, b.txt and c.txt, where the third match stopped it');
  });

  it('stops the text searcher when the listing fails, and reports the listing\'s error', async () => {
    let searcherSignal: AbortSignal | undefined;
    const failing: WorkspaceFs = {
      ...workspace,
      list: async () => {
        throw new Error('The folder cannot be listed');
      },
      textSearcher: {
        narrow: (_query, _listed, signal) => {
          searcherSignal = signal;
          return new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('stopped')), { once: true }));
        },
      },
    };
    await assert.rejects(searchTextTool.run(makeToolContext({ workspace: failing }), { query: 'x' }, neverAborted), /cannot be listed/);
    assert.equal(searcherSignal?.aborted, true);
  });

  it('skips a file or folder it may not read and goes on, counting the file as skipped and naming the folder (attack: a locked file or folder)', async () => {
    const deny = (name: string) => {
      if (name === 'locked.txt' || name === 'locked') throw Object.assign(new Error("EACCES: permission denied, open '/proc/self/fd/9/locked.txt'"), { code: 'EACCES' });
    };
    const { raw, workspace: locked } = confinedMemoryWorkspace({ before: (operation, name) => (operation === 'openFile' || operation === 'openDirectory' ? deny(name) : undefined) });
    raw.file('/ws/a.txt', 'TODO one');
    raw.file('/ws/locked.txt', 'TODO hidden');
    raw.file('/ws/locked/b.txt', 'TODO hidden');
    raw.file('/ws/z.txt', 'TODO two');
    const result = await searchTextTool.run(makeToolContext({ workspace: locked }), { query: 'TODO' }, neverAborted);
    assert.deepEqual(result.matches.map((match) => match.path), ['a.txt', 'z.txt']);
    assert.equal(result.filesSkipped, 1);
    assert.equal(result.filesSearched, 2);
    assert.deepEqual(result.unreadableFolders, ['locked'], 'the folder it could not search is named');
    const open = await searchTextTool.run(ctx, { query: 'a' }, neverAborted);
    assert.equal('unreadableFolders' in open, false, 'absent when every folder was read');
  });

  it('stops at maxMatches and says so', async () => {
    const result = await searchTextTool.run(ctx, { query: 'a', maxMatches: 2 }, neverAborted);
    assert.equal(result.matches.length, 2);
    assert.equal(result.truncated, true);
  });

  it('explains an invalid regular expression', async () => {
    await assert.rejects(searchTextTool.run(ctx, { query: '(unclosed', regex: true }, neverAborted), /The regular expression "\(unclosed" is invalid: .*search literally with regex: false/);
  });

  it('runs a catastrophic-backtracking pattern in linear time: ^(a+)+$ over 33 "a" and "!" (about 10 minutes with a backtracking engine)', async () => {
    // 29 "a" took 39.6 s with a backtracking engine; each more "a" doubles it, far past the test's time-out.
    const hostile = createMemoryWorkspace({ 'a.txt': `${'a'.repeat(33)}!\n`.repeat(50), 'b.txt': 'aaaa\n' });
    const result = await searchTextTool.run(makeToolContext({ workspace: hostile }), { query: '^(a+)+$', regex: true }, neverAborted);
    assert.deepEqual(result.matches.map((match) => `${match.path}:${match.line}`), ['b.txt:1']);
  });

  it('keeps JavaScript meanings the linear-time engine spells differently', async () => {
    const files = createMemoryWorkspace({ 'x.txt': 'id: 42\r\nname\u00a0tag\r\nA-B\n[x]\nend;\r\n' });
    const lines = async (query: string, caseSensitive = true): Promise<number[]> => (await searchTextTool.run(makeToolContext({ workspace: files }), { query, regex: true, caseSensitive }, neverAborted)).matches.map((match) => match.line);
    assert.deepEqual(await lines('(?<key>\\w+): \\d+'), [1], 'named group, \\w, \\d');
    assert.deepEqual(await lines('name\\stag'), [2], 'JavaScript \\s includes U+00A0');
    assert.deepEqual(await lines('end;$'), [5], '$ before a CRLF');
    assert.deepEqual(await lines('\\u0041\\-B'), [3], '\\uXXXX and an identity escape');
    assert.deepEqual(await lines('^\\[x\\]$'), [4]);
    assert.deepEqual(await lines('[^]d:'), [1], '[^] is any character');
    assert.deepEqual(await lines('NAME', false), [2], 'ignore case');
    assert.deepEqual(await lines('42.name'), [], '. does not cross a line end');
  });

  it('refuses backreferences and lookaround, saying what is not supported', async () => {
    await assert.rejects(searchTextTool.run(ctx, { query: '(a)\\1', regex: true }, neverAborted), /uses backreferences .*not supported.*linear-time/);
    await assert.rejects(searchTextTool.run(ctx, { query: 'foo(?=bar)', regex: true }, neverAborted), /uses lookahead/);
    await assert.rejects(searchTextTool.run(ctx, { query: '(?<!x)y', regex: true }, neverAborted), /uses lookbehind/);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await assert.rejects(searchTextTool.run(ctx, { query: 'a' }, controller.signal), /cancelled/);
  });
});

describe('search_text over a Node workspace', () => {
  let base: string;
  let root: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-search-'));
    root = path.join(base, 'root');
    const files: Record<string, string> = {
      'root/.gitignore': 'ignored/\n',
      'root/src/a.ts': 'const a = 1;\n// NEEDLE here\n',
      'root/src/b.ts': 'nothing\r\nneedle in lower case\r\n',
      'root/ignored/x.ts': 'NEEDLE ignored',
      'root/bin.dat': 'NEEDLE\u0000\u0001',
      'outside/secret.txt': 'NEEDLE secret',
      'outside/dir/secret.ts': 'NEEDLE secret',
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
      fs.writeFileSync(path.join(base, file), text);
    }
    fs.writeFileSync(path.join(root, 'huge.txt'), `NEEDLE${'x'.repeat(maxSearchFileBytes)}`);
    fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(root, 'src/out-link.txt'));
    fs.symlinkSync(path.join(base, 'outside/dir'), path.join(root, 'out-dir'));
    fs.symlinkSync('a.ts', path.join(root, 'src/in-link.ts'));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('finds matches in path order, follows links only inside the root, skips ignored, binary and oversized files', async () => {
    const ctx = makeToolContext({ workspace: createNodeWorkspace(root) });
    const result = await searchTextTool.run(ctx, { query: 'NEEDLE' }, neverAborted);
    assert.deepEqual(result.matches.map((m) => `${m.path}:${m.line}:${m.column}`), ['src/a.ts:2:4', 'src/in-link.ts:2:4']);
    assert.deepEqual({ searched: result.filesSearched, skipped: result.filesSkipped }, { searched: 4, skipped: 2 });
    const ignoringCase = await searchTextTool.run(ctx, { query: 'needle', caseSensitive: false, contextLines: 1 }, neverAborted);
    assert.deepEqual(ignoringCase.matches.find((m) => m.path === 'src/b.ts'), { path: 'src/b.ts', line: 2, column: 1, text: 'needle in lower case', before: ['nothing'], after: [''] });
    const byRegex = await searchTextTool.run(ctx, { query: 'NEEDLE\\s+\\w+', regex: true }, neverAborted);
    assert.deepEqual(byRegex.matches.map((m) => m.path), ['src/a.ts', 'src/in-link.ts']);
  });

  it('skips a file swapped for a link that leads out after it was listed', async () => {
    const node = createNodeWorkspace(root);
    const workspace: WorkspaceFs = {
      ...node,
      list: async (glob, signal) => {
        const files = await node.list(glob, signal);
        fs.rmSync(path.join(root, 'src/a.ts'));
        fs.symlinkSync(path.join(base, 'outside/secret.txt'), path.join(root, 'src/a.ts'));
        return files;
      },
    };
    const result = await searchTextTool.run(makeToolContext({ workspace }), { query: 'NEEDLE' }, neverAborted);
    assert.deepEqual(result.matches, []);
    assert.equal(result.filesSkipped, 4);
  });

  it('attack: answers a guess of what a link to .env holds the same, right or wrong (its matches counted against maxMatches)', async () => {
    fs.writeFileSync(path.join(root, '.env'), 'API_KEY=s3cr3t\n');
    // committed by a hostile repository, with any later file holding a known line
    fs.symlinkSync('.env', path.join(root, 'notes.txt'));
    fs.writeFileSync(path.join(root, 'zz.txt'), 'zzmarker\n');
    const withheld: string[] = [];
    const guess = (prefix: string) =>
      searchTextTool.run(makeToolContext({ workspace: createNodeWorkspace(root), withheld: (file) => withheld.push(file) }), { query: `API_KEY=${prefix}|zzmarker`, regex: true, maxMatches: 1 }, neverAborted);
    const right = await guess('s3');
    assert.deepEqual(right.matches.map((match) => match.path), ['zz.txt']);
    assert.deepEqual(right, await guess('xx'));
    assert.ok(withheld.includes('.env'), 'the run is told of the file kept');
  });

  it('stops when aborted while it reads', async () => {
    for (let index = 0; index < 500; index++) fs.writeFileSync(path.join(root, `f${index}.txt`), 'text');
    const controller = new AbortController();
    const node = createNodeWorkspace(root);
    const workspace: WorkspaceFs = {
      ...node,
      list: async (glob, signal) => {
        const files = await node.list(glob, signal);
        setImmediate(() => controller.abort(new Error('cancelled')));
        return files;
      },
    };
    await assert.rejects(searchTextTool.run(makeToolContext({ workspace }), { query: 'NEEDLE' }, controller.signal), /cancelled/);
  });
});

describe('search_text: edge cases a caller relies on', () => {
  it('searches literally without case, special characters included', async () => {
    const ctx = makeToolContext({ workspace: createMemoryWorkspace({ 'a.txt': 'x A.B(C) y\naxb(c)\n' }) });
    const result = await searchTextTool.run(ctx, { query: 'a.b(c)', caseSensitive: false }, neverAborted);
    assert.deepEqual(result.matches.map((match) => [match.line, match.column]), [[1, 3]]);
  });

  it('searches a file whose NUL character comes after the first 8 KiB', async () => {
    const ctx = makeToolContext({ workspace: createMemoryWorkspace({ 'late.txt': `${'a'.repeat(8_192)}\u0000\nneedle\n` }) });
    const result = await searchTextTool.run(ctx, { query: 'needle' }, neverAborted);
    assert.deepEqual([result.matches.map((match) => match.line), result.filesSearched, result.filesSkipped], [[2], 1, 0]);
  });

  it('cuts a long matching line, marking the cut', async () => {
    const long = `needle ${'z'.repeat(maxMatchLineChars)}`;
    const exact = 'n'.repeat(maxMatchLineChars - 6) + 'needle';
    const ctx = makeToolContext({ workspace: createMemoryWorkspace({ 'a.txt': `${long}\n${exact}\n` }) });
    const [first, second] = (await searchTextTool.run(ctx, { query: 'needle' }, neverAborted)).matches;
    assert.equal(first?.text, `${long.slice(0, maxMatchLineChars)}…`);
    assert.equal(second?.text, exact, 'a line of exactly the limit is kept whole');
  });

  it('explains a pattern valid in JavaScript that the linear-time engine cannot run', async () => {
    const ctx = makeToolContext({ workspace: createMemoryWorkspace({ 'a.txt': 'a' }) });
    await assert.rejects(searchTextTool.run(ctx, { query: 'a{1001}', regex: true }, neverAborted), /^Error: The regular expression "a\{1001\}" cannot run on the linear-time engine \(RE2\): .*Simplify it \(repetition counts stay under 1000\), or search literally with regex: false\.$/);
  });

  it('passes on a read failure that is not about the file changing', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'needle' });
    const broken: WorkspaceFs = { ...memory, readText: async () => { throw new Error('disk on fire'); } };
    await assert.rejects(searchTextTool.run(makeToolContext({ workspace: broken }), { query: 'needle' }, neverAborted), /disk on fire/);
  });
});
