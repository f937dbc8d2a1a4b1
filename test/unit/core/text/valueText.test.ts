import assert from 'node:assert/strict';
import { valueText } from '../../../../src/core/text/valueText';

describe('valueText', () => {
  it('keeps a string as it is and writes anything JSON can show as compact JSON', () => {
    assert.equal(valueText('line 1\nline "2"'), 'line 1\nline "2"');
    assert.equal(valueText({ path: 'a.txt', lines: [1, 2] }), '{"path":"a.txt","lines":[1,2]}');
    assert.equal(valueText(null), 'null');
    assert.equal(valueText(42), '42');
  });

  it('falls back to String() for what JSON cannot show: undefined, a BigInt, a cycle', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    assert.equal(valueText(undefined), 'undefined');
    assert.equal(valueText(10n), '10');
    assert.equal(valueText(cycle), '[object Object]');
  });

  it('does not throw for a value that cannot be converted to a string either', () => {
    const cycle = Object.create(null) as Record<string, unknown>;
    cycle['self'] = cycle;
    assert.equal(valueText(cycle), '[unprintable object]');
  });

  it('writes an agent step\'s result as its answer, then its changes when there were any', () => {
    const none = { applied: [], rejected: [], failed: [] };
    assert.equal(valueText({ answer: 'All good.', changes: none }), 'All good.');
    assert.equal(
      valueText({ answer: 'Half done.', changes: { applied: [{ operation: 'write_file', path: 'a.txt' }], rejected: [{ operation: 'delete_file', path: 'b.txt', reason: 'keep it' }], failed: [] } }),
      'Half done.\n\nChanges:\napplied: write_file a.txt\nrejected: delete_file b.txt (keep it)',
    );
    assert.equal(valueText({ answer: 'x', changes: { applied: [] } }), '{"answer":"x","changes":{"applied":[]}}', 'only the full shape counts as an agent result');
    assert.equal(valueText({ answer: 1, changes: none }), '{"answer":1,"changes":{"applied":[],"rejected":[],"failed":[]}}');
  });
});
