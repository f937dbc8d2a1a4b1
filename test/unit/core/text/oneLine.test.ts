import assert from 'node:assert/strict';
import { oneLine } from '../../../../src/core/text/oneLine';

describe('oneLine', () => {
  it('puts text on one line: line breaks, the Unicode line separators and runs of spaces become one space', () => {
    assert.equal(oneLine('  Tests)\n wants to run:\r\n  "npm"\u2028\u2029test  '), 'Tests) wants to run: "npm" test');
  });

  it('cuts to max characters ending in "…", never in the middle of a surrogate pair, looking only at the start of a huge text', () => {
    assert.equal(oneLine('abcdef', 6), 'abcdef');
    assert.equal(oneLine('abcdefg', 6), 'abcde…');
    assert.equal(oneLine('abcd😀xyz', 6), 'abcd…');
    assert.equal(oneLine(`short${' '.repeat(100)}`, 6), 'short…', 'more than 4 × max characters is cut, even if they flatten to little');
    assert.equal(oneLine('x'.repeat(5_000_000), 10), `${'x'.repeat(9)}…`);
  });
});
