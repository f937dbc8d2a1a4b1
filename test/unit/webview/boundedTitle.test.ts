// Issue 27, E8: a 3,000-character step title is bounded where the panel names it (its label and tooltip); the card's
// CSS wraps and clamps what it shows (measured in test/e2e/editorPresentation.test.ts).
import assert from 'node:assert/strict';
import { boundedTitle } from '../../../webview/formatting';

describe('boundedTitle', () => {
  it('keeps a short title and cuts a long one with a visible "…"', () => {
    assert.equal(boundedTitle('Read the README'), 'Read the README');
    const cut = boundedTitle('T'.repeat(3_000));
    assert.equal(cut.length, 200);
    assert.ok(cut.endsWith('…'));
    assert.equal(boundedTitle('x'.repeat(1_001), 1_000).length, 1_000);
  });

  it('never cuts a surrogate pair in two', () => {
    const cut = boundedTitle(`${'a'.repeat(198)}😀😀😀`);
    assert.equal(cut, `${'a'.repeat(198)}…`);
  });
});
