import assert from 'node:assert/strict';
import fc from 'fast-check';
import { keepLineEnds, lineEnds } from '../../../../src/core/text/keepLineEnds';

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

  it('leaves a new file, a file of mixed line ends and a file of one line as the content gives them', () => {
    assert.equal(keepLineEnds(undefined, '\ufeffx\r\ny\n'), '\ufeffx\r\ny\n');
    assert.equal(keepLineEnds('a\r\nb\nc', 'x\ny\r\n'), 'x\ny\r\n');
    assert.equal(keepLineEnds('one line', 'x\r\ny\n'), 'x\r\ny\n');
    assert.equal(keepLineEnds('', 'x\r\n'), 'x\r\n');
    assert.equal(keepLineEnds('a\rb', 'x\ny'), 'x\ny', 'old Mac line ends are no convention kept');
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
  it('tells CRLF, LF, mixed and no line ends apart (a lone CR ends no line)', () => {
    const cases: [string, ReturnType<typeof lineEnds>][] = [
      ['a\r\nb\r\n', 'crlf'],
      ['\r\n', 'crlf'],
      ['a\nb', 'lf'],
      ['\n', 'lf'],
      ['a\r\nb\n', 'mixed'],
      ['\na\r\n', 'mixed'],
      ['a', 'none'],
      ['a\rb\r', 'none'],
      ['', 'none'],
    ];
    for (const [text, expected] of cases) assert.equal(lineEnds(text), expected, JSON.stringify(text));
  });
});
