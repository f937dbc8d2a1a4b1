import { compactContext, type CompactionPrefix } from '../../llm/contextCompactor';
import type { ContextCompaction } from './stepExecutor';
import type { RunState } from '../runEvents';
import type { LlmClient } from '../../servicePorts';

interface SummaryMemory {
  summary: string;
  /** `CompactionResult.settledLength` of the last fold. */
  settledLength: number;
  folded: Set<string>;
  /** Compactions left that run without the model, after it gave an unusable summary. */
  modelPausedFor: number;
  /** How many compactions the next unusable model summary pauses the model for (doubles each time, up to `longestPause`). */
  nextPause: number;
  /** Serialises updates: steps running at once share one summary. */
  queue: Promise<unknown>;
}

const memories = new WeakMap<RunState, SummaryMemory>();
const longestPause = 16;

/** After an unusable model summary, the next compactions run without the model (1, then 2, 4 … up to 16 of them); a usable one ends that. */
function notePause(memory: SummaryMemory, fallbackReason: string | undefined, hasModel: boolean): void {
  if (!hasModel) return;
  if (memory.modelPausedFor > 0) memory.modelPausedFor--;
  else if (fallbackReason !== undefined) {
    memory.modelPausedFor = memory.nextPause;
    memory.nextPause = Math.min(longestPause, memory.nextPause * 2);
  } else memory.nextPause = 1;
}

/**
 * The run's rolling context summary (docs/architecture.md §5) as a step starts: every step completed
 * since the last call is folded in, in completion order, with `compactContext` (the model
 * summarises only when the budget overflows; a deterministic fallback otherwise). When the model's
 * summary is unusable (the report's `fallbackReason` says why), the next compactions do not ask it
 * (1, then 2, 4 … up to 16 of them, until it gives a usable one), so no request is paid for again at once. Kept per
 * run state object, so it lives exactly as long as the run. Invariant: at most
 * `budgetTokens` tokens. `prefix` (the step agent's system prompt, tools and the step prompts'
 * shared start) begins each compaction request, so it shares its start with the step's requests.
 * `onCompacted` hears each fold (the engine journals it as `context_compacted`).
 */
export function rollingSummary(
  state: RunState,
  options: {
    llm?: LlmClient;
    budgetTokens: number;
    signal: AbortSignal;
    prefix?: CompactionPrefix;
    onCompacted?: (report: ContextCompaction) => void;
    /** A step's result as its fact gives it (the tool's own text form); the value as it is without one. */
    resultText?: (stepId: string, value: unknown) => unknown;
  },
): Promise<string> {
  let memory = memories.get(state);
  if (!memory) {
    memory = { summary: '', settledLength: 0, folded: new Set(), modelPausedFor: 0, nextPause: 1, queue: Promise.resolve() };
    memories.set(state, memory);
  }
  const current = memory;
  const update = current.queue.then(async () => {
    const titles = new Map((state.plan?.steps ?? []).map((step) => [step.id, step.title]));
    for (const stepId in state.results) {
      if (current.folded.has(stepId)) continue;
      current.folded.add(stepId);
      const result = options.resultText === undefined ? state.results[stepId] : options.resultText(stepId, state.results[stepId]);
      const compacted = await compactContext(current.summary, { stepId, title: titles.get(stepId) ?? stepId, result }, {
        budgetTokens: options.budgetTokens,
        signal: options.signal,
        settledLength: current.settledLength,
        ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
        ...(state.plan ? { objective: state.plan.objective } : {}),
        ...(options.llm && current.modelPausedFor === 0 ? { llm: options.llm } : {}),
      });
      if (compacted.method !== 'append') notePause(current, compacted.fallbackReason, options.llm !== undefined);
      current.summary = compacted.summary;
      current.settledLength = compacted.settledLength;
      options.onCompacted?.({
        stepId,
        summary: compacted.summary,
        beforeTokens: compacted.beforeTokens,
        afterTokens: compacted.afterTokens,
        method: compacted.method,
        ...(compacted.fallbackReason === undefined ? {} : { fallbackReason: compacted.fallbackReason }),
      });
    }
    return current.summary;
  });
  current.queue = update.catch(() => undefined);
  return update;
}
