// A long scripted run's context compaction, counted: each step makes one agent request (to the scripted
// model) with the rolling summary (`rollingSummary`, as executeLlmStep uses it), then completes with a
// result of 150–450 tokens. Shared by the compaction unit test and bench, so both count the same run.
import { rollingSummary } from '../../src/core/engine/executors/rollingSummary';
import type { ContextCompaction } from '../../src/core/engine/executors/stepExecutor';
import { initialRunState } from '../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../src/core/engine/runEvents';
import type { LlmChatRequest } from '../../src/core/llm/llmTypes';
import { truncateToTokens } from '../../src/core/llm/tokenCount';
import { scriptedLlm } from '../fakes/scriptedLlm';
import { makePlan, makeStep } from './randomPlans';

/**
 * How the scripted model answers compaction requests: `honest` condenses into at most the `maxTokens` it is
 * given (as a real model stops there); `rambling` ignores it and answers far over the summary budget;
 * `none` means the run has no model for compaction (the fallback only).
 */
export type CompactionModel = 'honest' | 'rambling' | 'none';

/** What a counted run made and did. */
export interface CompactionCount {
  steps: number;
  agentRequests: number;
  compactionRequests: number;
  /** Compactions whose model summary was used (`method: 'llm'`). */
  usedSummaries: number;
  /** Compactions that asked the model and dropped its summary, saying why (`fallbackReason`). */
  droppedWithReason: number;
  /** Compactions that ran without the model. */
  fallbacks: number;
  largestSummaryTokens: number;
  /** Summary tokens right after each compaction that was not an append, largest. */
  largestCompactedTokens: number;
  /** For each compaction that was not an append, in order: whether it asked the model. */
  askedModel: boolean[];
}

/** A deterministic result of about 150–450 tokens, different per step. */
export function stepResult(index: number): string {
  const sentences = 10 + ((index * 37) % 20);
  return Array.from(
    { length: sentences },
    (_, n) => `In step ${index + 1} the agent inspected src/module${(index + n) % 23}/part${n}.ts and found ${n * 3 + index} references.`,
  ).join(' ');
}

/** The honest model's condensation: the ids and titles of the notes, newest kept, within `maxTokens`. */
function honestSummary(request: LlmChatRequest): string {
  const user = String(request.messages[request.messages.length - 1]?.content ?? '');
  const notes = user.slice(user.indexOf('## What happened so far'), user.indexOf('## Task')).split('\n');
  const ids = notes.map((line) => /^\[([^\]]+)\]/.exec(line)?.[1]).filter((id): id is string => id !== undefined);
  return truncateToTokens(`Done so far: ${ids.join(', ')}; modules inspected, references counted.`, request.maxTokens ?? 100, { keep: 'tail', marker: '…' });
}

/** Runs `steps` steps with a rolling summary of `budgetTokens` and counts requests and compactions. */
export async function countCompactionRun(steps: number, budgetTokens: number, model: CompactionModel): Promise<CompactionCount> {
  const llm = scriptedLlm([
    (request) => {
      if (request.maxTokens === undefined) return 'done';
      return model === 'honest' ? honestSummary(request) : 'The notes say many things. '.repeat(budgetTokens);
    },
  ]);
  const ids = Array.from({ length: steps }, (_, index) => `S${String(index + 1).padStart(4, '0')}`);
  const plan = makePlan(ids.map((id, index) => makeStep(id, { title: `Analyse part ${index + 1}` })), { objective: 'Audit every module.' });
  const state: RunState = { ...initialRunState('bench-run'), plan, results: {} };
  const reports: ContextCompaction[] = [];
  const signal = new AbortController().signal;
  let agentRequests = 0;
  for (const [index, id] of ids.entries()) {
    const summary = await rollingSummary(state, {
      budgetTokens,
      signal,
      onCompacted: (report) => reports.push(report),
      ...(model === 'none' ? {} : { llm }),
    });
    // The agent's request: no `maxTokens`, which is how the scripted model tells it from a compaction request.
    await llm.chat({ signal, messages: [{ role: 'user', content: `${summary}\n\nDo ${id}.` }] });
    agentRequests++;
    state.results[id] = stepResult(index);
  }
  const compacted = reports.filter((report) => report.method !== 'append');
  return {
    steps,
    agentRequests,
    compactionRequests: llm.requests.length - agentRequests,
    usedSummaries: reports.filter((report) => report.method === 'llm').length,
    droppedWithReason: reports.filter((report) => report.fallbackReason !== undefined).length,
    fallbacks: reports.filter((report) => report.method === 'fallback' && report.fallbackReason === undefined).length,
    largestSummaryTokens: Math.max(0, ...reports.map((report) => report.afterTokens)),
    largestCompactedTokens: Math.max(0, ...compacted.map((report) => report.afterTokens)),
    askedModel: compacted.map((report) => report.method === 'llm' || report.fallbackReason !== undefined),
  };
}
