import assert from 'node:assert/strict';
import fc from 'fast-check';
import { withoutTrailingCommas } from '../../../../src/core/text/withoutTrailingCommas';

describe('withoutTrailingCommas', () => {
  it('drops a comma before a closing brace or bracket, with spaces and line breaks between, at any depth', () => {
    assert.equal(withoutTrailingCommas('{"path": "a.md", "edits": [{"old": "x", "new": "y"},]}'), '{"path": "a.md", "edits": [{"old": "x", "new": "y"}]}');
    assert.equal(withoutTrailingCommas('{"a": [1, 2,\n ],\n}'), '{"a": [1, 2\n ]\n}');
  });

  it('leaves commas inside strings, escaped quotes included, and every other text as it is', () => {
    const text = '{"content": "a,}\\",]", "b": ",]"}';
    assert.equal(withoutTrailingCommas(text), text);
    assert.deepEqual(JSON.parse(withoutTrailingCommas('{"content": "end,}\\\\",}')), { content: 'end,}\\' });
  });

  it('attack: completes nothing cut off: an argument that ran out of tokens mid-string stays invalid JSON', () => {
    assert.throws(() => JSON.parse(withoutTrailingCommas('{"path": "a.md", "content": "# Title\\n\\nThe first half of the fi')));
    assert.throws(() => JSON.parse(withoutTrailingCommas('{"path": "a.md",')));
  });

  it('changes nothing in valid JSON (any value, as JSON.stringify writes it, indented or not)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, indented) => {
        const text = JSON.stringify(value, null, indented ? 2 : undefined);
        assert.equal(withoutTrailingCommas(text), text);
      }),
    );
  });
});
