import type { BudgetLimits, BudgetUsage } from '../llm/budget';
import type { EstimateRange, KindEstimate, RunEstimate } from './estimateRun';
import { shownUsd } from '../../shared/shownUsd';

const kindNames: Readonly<Record<KindEstimate['kind'], string>> = {
  agent: 'agent steps',
  synthesis_gate: 'summaries',
  tool: 'tool steps',
  human_review: 'your reviews',
  clarification: 'questions',
  manual: 'your steps',
  review: 'model reviews',
  // "summary compactions" read as internals (a trial): the calls that shorten a long run's history for the model.
  compaction: 'shortening of the run history',
};

/** A token count for people: `850`, `12k`, `1.2M`. */
export function shownTokens(tokens: number): string {
  if (tokens < 1_000) return String(Math.round(tokens));
  if (tokens < 1_000_000) return `${tokens < 10_000 ? (tokens / 1_000).toFixed(1).replace(/\.0$/, '') : Math.round(tokens / 1_000)}k`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** A duration for people: `40 s`, `3 min`, `1 h 20 min`. */
export function shownDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function span(value: EstimateRange, show: (n: number) => string): string {
  const low = show(value.low);
  const high = show(value.high);
  return low === high ? low : `${low}–${high}`;
}

/** The cost part of an estimate: a range in dollars, or "cost unknown" naming the models without a price (never $0). */
export function shownCost(estimate: Pick<RunEstimate, 'costUsd' | 'unpricedModels'>): string {
  if (estimate.costUsd !== undefined) return span(estimate.costUsd, shownUsd);
  return `cost unknown (no price for ${estimate.unpricedModels.join(', ')})`;
}

/**
 * The estimate in plain lines, the same in the review panel, the chat and the command line:
 * the whole run first, then one line per kind of work that asks a model.
 */
export function estimateLines(estimate: RunEstimate): string[] {
  if (estimate.requests.high === 0) {
    return [`Estimate: no model requests; about ${span(estimate.durationMs, shownDuration)}${estimate.personSteps > 0 ? ', plus your own steps' : ''}.`];
  }
  const lines = [
    `Estimate: ${span(estimate.requests, String)} model requests, ${span(estimate.tokens, shownTokens)} tokens (typically ${shownTokens(estimate.tokens.typical)}), ` +
      `${shownCost(estimate)}, ${span(estimate.durationMs, shownDuration)}${estimate.personSteps > 0 ? ' plus your own steps' : ''}.`,
  ];
  const asking = estimate.kinds.filter((kind) => kind.requests.high > 0);
  // With no price for any of them (a local model), the first line said "cost unknown" once; each kind saying it again
  // read as noise to a newcomer. With some priced, each says its own.
  const priced = asking.some((kind) => kind.costUsd !== undefined);
  for (const kind of asking) {
    const cost = !priced ? '' : `, ${kind.costUsd === undefined ? 'cost unknown' : span(kind.costUsd, shownUsd)}`;
    lines.push(`  ${kindNames[kind.kind]} (${kind.count}): ${span(kind.requests, String)} requests, ${span(kind.tokens, shownTokens)} tokens${cost}`);
  }
  return lines;
}

/**
 * The run's budget from its estimate ("stop at $0.40"): the high end of the cost, rounded
 * up to the cent, when the cost is known; else the high end of the tokens. `undefined`
 * when the run asks no model.
 */
export function budgetFromEstimate(estimate: RunEstimate): BudgetLimits | undefined {
  if (estimate.requests.high === 0) return undefined;
  if (estimate.costUsd !== undefined && estimate.costUsd.high > 0) return { maxCostUsd: Math.ceil(estimate.costUsd.high * 100) / 100 };
  return { maxTokens: Math.max(1, Math.ceil(estimate.tokens.high)) };
}

/** The summary's "estimate against actual" line: tokens, requests and cost the run used beside what was expected. */
export function estimateAgainstActual(estimate: RunEstimate, used: Pick<BudgetUsage, 'requests' | 'totalTokens' | 'costUsd' | 'unpricedRequests'>): string {
  const usedTokens = `Used ${used.requests} model request${used.requests === 1 ? '' : 's'}, ${shownTokens(used.totalTokens)} tokens`;
  const estimated = `estimated ${span(estimate.requests, String)} requests, ${span(estimate.tokens, shownTokens)} tokens (typically ${shownTokens(estimate.tokens.typical)})`;
  // Neither priced (a local model): "cost unknown" once, at the end, not once for each side.
  if (used.unpricedRequests > 0 && estimate.costUsd === undefined) return `${usedTokens}; ${estimated}; ${shownCost(estimate)}.`;
  const cost = used.unpricedRequests > 0 ? 'cost unknown' : shownUsd(used.costUsd);
  return `${usedTokens}, ${cost}; ${estimated}, ${shownCost(estimate)}.`;
}
