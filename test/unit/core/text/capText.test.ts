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

  it('keeps text of exactly the cap, fills the cap exactly when cutting, and steps back before a surrogate pair', () => {
    assert.equal(capText('abc', 3), 'abc');
    assert.equal(capText('a'.repeat(100), 40), `${'a'.repeat(14)}… (86 more characters cut)`);
    assert.equal(capText(`${'a'.repeat(13)}😀${'a'.repeat(85)}`, 40), `${'a'.repeat(13)}… (87 more characters cut)`);
    assert.equal(capText('a'.repeat(100), 5), '… (100 more characters cut)');
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
  it('keeps a "__proto__" field of parsed JSON a field when it cuts the value, setting no prototype', () => {
    const parsed = JSON.parse(`{"__proto__": {"polluted": true}, "text": "${'x'.repeat(5_000)}"}`) as Record<string, unknown>;
    const capped = capValue(parsed, 1_000) as Record<string, unknown>;
    assert.ok(Object.hasOwn(capped, '__proto__'));
    assert.equal(Object.getPrototypeOf(capped), Object.prototype);
    assert.equal(capped['polluted'], undefined);
    assert.ok(JSON.stringify(capped).includes('"__proto__":{"polluted":true}'));
  });

  it('returns a value that fits unchanged, and keeps the shape of one that does not', () => {
    const small = { a: [1, 2], b: 'x' };
    assert.equal(capValue(small, 1_000), small);
    const big = { content: 'y'.repeat(10_000), matches: Array.from({ length: 1_000 }, (_, index) => ({ line: index, text: 'z'.repeat(50) })) };
    const capped = capValue(big, 2_000) as { content: string; matches: unknown[] };
    assert.match(capped.content, /more characters cut\)$/);
    assert.match(String(capped.matches.at(-1)), /^… \(\d+ more items cut\)$/);
    assert.ok(JSON.stringify(capped).length < 4_000, `${JSON.stringify(capped).length} characters`);
  });

  it('returns a value that exactly fits, a value JSON cannot show and undefined as they are', () => {
    const fits = { a: 'xy' };
    assert.equal(capValue(fits, JSON.stringify(fits).length), fits);
    const cyclic: Record<string, unknown> = { text: 'z'.repeat(100) };
    cyclic.self = cyclic;
    assert.equal(capValue(cyclic, 10), cyclic);
    assert.equal(capValue(undefined, 0), undefined);
  });

  it('cuts a string alone to the cap', () => {
    assert.equal(capValue('x'.repeat(100), 50), capText('x'.repeat(100), 50));
  });

  it('gives each string at most half of what is left, after the keys and the other values', () => {
    const halves = capValue({ a: 'x'.repeat(1_000), b: 'y'.repeat(1_000) }, 300) as Record<string, string>;
    assert.deepEqual([halves.a?.length, halves.b?.length], [147, 70]);
    assert.deepEqual(capValue({ n: 12345, t: true, z: null, s: 'x'.repeat(1_000) }, 200), { n: 12345, t: true, z: null, s: `${'x'.repeat(56)}… (944 more characters cut)` });
  });

  it('replaces the items and fields after the budget is spent by one marker', () => {
    assert.deepEqual(capValue(['a'.repeat(100), 'b'.repeat(100), 'c'.repeat(100), 'd', 'e'], 150), [
      `${'a'.repeat(49)}… (51 more characters cut)`,
      `${'b'.repeat(38)}… (62 more characters cut)`,
      `${'c'.repeat(38)}… (62 more characters cut)`,
      '… (2 more items cut)',
    ]);
    assert.deepEqual(capValue({ a: 'a'.repeat(100), b: 'b'.repeat(100), c: 'c'.repeat(100), d: 'd', e: 'e' }, 150), {
      a: `${'a'.repeat(46)}… (54 more characters cut)`,
      b: `${'b'.repeat(38)}… (62 more characters cut)`,
      '…': '3 more fields cut',
    });
  });
});
