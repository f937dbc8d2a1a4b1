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
