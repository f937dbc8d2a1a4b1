import assert from 'node:assert/strict';
import fc from 'fast-check';
import { countTokens as countO200k } from 'gpt-tokenizer';
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
      // Quadratic, 200 000 "r" would take minutes: the test's time-out fails it.
      const count = countTokens(text);
      const cut = truncateToTokens(text, 1_000, { marker: '…' });
      assert.ok(count > 1_000 && countTokens(cut) <= 1_000 && cut.endsWith('…'));
    }
  });
});

describe('tokenCount: exact where it can be, cut safely where it must be', () => {
  it('counts text with spaces, tabs and line breaks exactly as the tokenizer does, however long its lines', () => {
    const words = Array.from({ length: 400 }, (_, index) => `w${index}x`);
    for (const separator of [' ', '\t', '\n', '\r']) {
      const text = words.join(separator);
      assert.equal(countTokens(text), countO200k(text), JSON.stringify(separator));
    }
  });

  it('counts a run of more than 256 characters without a space in pieces of 256', () => {
    let seed = 7;
    const letters = Array.from({ length: 700 }, () => String.fromCharCode(97 + ((seed = (seed * 48271) % 2147483647) % 26))).join('');
    const pieces = countO200k(letters.slice(0, 256)) + countO200k(letters.slice(256, 512)) + countO200k(letters.slice(512));
    assert.notEqual(countO200k(letters), pieces, 'the example tells pieces from the whole run');
    assert.equal(countTokens(letters), pieces);
  });

  it('cuts a long run without spaces into a prefix within the limit, marking the cut', () => {
    const text = 'abcdefghij'.repeat(300);
    const cut = truncateToTokens(text, 100, { marker: '…' });
    assert.ok(cut.endsWith('…') && text.startsWith(cut.slice(0, -1)), cut.slice(0, 40));
    assert.ok(countTokens(cut) <= 100 && countTokens(cut) > 90, `${countTokens(cut)} tokens`);
    assert.ok(countTokens(text) > 500);
  });

  it('never splits an emoji where a long run is counted in pieces', () => {
    const text = `${'a'.repeat(255)}😀`.repeat(6);
    assert.equal(truncateToTokens(text, 10_000), text);
    const cut = truncateToTokens(text, 200, { marker: '' });
    assert.ok(!cut.includes('\ufffd'), 'no broken character');
    assert.ok(text.startsWith(cut));
  });

  it('fills the limit exactly when the text allows', () => {
    const text = Array.from({ length: 100 }, (_, index) => `word${index}`).join(' ');
    assert.equal(countTokens(truncateToTokens(text, 20, { marker: '' })), 20);
  });

  it('counts an image part as 85 tokens and an assistant\'s tool calls by name and arguments', () => {
    const base = countPromptTokens([{ role: 'user', content: [{ type: 'text', text: 'hello world' }] }]);
    assert.equal(base, 3 + 4 + 2);
    assert.equal(countPromptTokens([{ role: 'user', content: [{ type: 'text', text: 'hello world' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] }]), base + 85);
    const call = { id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' };
    const plain = countPromptTokens([{ role: 'assistant', content: 'hello world' }]);
    assert.equal(countPromptTokens([{ role: 'assistant', content: 'hello world', toolCalls: [call] }]), plain + countTokens(call.name) + countTokens(call.arguments));
  });
});

describe('truncateToTokens at its limits', () => {
  it('leaves a text of exactly the limit whole', () => {
    const text = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
    assert.equal(truncateToTokens(text, countTokens(text)), text);
  });

  it('drops the marker when it would take the whole limit, keeping text instead', () => {
    assert.equal(truncateToTokens('word '.repeat(50), 1), 'word');
    const tail = truncateToTokens('word '.repeat(50), 1, { keep: 'tail', marker: '[cut]' });
    assert.ok(tail !== '' && !tail.includes('[cut]') && countTokens(tail) === 1, JSON.stringify(tail));
  });
});
