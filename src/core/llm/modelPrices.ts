import type { LlmUsage } from './llmTypes';

/** Price of a model in US dollars per one million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * Standard (non-batch, uncached) prices of well-known OpenAI models in USD per 1M tokens,
 * from OpenAI's published price list. Kept here rather than read from `gpt-tokenizer`'s
 * model data because that data (v4.0.0) is unusable for this: its CommonJS `models` entry
 * throws at load, several current models have no price there, and the prices it does give
 * for some (gpt-4o, gpt-4.1, gpt-5 at $10/$30) are not the published ones. Callers can pass
 * their own prices to `createOpenAiClient`.
 */
export const knownModelPrices: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2 },
  'gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'o3': { inputPerMillion: 2, outputPerMillion: 8 },
  'o3-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'gpt-4-turbo': { inputPerMillion: 10, outputPerMillion: 30 },
  'gpt-4': { inputPerMillion: 30, outputPerMillion: 60 },
  'gpt-3.5-turbo': { inputPerMillion: 0.5, outputPerMillion: 1.5 },
};

/**
 * The price of `model`, or `undefined` when unknown. A provider prefix (`openai/gpt-4o`)
 * and a dated snapshot suffix (`gpt-4o-2024-08-06`) are ignored; `gpt-4o-mini` never
 * matches `gpt-4o`'s price. `extra` prices take precedence.
 */
export function priceOf(model: string, extra: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | undefined {
  const bare = model.trim().toLowerCase().split('/').pop() ?? '';
  const undated = bare.replace(/-\d{4}-\d{2}-\d{2}$/, '');
  for (const name of [model, bare, undated]) {
    const price = extra[name] ?? knownModelPrices[name];
    if (price) return price;
  }
  return undefined;
}

/** Cost of one call in USD, or `undefined` when the model's price is unknown. */
export function costOf(model: string, usage: LlmUsage, extra?: Readonly<Record<string, ModelPrice>>): number | undefined {
  const price = priceOf(model, extra);
  if (!price) return undefined;
  return (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1_000_000;
}
