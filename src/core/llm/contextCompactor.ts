import type { Plan, Step } from '../plan/planSchema';
import type { LlmClient } from '../ports';
import type { LlmUsage } from './llmTypes';
import { countTokens, truncateToTokens } from './tokenCount';
import { valueText } from '../text/valueText';
import { errorMessage } from '../../shared/errorMessage';

/** A completed step as the compactor records it. */
export interface CompletedStepFact {
  stepId: string;
  title: string;
  result: unknown;
}

/** Options of `compactContext`. */
export interface CompactContextOptions {
  /** Most tokens the summary may have (default 1 000). */
  budgetTokens?: number;
  /** Summarises with the model when the summary outgrows its budget; without one, the fallback is used. */
  llm?: LlmClient;
  signal: AbortSignal;
  /** The run's objective, so the model knows what to keep. */
  objective?: string;
}

/** The new summary and what compaction did (for the `context_compacted` event). */
export interface CompactionResult {
  summary: string;
  /** Tokens of previous summary + new fact before compaction. */
  beforeTokens: number;
  afterTokens: number;
  /** `append`: it fit as it was; `llm`: the model summarised; `fallback`: cut by tokens keeping the newest facts. */
  method: 'append' | 'llm' | 'fallback';
  usage?: LlmUsage;
  costUsd?: number;
  /** Why the model's summary was not used, when the fallback ran although a model was given. */
  fallbackReason?: string;
}

const defaultSummaryBudget = 1_000;

/**
 * Updates the rolling context summary after a step completed (docs/architecture.md §5). The fact line
 * (`[id] title: result`, the result cut to a quarter of the budget) is appended; when that
 * exceeds `budgetTokens`, the model rewrites the summary into about 3/4 of the budget; when
 * there is no model, it fails, or its summary is still too long, a deterministic fallback
 * keeps the newest lines that fit (the newest line alone is cut by tokens if it must be).
 * Invariant: `countTokens(result.summary) <= budgetTokens`.
 */
export async function compactContext(previousSummary: string, fact: CompletedStepFact, options: CompactContextOptions): Promise<CompactionResult> {
  const budget = Math.max(16, options.budgetTokens ?? defaultSummaryBudget);
  const line = `[${fact.stepId}] ${fact.title}: ${truncateToTokens(resultText(fact.result).replace(/\s+/g, ' ').trim(), Math.floor(budget / 4), { marker: ' …' })}`;
  const combined = previousSummary.trim() === '' ? line : `${previousSummary.trim()}\n${line}`;
  const beforeTokens = countTokens(combined);
  if (beforeTokens <= budget) return { summary: combined, beforeTokens, afterTokens: beforeTokens, method: 'append' };

  let fallbackReason: string | undefined;
  if (options.llm) {
    try {
      const response = await options.llm.chat({
        signal: options.signal,
        maxTokens: Math.floor(budget * 0.75),
        messages: [
          {
            role: 'system',
            content: `You maintain the working memory of an agent executing a plan${options.objective ? ` for: ${options.objective}` : ''}. Rewrite the notes below into at most ${Math.floor(budget * 0.75)} tokens. Keep facts later steps need: decisions, file paths, names, numbers, errors and open questions; newer facts matter more than older ones. Plain text lines, no preamble.`,
          },
          { role: 'user', content: combined },
        ],
      });
      const summary = response.text.trim();
      const afterTokens = countTokens(summary);
      if (summary !== '' && afterTokens <= budget) {
        return {
          summary,
          beforeTokens,
          afterTokens,
          method: 'llm',
          usage: response.usage,
          ...(response.costUsd === undefined ? {} : { costUsd: response.costUsd }),
        };
      }
      fallbackReason = summary === '' ? 'the model returned an empty summary' : `the model's summary had ${afterTokens} tokens, over the budget of ${budget}`;
    } catch (error: unknown) {
      if (options.signal.aborted) throw error;
      fallbackReason = `the model could not summarise (${errorMessage(error)})`;
    }
  }
  const summary = keepNewest(combined, budget);
  return { summary, beforeTokens, afterTokens: countTokens(summary), method: 'fallback', ...(fallbackReason ? { fallbackReason } : {}) };
}

/** The newest lines of `text` that fit in `budget` tokens, oldest first; never empty when `text` is not. */
function keepNewest(text: string, budget: number): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let used = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] ?? '';
    const cost = countTokens(line) + (kept.length > 0 ? 1 : 0);
    if (used + cost > budget) {
      if (kept.length === 0) kept.push(truncateToTokens(line, budget, { marker: ' …' }));
      break;
    }
    kept.unshift(line);
    used += cost;
  }
  // Joining lines can merge tokens differently: re-check and trim the oldest lines if needed.
  while (kept.length > 1 && countTokens(kept.join('\n')) > budget) kept.shift();
  return kept.join('\n');
}

/** Token limits of each part of a step prompt. */
export interface StepPromptBudget {
  objective: number;
  outline: number;
  summary: number;
  dependencies: number;
  input: number;
}

