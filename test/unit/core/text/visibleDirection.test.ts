import assert from 'node:assert/strict';
import { visibleDirection } from '../../../../src/core/text/visibleDirection';

describe('visibleDirection', () => {
  it('escapes every text-direction control and keeps right-to-left letters, tabs and new lines', () => {
    assert.equal(visibleDirection('a\u061cb\u200ec\u200fd\u202ae\u202ef\u2066g\u2069'), 'a\\u061cb\\u200ec\\u200fd\\u202ae\\u202ef\\u2066g\\u2069');
    assert.equal(visibleDirection('مرحبا\tשלום\n'), 'مرحبا\tשלום\n');
  });
});
