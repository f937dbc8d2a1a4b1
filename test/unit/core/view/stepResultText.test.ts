import assert from 'node:assert/strict';
import { describedResult } from '../../../../src/core/view/stepResultText';

// The second newcomer's finds (2026-12-01): "S001 Create a folder docs: path: docs, created: true" and "path: RELEASE,
// content: 0.4.0 , startLine: 1, endLine: 1, totalLines: 1, truncated: false" in the summary.
describe('describedResult', () => {
  it('says what a read read and whether a folder was made, not their fields', () => {
    assert.deepEqual(
      [
        { path: 'RELEASE', content: '0.4.0\n', startLine: 1, endLine: 1, totalLines: 1, truncated: false },
        { path: 'src/notes.js', content: 'a\nb\n', startLine: 1, endLine: 40, totalLines: 40, truncated: false },
        { path: 'src/notes.js', content: 'c\n', startLine: 3, endLine: 9, totalLines: 40, truncated: false },
        { path: 'docs', created: true },
        { path: 'docs', created: false },
      ].map((result) => describedResult(result, 160)),
      ['read RELEASE (1 line): 0.4.0', 'read src/notes.js (40 lines): a', 'read lines 3–9 of 40 of src/notes.js: c', 'created the folder docs/', 'found the folder docs/ already there'],
    );
  });

  it('leaves alone what only looks like them', () => {
    assert.deepEqual(
      [
        { path: 'docs', created: true, bytes: 3 },
        { path: 'a', content: 'x', startLine: '1', endLine: 1, totalLines: 1 },
        { path: 'a', content: 'x', startLine: 1, endLine: 1 },
        { path: 'a', content: 4, startLine: 1, endLine: 1, totalLines: 1 },
        { path: 7, created: true },
        'text',
        null,
      ].map((result) => describedResult(result, 160)),
      [undefined, undefined, undefined, undefined, undefined, undefined, undefined],
    );
  });
});
