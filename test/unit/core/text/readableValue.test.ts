import assert from 'node:assert/strict';
import { readableValue } from '../../../../src/core/text/readableValue';

describe('readableValue', () => {
  it('shows a plain object one field a line, string fields raw and the others as JSON', () => {
    assert.equal(readableValue({ path: 'a.md', content: '# A\n"b"\n', lines: [1, 2], nested: { x: 1 } }), 'path: a.md\ncontent: # A\n"b"\n\nlines: [1,2]\nnested: {"x":1}');
  });

  it('shows anything else as valueText does: strings as they are, arrays and null as JSON, an agent\'s result as its answer', () => {
    assert.equal(readableValue('text'), 'text');
    assert.equal(readableValue([1, 'a']), '[1,"a"]');
    assert.equal(readableValue(null), 'null');
    assert.equal(readableValue(undefined), 'undefined');
    assert.equal(readableValue(3), '3');
    assert.equal(readableValue({ answer: 'Fixed it.', changes: { applied: [], rejected: [], failed: [] } }), 'Fixed it.');
    assert.equal(readableValue({}), '');
  });

  it('never throws: a field JSON cannot show is shown as its text', () => {
    assert.equal(readableValue({ big: 10n }), 'big: 10');
  });
});
