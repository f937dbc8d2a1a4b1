import type { LlmClient } from '../servicePorts';
import type { LlmChatResponse, LlmSpent, LlmUsage } from './llmTypes';
import { isLlmError } from './llmError';
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

/** `value` when it is a count (finite, not negative), else 0. */
function counted(value: number): number {
  return Number.isFinite(value) && value >= 0 ? value : 0;
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
    /** What the refused call's earlier attempts spent, when a retry was what the limit refused. */
    readonly spent?: LlmSpent,
  ) {
    super(exhaustion.message);
  }
}

/** Counts a run's LLM use against its limits. */
export interface BudgetTracker {
  /**
   * Adds one completed call, and what its failed attempts spent before it (`retriedSpent`). A count that is no count
   * (negative, not finite) adds nothing but is not believed either: see `createBudgetTracker`.
   */
  record(response: Pick<LlmChatResponse, 'usage' | 'costUsd' | 'savedUsd' | 'retriedSpent'>): void;
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
 * that crosses a limit of tokens or cost completes and the next one is refused: the run pauses
 * between calls, never in the middle of one. Requests are counted before they are sent: a call
 * under way holds its request, so calls made at once (parallel steps) never pass `maxRequests`
 * together, and a client's retry (`LlmChatRequest.beforeRetry`) is sent only while what the
 * call's failed attempts spent, with everything else, is under every limit; else the call ends
 * with a `BudgetExceededError` carrying that spending (`spent`).
 * Invariants against a client or server that lies: a token count or cost that is negative or
 * not finite is counted as 0 tokens and an unknown cost, so no reply lowers what was used,
 * and a limit compared with a usage that is not a number counts as reached; a call that fails
 * still counts what its attempts spent (`LlmError.spent`), so failing calls cannot go on for free.
 */
export function createBudgetTracker(initial: BudgetLimits = {}): BudgetTracker {
  let current: BudgetLimits = { ...initial };
  const used: BudgetUsage = { ...noBudgetUsage };

  /** The calls under way: each holds the request it has out, and what its failed attempts spent so far. */
  const underWay = new Set<{ spent: LlmSpent | undefined; sending: boolean }>();

  /** What was used, with what the calls under way hold: their failed attempts, and a request for each attempt out. */
  const committed = (): BudgetUsage => {
    const total = { ...used };
    for (const call of underWay) {
      if (call.sending) total.requests += 1;
      if (call.spent === undefined) continue;
      total.requests += Math.ceil(counted(call.spent.requests));
      total.totalTokens += counted(call.spent.usage.promptTokens) + counted(call.spent.usage.completionTokens);
      total.costUsd += counted(call.spent.costUsd ?? 0);
    }
    return total;
  };

  /** The first limit `of` reaches (by default what is used and held), its message saying `why` when given. */
  const exhausted = (of: Pick<BudgetUsage, 'requests' | 'totalTokens' | 'costUsd'> = committed(), why?: string): BudgetExhaustion | undefined => {
    const checks: [BudgetLimitName, number, number | undefined, (value: number) => string][] = [
      ['requests', of.requests, current.maxRequests, (value) => `${value} LLM requests`],
      ['tokens', of.totalTokens, current.maxTokens, (value) => `${value} tokens`],
      ['cost', of.costUsd, current.maxCostUsd, shownUsd],
    ];
    for (const [limit, value, max, show] of checks) {
      // Not `value >= max`: a usage that is not a number (NaN) must reach the limit, not lift it.
      if (max !== undefined && !(value < max)) {
        return {
          limit,
          used: value,
          max,
          message: `The run's ${limit} budget is used up: ${show(value)} of ${show(max)}${why === undefined ? '' : ` (${why})`}. Continue with a higher limit, or stop.`,
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

  const add = (requests: number, usage: LlmUsage, costUsd: number | undefined, savedUsd: number | undefined): void => {
    used.requests += requests;
    used.promptTokens += counted(usage.promptTokens);
    used.completionTokens += counted(usage.completionTokens);
    used.totalTokens = used.promptTokens + used.completionTokens;
    used.cachedTokens += Math.min(counted(usage.cachedPromptTokens ?? 0), counted(usage.promptTokens));
    used.savedUsd += counted(savedUsd ?? 0);
    if (costUsd === undefined || counted(costUsd) !== costUsd) used.unpricedRequests += requests;
    else used.costUsd += costUsd;
  };
  const addSpent = (spent: LlmSpent | undefined): void => {
    if (spent !== undefined && spent.requests > 0) add(Math.ceil(counted(spent.requests)), spent.usage, spent.costUsd, undefined);
  };

  const tracker: BudgetTracker = {
    record(response) {
      addSpent(response.retriedSpent);
      add(1, response.usage, response.costUsd, response.savedUsd);
    },
    exhausted: () => exhausted(),
    usage: () => ({ ...used }),
    limits: () => ({ ...current }),
    raise(limits) {
      current = { ...current, ...limits };
    },
    seed(usage) {
      // A journal written before cached tokens were counted has no cachedTokens nor savedUsd.
      for (const key of Object.keys(used) as (keyof BudgetUsage)[]) used[key] = Math.max(used[key], counted(usage[key] ?? 0));
    },
    wrap(client) {
      return {
        model: client.model,
        ...(client.costKnown ? { costKnown: (model: string) => client.costKnown?.(model) ?? false } : {}),
        async chat(request) {
          const held = underWay.size > 0 && exhausted(used) === undefined ? 'with the model calls still under way' : undefined;
          const reached = exhausted(committed(), held) ?? uncounted(client, request.model ?? client.model);
          if (reached) throw new BudgetExceededError(reached, tracker.usage());
          // Held from here: a call made meanwhile sees this one's request as spent.
          const call: { spent: LlmSpent | undefined; sending: boolean } = { spent: undefined, sending: true };
          let refused: BudgetExhaustion | undefined;
          underWay.add(call);
          const beforeRetry = async (spent: LlmSpent): Promise<void> => {
            call.spent = spent;
            call.sending = false;
            refused = exhausted(committed(), 'a model call failed, and trying it again would pass the limit');
            if (refused) throw new BudgetExceededError(refused, tracker.usage(), spent);
            call.sending = true;
            await request.beforeRetry?.(spent);
          };
          let response: LlmChatResponse;
          try {
            response = await client.chat({ ...request, beforeRetry });
          } catch (error: unknown) {
            underWay.delete(call);
            const spent = isLlmError(error) ? error.spent : call.spent;
            addSpent(spent);
            // A retry the limit refused pauses the step like any call past it: what was used now includes its attempts.
            if (refused) throw new BudgetExceededError(refused, tracker.usage(), spent);
            throw error;
          }
          underWay.delete(call);
          tracker.record(response);
          return response;
        },
      };
    },
  };
  return tracker;
}
