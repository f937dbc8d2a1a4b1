// Issue 28 (polish): a 3.8k-character request was the panel's heading, a wall of large text. The heading is its first
// line, at most 120 characters cut between words; the whole request is under "Full request" (e2e: pythonTrial.test.ts).
import assert from 'node:assert/strict';
import { maxHeadingChars, objectiveTitle } from '../../../webview/objectiveHeading';

describe('objectiveTitle', () => {
  it('keeps a short one-line objective whole', () => {
    assert.deepEqual(objectiveTitle('  Run the tests and fix the failure '), { title: 'Run the tests and fix the failure', cut: false });
  });

  it('heads a request of several lines with its first line; the rest is not lost (cut)', () => {
    assert.deepEqual(objectiveTitle('Add a --verbose flag\n\n- print each file\n- keep quiet the default'), { title: 'Add a --verbose flag', cut: true });
  });

  it('cuts a long first line between words, before the limit, marked with "…"', () => {
    const request = `${'word '.repeat(800)}end`;
    const { title, cut } = objectiveTitle(request);
    assert.equal(cut, true);
    assert.ok(title.length <= maxHeadingChars, `${title.length} characters`);
    assert.match(title, /^(word )+word…$/);
  });

  it('cuts a line without spaces at the limit, never through a surrogate pair', () => {
    assert.equal(objectiveTitle('x'.repeat(5_000)).title, `${'x'.repeat(maxHeadingChars - 1)}…`);
    assert.equal(objectiveTitle(`${'a'.repeat(maxHeadingChars - 2)}😀😀`).title, `${'a'.repeat(maxHeadingChars - 2)}…`);
  });

  it('names an objective with an empty first line by its first words, and an empty one "Plan"', () => {
    assert.deepEqual(objectiveTitle('\n\nFix it'), { title: 'Fix it', cut: false });
    assert.deepEqual(objectiveTitle('   '), { title: 'Plan', cut: false });
  });
});
