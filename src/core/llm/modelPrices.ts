import type { LlmUsage } from './llmTypes';

/** Price of a model in US dollars per one million tokens. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Input tokens read from the provider's prompt cache; `defaultCachedInputFraction` of `inputPerMillion` when absent. */
  cachedInputPerMillion?: number;
}

/**
 * The share of the input price a cached input token costs when a model's cached price is
 * not known: 50 %, the discount OpenAI gave when it introduced automatic prompt caching
 * (October 2024, "Prompt Caching in the API"), the least generous of the common providers
 * (OpenAI's newer models 10–25 %, DeepSeek about 10 %, Anthropic's cache reads 10 %), so
 * estimated savings err low.
 */
export const defaultCachedInputFraction = 0.5;

/**
 * Standard (non-batch) prices of well-known OpenAI models in USD per 1M tokens, from
 * OpenAI's published price list (platform.openai.com/docs/pricing), with the cached input
 * price it lists for the models that cache prompts. Kept here rather than read from `gpt-tokenizer`'s
 * model data because that data (v4.0.0) is unusable for this: its CommonJS `models` entry
 * throws at load, several current models have no price there, and the prices it does give
 * for some (gpt-4o, gpt-4.1, gpt-5 at $10/$30) are not the published ones. Callers can pass
 * their own prices to `createOpenAiClient`.
 */
export const knownModelPrices: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { inputPerMillion: 1.25, outputPerMillion: 10, cachedInputPerMillion: 0.125 },
  'gpt-5-mini': { inputPerMillion: 0.25, outputPerMillion: 2, cachedInputPerMillion: 0.025 },
  'gpt-5-nano': { inputPerMillion: 0.05, outputPerMillion: 0.4, cachedInputPerMillion: 0.005 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075 },
  'o3': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'o3-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4, cachedInputPerMillion: 0.55 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4, cachedInputPerMillion: 0.275 },
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

/** Price of one cached input token per million, in USD: the model's own, else `defaultCachedInputFraction` of its input price. */
function cachedInputPrice(price: ModelPrice): number {
  return price.cachedInputPerMillion ?? price.inputPerMillion * defaultCachedInputFraction;
}

/**
 * Cost of one call in USD, or `undefined` when the model's price is unknown. The cached
 * prompt tokens (`usage.cachedPromptTokens`, part of `promptTokens`) are billed at the
 * cached input price, the rest at the input price.
 */
export function costOf(model: string, usage: LlmUsage, extra?: Readonly<Record<string, ModelPrice>>): number | undefined {
  const price = priceOf(model, extra);
  if (!price) return undefined;
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  const input = (usage.promptTokens - cached) * price.inputPerMillion + cached * cachedInputPrice(price);
  return (input + usage.completionTokens * price.outputPerMillion) / 1_000_000;
}

/** USD the call's cached prompt tokens saved against the uncached input price, or `undefined` when the model's price is unknown. */
export function cacheSavingOf(model: string, usage: LlmUsage, extra?: Readonly<Record<string, ModelPrice>>): number | undefined {
  const price = priceOf(model, extra);
  if (!price) return undefined;
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  return (cached * (price.inputPerMillion - cachedInputPrice(price))) / 1_000_000;
}
