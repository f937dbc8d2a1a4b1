import assert from 'node:assert/strict';
import { splitCodeSpans } from '../../../webview/codeSpans';

describe('splitCodeSpans', () => {
  it('marks what a pair of backticks holds as code, without the backticks (a trial read "Run `npm test`")', () => {
    assert.deepEqual(splitCodeSpans('Run `npm test` in `src`'), [
      { code: false, text: 'Run ' },
      { code: true, text: 'npm test' },
      { code: false, text: ' in ' },
      { code: true, text: 'src' },
    ]);
    assert.deepEqual(splitCodeSpans('`a`'), [{ code: true, text: 'a' }]);
  });

  it('leaves a backtick without its pair, an empty pair and a pair across lines as they are', () => {
    for (const text of ['Quote ` alone', 'Empty `` pair', 'Across `a\nb` lines', '', 'plain']) assert.deepEqual(splitCodeSpans(text), [{ code: false, text }], text);
  });
});
