// Prompt caching on scripted agent runs (issue 16): a 12-step and a 100-step plan run with
// the default agent (every built-in tool) against a scripted model on a memory workspace;
// each step reads one file, then answers with a long result, so the rolling summary
// overflows and is compacted by the model. Every request is read as the provider sees it
// (tool definitions, then the messages) and measured, in tokens (gpt-tokenizer), by the
// longest start it shares with any earlier request of the run: the part a provider's
// prompt cache can serve. Printed: that share over the first requests of steps (the run's
// very first request excepted: nothing came before it) and over those right after a
// compaction; the requests over 1,024 tokens that share less than 1,024 (OpenAI caches
// nothing below that); and the estimated cost with and without caching, at gpt-4.1-mini's
// prices, counting cached tokens as OpenAI does (from 1,024 tokens, in steps of 128).
import { runPlan } from '../../src/core/engine/runPlan';
import type { LlmChatRequest } from '../../src/core/llm/llmTypes';
import { knownModelPrices } from '../../src/core/llm/modelPrices';
import { countTokens } from '../../src/core/llm/tokenCount';
import type { LlmClient } from '../../src/core/servicePorts';
import { builtinTools } from '../../src/core/tools/builtinTools';
import { createMemoryWorkspace } from '../fakes/memoryWorkspace';
import { ManualClock } from '../fakes/manualClock';
import { scriptedLlm } from '../fakes/scriptedLlm';
import { commonPrefixLength, requestText } from '../support/promptPrefix';
import { makePlan, makeStep } from '../support/randomPlans';
import { checkTarget } from './benchTargets';

const pricedModel = 'gpt-4.1-mini';
const minimumCached = 1_024;
const cacheIncrement = 128;

interface SentRequest {
  kind: 'first' | 'turn' | 'compaction';
  text: string;
  /** Whether a compaction request came since the previous first request of a step. */
  afterCompaction: boolean;
  reply: string;
}

const idOf = (index: number): string => `S${String(index + 1).padStart(3, '0')}`;

/** A deterministic answer of about 80–230 tokens (a concise agent's), different per step. */
function resultOf(index: number): string {
  const sentences = 3 + ((index * 5) % 7);
  return Array.from(
    { length: sentences },
    (_, n) => `Module ${index + 1} exports helper${(index + n) % 13} used by src/module${(index * 3 + n) % 40}.ts in ${n + 2} places; ${n % 3 === 0 ? 'two call sites pass a null option' : 'every call site is typed'}.`,
  ).join(' ');
}

/** What the scripted compaction answers: the first ten words of each line it was asked to condense. */
function condensed(request: LlmChatRequest): string {
  const user = String(request.messages.at(-1)?.content ?? '');
  const start = user.indexOf('## What happened so far\n');
  const end = user.indexOf('\n\n## Task\n');
  const notes = (start === -1 || end === -1 ? user : user.slice(start + 24, end)).split('\n');
  const last = /Condense the last (\d+) line/.exec(user);
  const asked = last ? notes.slice(-Number(last[1])) : notes;
  return asked.map((line) => line.split(' ').slice(0, 10).join(' ')).join('\n');
}

function isCompaction(request: LlmChatRequest): boolean {
  return request.toolChoice === 'none' || String(request.messages[0]?.content ?? '').startsWith('You maintain the working memory');
}

