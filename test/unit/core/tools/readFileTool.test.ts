import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { maxReadFileBytes, maxReadResultChars, notUtf8Note, readFileTool } from '../../../../src/core/tools/readFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { temporaryDirectory } from '../../../support/temporaryDirectory';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const ctxWith = (files: Record<string, string>) => makeToolContext({ workspace: createMemoryWorkspace(files) });

describe('read_file', () => {
  it('reads a whole file with its line count', async () => {
    assert.deepEqual(await readFileTool.run(ctxWith({ 'a.txt': 'l1\nl2\nl3' }), { path: 'a.txt' }, neverAborted), {
      path: 'a.txt', content: 'l1\nl2\nl3', startLine: 1, endLine: 3, totalLines: 3, truncated: false,
    });
  });

  it('reads an inclusive 1-based line range, clamped to the end', async () => {
    const ctx = ctxWith({ 'a.txt': 'l1\nl2\nl3\nl4\n' });
    assert.equal((await readFileTool.run(ctx, { path: 'a.txt', startLine: 2, endLine: 3 }, neverAborted)).content, 'l2\nl3\n');
    const tail = await readFileTool.run(ctx, { path: 'a.txt', startLine: 4, endLine: 99 }, neverAborted);
    assert.deepEqual([tail.content, tail.endLine], ['l4\n', 4]);
    await assert.rejects(readFileTool.run(ctx, { path: 'a.txt', startLine: 3, endLine: 2 }, neverAborted), /endLine \(2\) is before startLine \(3\)/);
    await assert.rejects(readFileTool.run(ctx, { path: 'a.txt', startLine: 9 }, neverAborted), /startLine 9 is past the end of a.txt, which has 4 lines/);
  });

  it('cuts long content at a line end and says so', async () => {
    const line = `${'x'.repeat(999)}\n`;
    const result = await readFileTool.run(ctxWith({ 'big.txt': line.repeat(300) }), { path: 'big.txt' }, neverAborted);
    assert.equal(result.truncated, true);
    assert.ok(result.content.length <= maxReadResultChars);
    assert.equal(result.endLine, maxReadResultChars / 1000);
    assert.ok(result.content.endsWith('\n'));
  });

  it('refuses missing files, directories and binary content with clear messages', async () => {
    const ctx = ctxWith({ 'dir/x.txt': '', 'bin.dat': 'PK\u0003\u0004\u0000\u0000' });
    await assert.rejects(readFileTool.run(ctx, { path: 'nope.txt' }, neverAborted), { message: 'File not found: nope.txt.', modelHint: 'Use list_files to see what exists.' });
    await assert.rejects(readFileTool.run(ctx, { path: 'dir' }, neverAborted), { message: 'dir is a directory, not a file.', modelHint: 'Use list_files to see its files.' });
    await assert.rejects(readFileTool.run(ctx, { path: 'bin.dat' }, neverAborted), /looks like a binary file/);
  });

  it('refuses files over the size limit without reading them', async () => {
    const workspace = createMemoryWorkspace();
    const huge = { ...workspace, stat: async () => ({ type: 'file' as const, size: 9 * 1024 * 1024, mtimeMs: 0 }), readText: async () => assert.fail('must not read') };
    await assert.rejects(readFileTool.run(makeToolContext({ workspace: huge }), { path: 'huge.log' }, neverAborted), {
      message: 'huge.log is 9437184 bytes, more than the 8388608-byte read limit.',
      modelHint: 'Use search_text to find what you need in it.',
    });
  });

  it('refuses with the cause a caller can tell apart: missing, directory, too large, binary', async () => {
    const ctx = ctxWith({ 'dir/x.txt': '', 'bin.dat': 'PK\u0000' });
    await assert.rejects(readFileTool.run(ctx, { path: 'nope.txt' }, neverAborted), { name: 'WorkspaceError', code: 'not_found', path: 'nope.txt' });
    await assert.rejects(readFileTool.run(ctx, { path: '' }, neverAborted), { code: 'is_directory', message: '. is a directory, not a file.', modelHint: 'Use list_files to see its files.' });
    await assert.rejects(readFileTool.run(ctx, { path: 'bin.dat' }, neverAborted), { code: 'binary', message: 'bin.dat looks like a binary file; read_file reads text only' });
    const workspace = createMemoryWorkspace();
    const huge = { ...workspace, stat: async () => ({ type: 'file' as const, size: maxReadFileBytes + 1, mtimeMs: 0 }) };
    await assert.rejects(readFileTool.run(makeToolContext({ workspace: huge }), { path: 'huge.log' }, neverAborted), { code: 'too_large' });
  });

  it('reads a file of exactly the size limit, asking the workspace for no more than the limit', async () => {
    const workspace = createMemoryWorkspace({ 'edge.txt': 'fits' });
    const limits: (number | undefined)[] = [];
    const edge = {
      ...workspace,
      stat: async () => ({ type: 'file' as const, size: maxReadFileBytes, mtimeMs: 0 }),
      readText: async (path: string, signal: AbortSignal, options?: { maxBytes?: number }) => {
        limits.push(options?.maxBytes);
        return workspace.readText(path, signal);
      },
    };
    assert.equal((await readFileTool.run(makeToolContext({ workspace: edge }), { path: 'edge.txt' }, neverAborted)).content, 'fits');
    assert.deepEqual(limits, [maxReadFileBytes]);
  });

  it('takes a NUL character after the first 8 KiB for text', async () => {
    const text = `${'a'.repeat(8_192)}\u0000`;
    assert.equal((await readFileTool.run(ctxWith({ 'late.txt': text }), { path: 'late.txt' }, neverAborted)).content, text);
  });

  it('reads a single line when endLine equals startLine', async () => {
    const result = await readFileTool.run(ctxWith({ 'a.txt': 'l1\nl2\nl3' }), { path: 'a.txt', startLine: 2, endLine: 2 }, neverAborted);
    assert.deepEqual([result.content, result.startLine, result.endLine], ['l2\n', 2, 2]);
  });

  it('cuts a first line longer than the result limit inside it rather than returning nothing', async () => {
    const result = await readFileTool.run(ctxWith({ 'one.txt': `${'y'.repeat(maxReadResultChars + 10)}\nnext\n` }), { path: 'one.txt' }, neverAborted);
    assert.deepEqual([result.content.length, result.endLine, result.truncated], [maxReadResultChars, 1, true]);
  });

  it('gives the file\'s content as its text, and any other value (a journal that kept something else) as JSON', async () => {
    const result = await readFileTool.run(ctxWith({ 'a.json': '{"x": 1}\n' }), { path: 'a.json' }, neverAborted);
    assert.equal(readFileTool.resultText?.(result), '{"x": 1}\n');
    assert.equal(readFileTool.resultText?.({ content: 5 }), '{"content":5}');
    assert.equal(readFileTool.resultText?.(null), 'null');
    assert.equal(readFileTool.resultText?.('plain'), 'plain');
  });

  it('tells an agent where a read the size cap cut stopped, and gives a whole read as the bare content', async () => {
    const long = `${'x'.repeat(maxReadResultChars - 5)}\nsecond line\nthird\n`;
    const cut = await readFileTool.run(ctxWith({ 'big.txt': long }), { path: 'big.txt' }, neverAborted);
    const text = readFileTool.resultText?.(cut) ?? '';
    assert.ok(text.startsWith(`${'x'.repeat(maxReadResultChars - 5)}\n`), 'the content comes first');
    assert.equal(text.slice(maxReadResultChars - 4), `\n[cut at ${maxReadResultChars} characters, at line 1 of 3; read the rest with startLine 2]`);
    const range = await readFileTool.run(ctxWith({ 'a.txt': 'l1\nl2\nl3' }), { path: 'a.txt', startLine: 2, endLine: 2 }, neverAborted);
    assert.equal(readFileTool.resultText?.(range), 'l2\n');
    const oneLine = await readFileTool.run(ctxWith({ 'one.txt': 'y'.repeat(maxReadResultChars + 10) }), { path: 'one.txt' }, neverAborted);
    assert.match(readFileTool.resultText?.(oneLine) ?? '', /\[cut at \d+ characters, at line 1 of 1\]$/);
  });
});

