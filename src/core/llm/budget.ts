import type { LlmClient } from '../servicePorts';
import type { LlmChatResponse } from './llmTypes';
import { shownUsd } from '../../shared/shownUsd';

/** Per-run limits (docs/architecture.md §5); an absent limit is unlimited. Tokens count prompt + completion. */
export interface BudgetLimits {
  maxRequests?: number;
  maxTokens?: number;
  /** US dollars. A model whose cost is not known (`LlmClient.costKnown`) is not called while this is set. */
  maxCostUsd?: number;
}

/** Which limit was reached. */
export type BudgetLimitName = 'requests' | 'tokens' | 'cost';

/** What the run has used so far. */
export interface BudgetUsage {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Of `promptTokens`, those the providers read from their prompt caches (0 when none said). */
  cachedTokens: number;
  /** USD, summed over calls whose cost was known. */
  costUsd: number;
  /** USD the cached tokens saved against the uncached input price, over calls whose price was known. */
  savedUsd: number;
  /** Calls whose cost was unknown (so `costUsd` undercounts). */
  unpricedRequests: number;
}

/** The usage of a run that made no call. */
export const noBudgetUsage: Readonly<BudgetUsage> = {
  requests: 0,
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  cachedTokens: 0,
  costUsd: 0,
  savedUsd: 0,
  unpricedRequests: 0,
};

/** A reached limit, with a message fit for the user. */
export interface BudgetExhaustion {
  limit: BudgetLimitName;
  used: number;
  max: number;
  message: string;
}

/** True for a `BudgetExceededError`, also across bundle copies (checked by name and shape). */
export function isBudgetExceededError(error: unknown): error is BudgetExceededError {
  return error instanceof BudgetExceededError || (error instanceof Error && error.name === 'BudgetExceededError' && 'exhaustion' in error);
}

/** A call refused because a limit was reached before it. */
export class BudgetExceededError extends Error {
  override readonly name = 'BudgetExceededError';

  constructor(
    readonly exhaustion: BudgetExhaustion,
    /** What the run had used when the call was refused. */
    readonly usage: BudgetUsage,
  ) {
    super(exhaustion.message);
  }
}

/** Counts a run's LLM use against its limits. */
export interface BudgetTracker {
  /** Adds one completed call. */
  record(response: Pick<LlmChatResponse, 'usage' | 'costUsd' | 'savedUsd'>): void;
  /** The first limit reached (checked in the order requests, tokens, cost), or `undefined`. */
  exhausted(): BudgetExhaustion | undefined;
  usage(): BudgetUsage;
  limits(): BudgetLimits;
  /** Raises (or sets) limits, e.g. when the user chooses "continue" after a pause. */
  raise(limits: BudgetLimits): void;
  /**
   * Counts usage recorded elsewhere (a resumed run's journal): each counter becomes the
   * larger of its value and `usage`'s, so seeding twice never double-counts.
   */
  seed(usage: Readonly<Partial<BudgetUsage>>): void;
  /** A client that refuses calls with `BudgetExceededError` once a limit is reached and records every call. */
  wrap(client: LlmClient): LlmClient;
}

/**
 * A budget tracker. A limit counts as reached when usage is at or above it, so the call
 * that crosses a limit completes and the next one is refused: the run pauses between calls,
 * never in the middle of one.
 */
export function createBudgetTracker(initial: BudgetLimits = {}): BudgetTracker {
  let current: BudgetLimits = { ...initial };
  const used: BudgetUsage = { ...noBudgetUsage };

  const exhausted = (): BudgetExhaustion | undefined => {
    const checks: [BudgetLimitName, number, number | undefined, (value: number) => string][] = [
      ['requests', used.requests, current.maxRequests, (value) => `${value} LLM requests`],
      ['tokens', used.totalTokens, current.maxTokens, (value) => `${value} tokens`],
      ['cost', used.costUsd, current.maxCostUsd, shownUsd],
    ];
    for (const [limit, value, max, show] of checks) {
      if (max !== undefined && value >= max) {
        return {
          limit,
          used: value,
          max,
          message: `The run's ${limit} budget is used up: ${show(value)} of ${show(max)}. Continue with a higher limit, or stop.`,
        };
      }
    }
    return undefined;
  };

  /**
   * The cost limit when `model`'s calls would count nothing against it (no known price): refused before the call, as a
   * repository's settings choosing an unpriced model must not lift the user's limit (an outside attack: 50 calls of
   * 2 M tokens against a $1 limit).
   */
  const uncounted = (client: LlmClient, model: string): BudgetExhaustion | undefined => {
    const max = current.maxCostUsd;
    if (max === undefined || client.costKnown?.(model) === true) return undefined;
    return {
      limit: 'cost',
      used: used.costUsd,
      max,
      message:
        `The run's cost limit of ${shownUsd(max)} cannot be kept with ${model}: its price is not known, so its calls would count nothing. ` +
        'Remove the cost limit to use it (a limit of requests or tokens still applies), or choose a model with a known price.',
    };
  };

  const tracker: BudgetTracker = {
    record(response) {
      used.requests++;
      used.promptTokens += response.usage.promptTokens;
      used.completionTokens += response.usage.completionTokens;
      used.totalTokens = used.promptTokens + used.completionTokens;
      used.cachedTokens += response.usage.cachedPromptTokens ?? 0;
      used.savedUsd += response.savedUsd ?? 0;
      if (response.costUsd === undefined) used.unpricedRequests++;
      else used.costUsd += response.costUsd;
    },
    exhausted,
    usage: () => ({ ...used }),
    limits: () => ({ ...current }),
    raise(limits) {
      current = { ...current, ...limits };
    },
    seed(usage) {
      // A journal written before cached tokens were counted has no cachedTokens nor savedUsd.
      for (const key of Object.keys(used) as (keyof BudgetUsage)[]) used[key] = Math.max(used[key], usage[key] ?? 0);
    },
    wrap(client) {
      return {
        model: client.model,
        ...(client.costKnown ? { costKnown: (model: string) => client.costKnown?.(model) ?? false } : {}),
        async chat(request) {
          const reached = exhausted() ?? uncounted(client, request.model ?? client.model);
          if (reached) throw new BudgetExceededError(reached, tracker.usage());
          const response = await client.chat(request);
          tracker.record(response);
          return response;
        },
      };
    },
  };
  return tracker;
}