/** Defaults: about 5 400 tokens at most, whatever the plan's length. */
export const defaultStepPromptBudget: Readonly<StepPromptBudget> = { objective: 300, outline: 600, summary: 1_000, dependencies: 2_000, input: 1_500 };

/** What a step agent's prompt is built from. */
export interface StepPromptInput {
  objective: string;
  plan: Pick<Plan, 'steps'>;
  /** Status per step id (`pending` when absent). */
  statuses: Readonly<Record<string, string>>;
  summary: string;
  step: Pick<Step, 'id' | 'title' | 'dependsOn'>;
  /** Results of the step's direct dependencies, by id. */
  depends: Readonly<Record<string, unknown>>;
  /** The step's resolved input. */
  input: string;
  budget?: Partial<StepPromptBudget>;
}

/** The parts of a step prompt, each already within its budget, and the joined text. */
export interface StepPrompt {
  objective: string;
  outline: string;
  summary: string;
  dependencies: string;
  input: string;
  text: string;
  tokens: number;
}

/**
 * A step agent's prompt (docs/architecture.md §5): objective, plan outline with statuses, rolling
 * summary, the direct dependencies' results (each cut by tokens to an equal share) and the
 * input. Every part is cut to its budget, so `tokens` stays under the sum of the budgets
 * plus a few heading tokens however long the plan is. The outline puts status counts first,
 * then the step itself, its dependencies and dependents, then the nearest steps, in plan order.
 */
export function buildStepPrompt(input: StepPromptInput): StepPrompt {
  const budget = { ...defaultStepPromptBudget, ...input.budget };
  const objective = truncateToTokens(input.objective.trim(), budget.objective, { marker: ' …' });
  const outline = renderOutline(input, budget.outline);
  const summary = truncateToTokens(input.summary.trim(), budget.summary, { keep: 'tail', marker: '… ' });
  const dependencies = renderDependencies(input.step.dependsOn, input.depends, budget.dependencies);
  const stepInput = truncateToTokens(input.input.trim(), budget.input, { marker: '\n… (input cut)' });
  const sections = [
    `## Objective\n${objective}`,
    `## Plan\n${outline}`,
    ...(summary === '' ? [] : [`## What happened so far\n${summary}`]),
    ...(dependencies === '' ? [] : [`## Results of the steps this one depends on\n${dependencies}`]),
    `## Your step: ${input.step.id}\n${stepInput}`,
  ];
  const text = sections.join('\n\n');
  return { objective, outline, summary, dependencies, input: stepInput, text, tokens: countTokens(text) };
}

function renderOutline(input: StepPromptInput, budget: number): string {
  const steps = input.plan.steps;
  const statusOf = (id: string): string => input.statuses[id] ?? 'pending';
  const counts = new Map<string, number>();
  for (const step of steps) counts.set(statusOf(step.id), (counts.get(statusOf(step.id)) ?? 0) + 1);
  const header = `${steps.length} steps: ${[...counts].map(([status, count]) => `${count} ${status}`).join(', ')}`;
  const position = steps.findIndex((step) => step.id === input.step.id);
  const related = new Set([input.step.id, ...input.step.dependsOn, ...steps.filter((step) => step.dependsOn.includes(input.step.id)).map((step) => step.id)]);
  const byPriority = steps
    .map((step, index) => ({ step, index, rank: related.has(step.id) ? 0 : 1, distance: Math.abs(index - position) }))
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.index - b.index);
  const line = (step: Pick<Step, 'id' | 'title'>): string =>
    `${step.id === input.step.id ? '→ ' : '- '}${step.id} [${statusOf(step.id)}] ${truncateToTokens(step.title, 24, { marker: '…' })}`;
  let used = countTokens(header) + 12;
  const chosen = new Set<number>();
  for (const entry of byPriority) {
    const cost = countTokens(line(entry.step)) + 1;
    if (used + cost > budget) break;
    used += cost;
    chosen.add(entry.index);
  }
  const lines = steps.flatMap((step, index) => (chosen.has(index) ? [line(step)] : []));
  const omitted = steps.length - chosen.size;
  const text = [header, ...lines, ...(omitted > 0 ? [`(${omitted} more steps not shown)`] : [])].join('\n');
  return truncateToTokens(text, budget, { marker: '…' });
}

function renderDependencies(ids: readonly string[], depends: Readonly<Record<string, unknown>>, budget: number): string {
  if (ids.length === 0) return '';
  const share = Math.floor(budget / ids.length);
  const blocks = ids.map((id) => {
    const heading = `### ${id}`;
    if (!Object.hasOwn(depends, id)) return `${heading}\n(no result)`;
    return `${heading}\n${truncateToTokens(resultText(depends[id]), Math.max(0, share - countTokens(heading) - 2), { marker: '\n… (result cut)' })}`;
  });
  return truncateToTokens(blocks.join('\n'), budget, { marker: '\n… (more results cut)' });
}

function resultText(result: unknown): string {
  return result === undefined ? '(no result)' : valueText(result);
}
