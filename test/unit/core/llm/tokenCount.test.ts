import assert from 'node:assert/strict';
import fc from 'fast-check';
import { countPromptTokens, countTokens, truncateToTokens } from '../../../../src/core/llm/tokenCount';

describe('tokenCount', () => {
  it('counts tokens with o200k_base', () => {
    assert.equal(countTokens(''), 0);
    assert.equal(countTokens('hello world'), 2);
  });

  it('counts a prompt with message overhead and tools', () => {
    const plain = countPromptTokens([{ role: 'user', content: 'hello world' }]);
    assert.equal(plain, 3 + 4 + 2);
    assert.ok(countPromptTokens([{ role: 'user', content: 'hello world' }], [{ name: 't', description: 'd', parameters: {} }]) > plain);
  });

  it('truncates to at most the limit, keeping head or tail, and leaves short text alone', () => {
    const text = Array.from({ length: 500 }, (_, index) => `word${index}`).join(' ');
    assert.equal(truncateToTokens('short', 10), 'short');
    const head = truncateToTokens(text, 50);
    assert.ok(head.startsWith('word0 word1') && head.endsWith('…'));
    const tail = truncateToTokens(text, 50, { keep: 'tail', marker: '[cut] ' });
    assert.ok(tail.startsWith('[cut] ') && tail.endsWith('word499'));
    assert.equal(truncateToTokens(text, 0), '');
  });

  it('never exceeds the limit, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 1, max: 60 }), fc.constantFrom<'head' | 'tail'>('head', 'tail'), (text, limit, keep) => {
        assert.ok(countTokens(truncateToTokens(text, limit, { keep })) <= limit);
      }),
      { numRuns: 200 },
    );
  });
});

describe('token counts of hostile text', () => {
  it('count and cut long runs without spaces in linear time (the tokenizer alone is quadratic in them: 40 000 "r" took 7.5 s)', () => {
    let seed = 7;
    const letters = Array.from({ length: 40_000 }, () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26))).join('');
    for (const text of ['r'.repeat(200_000), letters]) {
      const began = performance.now();
      const count = countTokens(text);
      const cut = truncateToTokens(text, 1_000, { marker: '…' });
      assert.ok(count > 1_000 && countTokens(cut) <= 1_000 && cut.endsWith('…'));
      assert.ok(performance.now() - began < 3_000, `took ${Math.round(performance.now() - began)} ms`);
    }
  });
});
