import assert from 'node:assert/strict';
import { costOf, priceOf } from '../../../../src/core/llm/modelPrices';

describe('modelPrices', () => {
  it('knows common models, ignoring provider prefixes and snapshot dates', () => {
    assert.deepEqual(priceOf('gpt-4o'), { inputPerMillion: 2.5, outputPerMillion: 10 });
    assert.deepEqual(priceOf('gpt-4o-2024-08-06'), priceOf('gpt-4o'));
    assert.deepEqual(priceOf('openai/gpt-4o-mini'), { inputPerMillion: 0.15, outputPerMillion: 0.6 });
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

  it('reads a model name without regard to case or spaces, and ignores a date only at its end', () => {
    assert.deepEqual(priceOf(' GPT-4o '), priceOf('gpt-4o'));
    assert.equal(priceOf('gpt-4o-2024-08-06-custom'), undefined);
  });
});
