import { compactContext, type CompactionPrefix } from '../llm/contextCompactor';
import type { ContextCompaction } from '../engine/executors/stepExecutor';
import type { RunState } from '../engine/runEvents';
import type { LlmClient } from '../ports';

interface SummaryMemory {
  summary: string;
  /** `CompactionResult.settledLength` of the last fold. */
  settledLength: number;
  folded: Set<string>;
  /** Serialises updates: steps running at once share one summary. */
  queue: Promise<unknown>;
}

const memories = new WeakMap<RunState, SummaryMemory>();

/**
 * The run's rolling context summary (docs/architecture.md §5) as a step starts: every step completed
 * since the last call is folded in, in completion order, with `compactContext` (the model
 * summarises only when the budget overflows; a deterministic fallback otherwise). Kept per
 * run state object, so it lives exactly as long as the run. Invariant: at most
 * `budgetTokens` tokens. `prefix` (the step agent's system prompt, tools and the step prompts'
 * shared start) begins each compaction request, so it shares its start with the step's requests.
 * `onCompacted` hears each fold (the engine journals it as `context_compacted`).
 */
export function rollingSummary(
  state: RunState,
  options: { llm?: LlmClient; budgetTokens: number; signal: AbortSignal; prefix?: CompactionPrefix; onCompacted?: (report: ContextCompaction) => void },
): Promise<string> {
  let memory = memories.get(state);
  if (!memory) {
    memory = { summary: '', settledLength: 0, folded: new Set(), queue: Promise.resolve() };
    memories.set(state, memory);
  }
  const current = memory;
  const update = current.queue.then(async () => {
    const titles = new Map((state.plan?.steps ?? []).map((step) => [step.id, step.title]));
    for (const [stepId, result] of Object.entries(state.results)) {
      if (current.folded.has(stepId)) continue;
      current.folded.add(stepId);
      const compacted = await compactContext(current.summary, { stepId, title: titles.get(stepId) ?? stepId, result }, {
        budgetTokens: options.budgetTokens,
        signal: options.signal,
        settledLength: current.settledLength,
        ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
        ...(state.plan ? { objective: state.plan.objective } : {}),
        ...(options.llm ? { llm: options.llm } : {}),
      });
      current.summary = compacted.summary;
      current.settledLength = compacted.settledLength;
      options.onCompacted?.({
        stepId,
        summary: compacted.summary,
        beforeTokens: compacted.beforeTokens,
        afterTokens: compacted.afterTokens,
        method: compacted.method,
      });
    }
    return current.summary;
  });
  current.queue = update.catch(() => undefined);
  return update;
}
