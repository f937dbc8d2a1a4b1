import assert from 'node:assert/strict';
import fc from 'fast-check';
import { keepLineEnds, lineEnds, maxLineEdits } from '../../../../src/core/text/keepLineEnds';

describe('keepLineEnds', () => {
  it('writes a whole-file replacement in the line ends of the file it replaces, when they are all the same', () => {
    assert.equal(keepLineEnds('a\r\nb\r\n', 'x\ny\n'), 'x\r\ny\r\n');
    assert.equal(keepLineEnds('a\r\nb\r\n', 'x\r\ny\nz'), 'x\r\ny\r\nz');
    assert.equal(keepLineEnds('#!/bin/sh\necho hi\n', '#!/bin/sh\r\necho hi\r\n'), '#!/bin/sh\necho hi\n');
    assert.equal(keepLineEnds('\na', 'x\r\n'), 'x\n', 'a file starting with an empty line is LF too');
  });

  it('keeps the byte order mark of the file, and adds none it did not have', () => {
    assert.equal(keepLineEnds('\ufeffa\n', 'b\n'), '\ufeffb\n');
    assert.equal(keepLineEnds('\ufeffa\n', '\ufeffb\n'), '\ufeffb\n');
    assert.equal(keepLineEnds('a\n', '\ufeffb\n'), 'b\n');
    assert.equal(keepLineEnds('a\n', '\ufeff\ufeffb\n'), 'b\n');
    assert.equal(keepLineEnds('\ufeffa\r\n', 'b\nc\n'), '\ufeffb\r\nc\r\n');
  });

  it('leaves a new file and a file of one line as the content gives them', () => {
    assert.equal(keepLineEnds(undefined, '\ufeffx\r\ny\n'), '\ufeffx\r\ny\n');
    assert.equal(keepLineEnds('one line', 'x\r\ny\n'), 'x\r\ny\n');
    assert.equal(keepLineEnds('', 'x\r\n'), 'x\r\n');
  });

  it('attack: keeps the lone CR line ends of an old Mac file, which the editor shows as lines (the diff showed no change)', () => {
    assert.equal(keepLineEnds('a\rb\r', 'a\nb\n'), 'a\rb\r');
    assert.equal(keepLineEnds('a\rb', 'x\r\ny\nz'), 'x\ry\rz');
  });

  it('in a file of mixed line ends, keeps the end of every line left as it was, and ends a new line as most lines do', () => {
    // The attack: the editor shows a mixed file in one line end, so a rewrite in the content's ends changed lines it showed unchanged.
    assert.equal(keepLineEnds('a\r\nb\nc\r\n', 'a\nb\nc\n'), 'a\r\nb\nc\r\n', 'the same lines: the same bytes');
    assert.equal(keepLineEnds('a\r\nb\nc\r\n', 'a\nb\nnew\nc\n'), 'a\r\nb\nnew\r\nc\r\n', 'two CRLF ends of three: CRLF');
    assert.equal(keepLineEnds('a\nb\nc\r\n', 'a\nB\nc\r\n'), 'a\nB\nc\r\n', 'a changed line in LF, as most are');
    assert.equal(keepLineEnds('a\r\nb\n', 'b\r\n'), 'b\n', 'a removed first line: the one left keeps its end');
    assert.equal(keepLineEnds('a\r\nb\nc', 'a\nb'), 'a\r\nb', 'the last line ends nowhere, as in the content');
    assert.equal(keepLineEnds('\ufeffa\r\nb\n', 'x\na\nb\n'), '\ufeffx\na\r\nb\n', 'with its byte order mark, a tie goes to LF');
  });

  it('attack: keeps a lone CR beside LF or CRLF ends, which the editor shows as a line end (the diff showed no change)', () => {
    // Each written with the lone CR as an LF or CRLF: bytes the diff showed unchanged, as the editor splits lines at a lone CR too.
    assert.equal(keepLineEnds('a\nb\rc\n', 'a\nb\nc\nd\n'), 'a\nb\rc\nd\n');
    assert.equal(keepLineEnds('a\r\nb\rc\r\n', 'a\nb\nc\nd\n'), 'a\r\nb\rc\r\nd\r\n');
    assert.equal(keepLineEnds('a\nb\nc\r', 'a\nb\nc\nd\n'), 'a\nb\nc\rd\n', 'a last line ending in a lone CR');
    assert.equal(keepLineEnds('a\nb\n\r', 'a\nb\n\nd\n'), 'a\nb\n\rd\n', 'a last line of only a CR');
    assert.equal(keepLineEnds('a\r\nb\nmid\rc\r\n', 'a\nb\nmid\nc\nd\n'), 'a\r\nb\nmid\rc\r\nd\r\n', 'mixed: most ends CR or CRLF');
  });

  it('in a mixed file rewritten beyond the diff\'s bound, still keeps the ends of its unchanged first and last lines', () => {
    const lines = Array.from({ length: maxLineEdits }, (_, index) => `line ${index}${index % 2 === 0 ? '\r\n' : '\n'}`);
    const current = `head\r\n${lines.join('')}tail\n`;
    const content = `head\n${lines.map((line) => `changed ${line}`).join('')}tail\n`;
    const written = keepLineEnds(current, content);
    assert.ok(written.startsWith('head\r\nchanged line 0'), written.slice(0, 40));
    assert.ok(written.endsWith(`changed line ${maxLineEdits - 1}\ntail\n`), written.slice(-40));
  });

  it('property: in a file of mixed line ends, every line a write leaves as it was keeps its bytes', () => {
    const line = fc.constantFrom('a', 'b', 'c', '');
    const end = fc.constantFrom('\n', '\r\n');
    const file = fc.array(fc.tuple(line, end), { minLength: 2, maxLength: 12 })
      .map((pairs) => pairs.map(([text, ending]) => text + ending).join(''))
      .filter((text) => lineEnds(text) === 'mixed');
    fc.assert(
      fc.property(file, fc.nat(), fc.constantFrom('added\n', 'added\r\n'), (current, at, added) => {
        const ends = current.match(/[^\n]*\n/g) ?? [];
        const position = at % (ends.length + 1);
        // The same lines in any line ends: written as they were.
        assert.equal(keepLineEnds(current, current.replace(/\r\n/g, '\n')), current);
        // One line added: every other line as it was, byte for byte.
        const content = [...ends.slice(0, position), added, ...ends.slice(position)].join('').replace(/\r?\n/g, '\n');
        const written = keepLineEnds(current, content).match(/[^\n]*\n/g) ?? [];
        const addedAt = written.findIndex((text, index) => text !== ends[index]);
        assert.deepEqual([...written.slice(0, addedAt), ...written.slice(addedAt + 1)], ends);
      }),
    );
  });

  it('property: what is written differs from the content only in line ends and the byte order mark', () => {
    const text = fc.array(fc.constantFrom('a', 'b', '\n', '\r\n', '\ufeff'), { maxLength: 20 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.option(text, { nil: undefined }), text, (current, content) => {
        const written = keepLineEnds(current, content);
        const plain = (value: string): string => value.replace(/^\ufeff+/, '').replace(/\r\n/g, '\n');
        assert.equal(plain(written), plain(content));
        if (current !== undefined) assert.equal(written.startsWith('\ufeff'), current.startsWith('\ufeff'));
      }),
    );
  });
});

describe('lineEnds', () => {
  it('tells CRLF, LF, CR, mixed and no line ends apart (beside CRLF or LF, a lone CR ends no line)', () => {
    const cases: [string, ReturnType<typeof lineEnds>][] = [
      ['a\r\nb\r\n', 'crlf'],
      ['\r\n', 'crlf'],
      ['a\nb', 'lf'],
      ['\n', 'lf'],
      ['a\r\nb\n', 'mixed'],
      ['\na\r\n', 'mixed'],
      ['a', 'none'],
      ['a\rb\r', 'cr'],
      ['\r', 'cr'],
      ['a\rb\r\n', 'crlf'],
      ['', 'none'],
    ];
    for (const [text, expected] of cases) assert.equal(lineEnds(text), expected, JSON.stringify(text));
  });
});
