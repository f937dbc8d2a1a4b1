import assert from 'node:assert/strict';
import { cacheSavingOf, costOf, defaultCachedInputFraction, priceOf } from '../../../../src/core/llm/modelPrices';

describe('modelPrices', () => {
  it('knows common models, ignoring provider prefixes and snapshot dates', () => {
    assert.deepEqual(priceOf('gpt-4o'), { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 });
    assert.deepEqual(priceOf('gpt-4o-2024-08-06'), priceOf('gpt-4o'));
    assert.deepEqual(priceOf('openai/gpt-4o-mini'), { inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075 });
    assert.notDeepEqual(priceOf('gpt-4o-mini'), priceOf('gpt-4o'));
  });

  it('returns undefined for unknown models, and uses extra prices first', () => {
    assert.equal(priceOf('llama3.1:8b'), undefined);
    assert.equal(costOf('llama3.1:8b', { promptTokens: 10, completionTokens: 10 }), undefined);
    assert.equal(costOf('llama3.1:8b', { promptTokens: 1_000_000, completionTokens: 0 }, { 'llama3.1:8b': { inputPerMillion: 0, outputPerMillion: 0 } }), 0);
  });

  it('computes cost in USD from per-million prices', () => {
    assert.equal(costOf('gpt-4o', { promptTokens: 1_000_000, completionTokens: 100_000 }), 2.5 + 1);
  });

  it('bills cached prompt tokens at the cached input price, the model\'s own or half the input price, and says what that saved', () => {
    const usage = { promptTokens: 1_000_000, completionTokens: 0, cachedPromptTokens: 800_000 };
    const close = (actual: number | undefined, expected: number): void => assert.ok(Math.abs((actual ?? NaN) - expected) < 1e-12, `${actual} ≠ ${expected}`);
    close(costOf('gpt-4.1-mini', usage), 0.2 * 0.4 + 0.8 * 0.1);
    close(cacheSavingOf('gpt-4.1-mini', usage), 0.8 * (0.4 - 0.1));
    const custom = { custom: { inputPerMillion: 2, outputPerMillion: 4 } };
    assert.equal(defaultCachedInputFraction, 0.5);
    close(costOf('custom', usage, custom), 0.2 * 2 + 0.8 * 1);
    close(cacheSavingOf('custom', usage, custom), 0.8);
    assert.equal(costOf('custom', { promptTokens: 100, completionTokens: 0, cachedPromptTokens: 5_000 }, custom), (100 * 1) / 1_000_000, 'never more cached tokens than prompt tokens');
    assert.equal(cacheSavingOf('custom', { promptTokens: 10, completionTokens: 1 }, custom), 0);
    assert.equal(cacheSavingOf('unknown-model', usage), undefined);
  });

  it('reads a model name without regard to case or spaces, and ignores a date only at its end', () => {
    assert.deepEqual(priceOf(' GPT-4o '), priceOf('gpt-4o'));
    assert.equal(priceOf('gpt-4o-2024-08-06-custom'), undefined);
  });
});
