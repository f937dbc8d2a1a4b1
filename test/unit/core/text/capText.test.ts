import assert from 'node:assert/strict';
import fc from 'fast-check';
import { capText, capValue } from '../../../../src/core/text/capText';

describe('capText', () => {
  it('keeps short text and cuts long text to the cap with a marker counting what was cut', () => {
    assert.equal(capText('short', 10), 'short');
    const cut = capText('x'.repeat(1_000), 100);
    assert.equal(cut.length, 100);
    assert.match(cut, /^x+… \((\d+) more characters cut\)$/);
    assert.equal(Number(/\((\d+) more/.exec(cut)?.[1]) + cut.indexOf('…'), 1_000);
  });

  it('never exceeds the cap (over 30) nor splits a surrogate pair (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 30, max: 300 }), (text, max) => {
        const cut = capText(text, max);
        assert.ok(cut.length <= max || cut === text);
        const kept = cut === text ? text : cut.slice(0, cut.lastIndexOf('… ('));
        assert.ok(text.startsWith(kept));
        assert.ok(!/[\uD800-\uDBFF]$/.test(kept));
      }),
    );
  });
});

describe('capValue', () => {
  it('returns a value that fits unchanged, and keeps the shape of one that does not', () => {
    const small = { a: [1, 2], b: 'x' };
    assert.equal(capValue(small, 1_000), small);
    const big = { content: 'y'.repeat(10_000), matches: Array.from({ length: 1_000 }, (_, index) => ({ line: index, text: 'z'.repeat(50) })) };
    const capped = capValue(big, 2_000) as { content: string; matches: unknown[] };
    assert.match(capped.content, /more characters cut\)$/);
    assert.match(String(capped.matches.at(-1)), /^… \(\d+ more items cut\)$/);
    assert.ok(JSON.stringify(capped).length < 4_000, `${JSON.stringify(capped).length} characters`);
  });
});