async function scriptedRun(stepCount: number): Promise<SentRequest[]> {
  const files = Object.fromEntries(
    Array.from({ length: stepCount }, (_, index) => [`src/module${index + 1}.ts`, Array.from({ length: 30 }, (_, line) => `export const helper${line} = (value: number): number => value * ${line + index};`).join('\n')]),
  );
  const steps = Array.from({ length: stepCount }, (_, index) =>
    makeStep(idOf(index), {
      title: `Review module ${index + 1}`,
      input: `Review src/module${index + 1}.ts: list what it exports and where each export is used.`,
      dependsOn: [index - 1, index - 3].filter((dep) => dep >= 0).map(idOf),
    }),
  );
  const plan = makePlan(steps, { objective: 'Audit every module of the code base: what each exports, who uses it, and which call sites pass options that are no longer needed. Write the findings as one report.' });
  const sent: SentRequest[] = [];
  let compacted = false;
  const script = scriptedLlm([
    (request) => {
      if (isCompaction(request)) return condensed(request);
      const step = /## Your step: S(\d+)/.exec(String(request.messages[1]?.content ?? ''));
      const index = Number(step?.[1] ?? 1) - 1;
      if (request.messages.length === 2) return { toolCalls: [{ id: `read-${index}`, name: 'read_file', arguments: JSON.stringify({ path: `src/module${index + 1}.ts` }) }] };
      return resultOf(index);
    },
  ]);
  const llm: LlmClient = {
    model: pricedModel,
    async chat(request) {
      const text = requestText(request);
      const kind = isCompaction(request) ? 'compaction' : request.messages.length === 2 ? 'first' : 'turn';
      const response = await script.chat(request);
      sent.push({ kind, text, afterCompaction: kind === 'first' && compacted, reply: response.text + response.toolCalls.map((call) => call.name + call.arguments).join('') });
      if (kind === 'compaction') compacted = true;
      if (kind === 'first') compacted = false;
      return response;
    },
  };
  const result = await runPlan(plan, { llm, tools: builtinTools(), workspace: createMemoryWorkspace(files), clock: new ManualClock(), maxConcurrency: 1 }).result;
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.metadata.reason ?? ''}`);
  return sent;
}

interface Measured extends SentRequest {
  tokens: number;
  sharedTokens: number;
}

function measure(sent: readonly SentRequest[]): Measured[] {
  return sent.map((request, index) => {
    let shared = 0;
    for (let earlier = 0; earlier < index; earlier++) shared = Math.max(shared, commonPrefixLength(request.text, sent[earlier]!.text));
    return { ...request, tokens: countTokens(request.text), sharedTokens: shared === 0 ? 0 : countTokens(request.text.slice(0, shared)) };
  });
}

function stats(values: readonly number[]): { mean: number; median: number; min: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length, median, min: sorted[0]! };
}

const percent = (value: number): string => `${(value * 100).toFixed(1)} %`;
/** Prints the shared-prefix share of `requests`; with a `target` (lowest median share), as that target's verdict. */
function shareLine(label: string, requests: readonly Measured[], target?: number): void {
  const goal = target === undefined ? undefined : `median ≥ ${percent(target)}`;
  if (requests.length === 0) {
    if (goal === undefined) console.log(`    ${label}: none in the run`);
    else checkTarget(label, 'none in the run', goal, false);
    return;
  }
  const { mean, median, min } = stats(requests.map((request) => request.sharedTokens / request.tokens));
  const measured = `${requests.length} requests, shared prefix mean ${percent(mean)}, median ${percent(median)}, min ${percent(min)}`;
  if (goal === undefined || target === undefined) console.log(`    ${label}: ${measured}`);
  else checkTarget(label, measured, goal, median >= target);
}

/** USD of the run at `pricedModel`'s prices, with the cache serving each request's shared prefix as OpenAI does, or not at all. */
function costs(requests: readonly Measured[]): { cached: number; uncached: number; cachedTokens: number } {
  const price = knownModelPrices[pricedModel]!;
  const cachedPrice = price.cachedInputPerMillion ?? price.inputPerMillion / 2;
  let cached = 0;
  let uncached = 0;
  let cachedTokens = 0;
  for (const request of requests) {
    const hit = request.sharedTokens >= minimumCached ? Math.floor(request.sharedTokens / cacheIncrement) * cacheIncrement : 0;
    const output = countTokens(request.reply) * price.outputPerMillion;
    cachedTokens += hit;
    cached += ((request.tokens - hit) * price.inputPerMillion + hit * cachedPrice + output) / 1_000_000;
    uncached += (request.tokens * price.inputPerMillion + output) / 1_000_000;
  }
  return { cached, uncached, cachedTokens };
}

export async function runBench(): Promise<void> {
  for (const stepCount of [12, 100]) {
    const started = performance.now();
    const requests = measure(await scriptedRun(stepCount));
    const firsts = requests.filter((request, index) => request.kind === 'first' && index > 0);
    const afterCompaction = firsts.filter((request) => request.afterCompaction);
    const compactions = requests.filter((request) => request.kind === 'compaction');
    const short = requests.filter((request, index) => index > 0 && request.tokens > minimumCached && request.sharedTokens < minimumCached);
    const cost = costs(requests);
    const total = requests.reduce((sum, request) => sum + request.tokens, 0);
    console.log(`${stepCount} steps: ${requests.length} requests (${compactions.length} compactions by the model), ${total.toLocaleString('en-US')} prompt tokens`);
    // Issue 30 lowered these from 90 % and 80 %: the summary's facts are shorter (an eighth of its budget) and a
    // compaction leaves half the budget free, so steps repeat more of their dependencies' results and the summary
    // shares less with earlier requests, for about a third fewer compactions and a lower cost with caching.
    shareLine(`${stepCount} steps, first requests of steps`, firsts, 0.87);
    shareLine(`${stepCount} steps, first requests after a compaction`, afterCompaction, 0.75);
    if (compactions.length > 0) shareLine(`${stepCount} steps, compaction requests (no target)`, compactions);
    const shortList = short.map((request) => `${request.kind} ${request.sharedTokens}/${request.tokens}`).slice(0, 4).join(', ');
    checkTarget(`${stepCount} steps, requests over ${minimumCached} tokens sharing under ${minimumCached}`, `${short.length}${short.length > 0 ? ` (${shortList})` : ''}`, '0', short.length === 0);
    console.log(
      `  estimated cost at ${pricedModel} prices: $${cost.cached.toFixed(4)} with caching (${cost.cachedTokens.toLocaleString('en-US')} cached tokens), $${cost.uncached.toFixed(4)} without: ${percent(1 - cost.cached / cost.uncached)} saved`,
    );
    console.log(`  time: ${(performance.now() - started).toFixed(0)} ms`);
  }
}