// From a newcomer's trial: a Latin-1 file came back as "Caf\uFFFD cr\uFFFDme" with nothing saying why.
describe('read_file of a file that is not UTF-8', () => {
  const dir = temporaryDirectory('tp-read-latin1-');

  it('says so in its result and its text, and what to do; a UTF-8 file holding U+FFFD itself is plain text', async () => {
    writeFileSync(join(dir.path, 'notes-latin1.txt'), Buffer.from('Caf\xe9 cr\xe8me\n', 'latin1'));
    writeFileSync(join(dir.path, 'utf8.txt'), 'a real \uFFFD in UTF-8\n');
    const ctx = makeToolContext({ workspace: createNodeWorkspace(dir.path) });
    const latin1 = await readFileTool.run(ctx, { path: 'notes-latin1.txt' }, neverAborted);
    assert.equal(latin1.notUtf8, true);
    assert.equal(readFileTool.resultText?.(latin1), `Caf\uFFFD cr\uFFFDme\n\n${notUtf8Note}`);
    assert.match(notUtf8Note, /not UTF-8 text: .* convert it to UTF-8 first, or change it with a command/);
    const utf8 = await readFileTool.run(ctx, { path: 'utf8.txt' }, neverAborted);
    assert.equal('notUtf8' in utf8, false);
    assert.equal(readFileTool.resultText?.(utf8), 'a real \uFFFD in UTF-8\n');
  });
});
