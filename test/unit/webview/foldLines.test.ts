import assert from 'node:assert/strict';
import { foldLines } from '../../../webview/foldLines';

const numbered = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('foldLines', () => {
  it('shows a text of up to 20 lines whole, a trailing newline not counted as a line', () => {
    assert.deepEqual(foldLines(numbered(20)), { shown: numbered(20), hiddenLines: 0 });
    assert.deepEqual(foldLines(`${numbered(20)}\n`), { shown: `${numbered(20)}\n`, hiddenLines: 0 });
  });

  it('shows the first 20 lines of a longer text and says how many more there are', () => {
    const folded = foldLines(`${numbered(32)}\n`);
    assert.equal(folded.shown, numbered(20));
    assert.equal(folded.hiddenLines, 12);
  });
});
