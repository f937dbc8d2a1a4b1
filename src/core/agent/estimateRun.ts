import { stepKinds, type StepKind } from '../../shared/vocabulary';
import { defaultAgentLimits, type AgentLimits } from './agentLimits';
import { toolDefinition } from './agentToolCall';
import { agentSystemPrompt } from './runStepAgent';
import type { ModelRoles } from '../llm/modelRoles';
import { priceOf, type ModelPrice } from '../llm/modelPrices';
import { defaultAgentPrompt, directAgentPrompt, stepPromptHead } from './stepPrompt';
import { countTokens } from '../llm/tokenCount';
import type { ToolRegistry } from '../tools/tool';
import type { Plan, Step } from '../plan/planSchema';
import { performedBy } from '../plan/stepKindTraits';

/** A quantity as a range: `typical` is the expected value, `low` ≤ `typical` ≤ `high`. */
export interface EstimateRange {
  low: number;
  typical: number;
  high: number;
}

/** What to expect of one kind of work: a step kind, or the reviews and compactions the run adds. */
export interface KindEstimate {
  kind: StepKind | 'review' | 'compaction';
  /** Steps of this kind (reviews: reviewed steps; compactions: expected compaction calls, typical). */
  count: number;
  requests: EstimateRange;
  tokens: EstimateRange;
  /** USD; `undefined` when a model this kind asks has no known price (never counted as $0). */
  costUsd: EstimateRange | undefined;
}

/** `estimateRun`'s answer: the run's model requests, tokens, cost and duration, in all and per kind. */
export interface RunEstimate {
  kinds: KindEstimate[];
  requests: EstimateRange;
  tokens: EstimateRange;
  /** `undefined` when any model the run asks has no known price: the cost is unknown, not zero. */
  costUsd: EstimateRange | undefined;
  /** Models the run asks whose price is unknown, sorted. */
  unpricedModels: string[];
  /** Wall time in ms along the plan's longest chain of dependencies, people's steps not counted. */
  durationMs: EstimateRange;
  /** Steps a person does (reviews, questions, manual work): their time is theirs and not counted. */
  personSteps: number;
}

/** What `estimateRun` assumes of a run: a model's replies and tools' results, and how fast they come. */
export const estimateAssumptions = {
  /** Model requests of an agent step whose agent has tools, and of one without. */
  agentTurns: { withTools: { low: 1, typical: 3, high: 8 }, withoutTools: { low: 1, typical: 1, high: 2 } },
  /** Completion tokens of a turn that calls tools. */
  toolCallTokens: 60,
  /** Completion tokens of a final answer. */
  answerTokens: { low: 80, typical: 250, high: 800 },
  /** Tokens of one tool result given back to the model. */
  toolResultTokens: { low: 50, typical: 400, high: 2_000 },
  /** Tokens of the prompt's fixed parts besides the sections counted (headings, status lines per step). */
  promptOverheadTokens: 40,
  statusTokensPerStep: 6,
  /** A review's instructions and its verdict. */
  reviewPromptTokens: 350,
  reviewAnswerTokens: 60,
  /** Milliseconds of a model request before its first token, and completion tokens per second after it. */
  requestLatencyMs: { low: 500, typical: 1_500, high: 5_000 },
  tokensPerSecond: { low: 120, typical: 60, high: 25 },
  /** Milliseconds of a tool step (a file read is quick, a test suite is not). */
  toolStepMs: { low: 20, typical: 500, high: 30_000 },
} as const;

/** What `estimateRun` estimates with besides the plan. */
export interface EstimateOptions {
  /** The run's default model (the client's). */
  model: string;
  models?: ModelRoles;
  /** The run's tools: agents' tool definitions are counted in every request they make. */
  tools?: ToolRegistry;
  agentLimits?: Partial<AgentLimits>;
  reviewCriticalSteps?: boolean;
  /** Prices beyond the built-in table (USD per 1M tokens). */
  prices?: Readonly<Record<string, ModelPrice>>;
}

interface Usage {
  requests: EstimateRange;
  prompt: EstimateRange;
  completion: EstimateRange;
  model: string;
}

const points = ['low', 'typical', 'high'] as const;
const zero = (): EstimateRange => ({ low: 0, typical: 0, high: 0 });
const range = (f: (point: (typeof points)[number]) => number): EstimateRange => ({ low: f('low'), typical: f('typical'), high: f('high') });
const add = (a: EstimateRange, b: EstimateRange): EstimateRange => range((p) => a[p] + b[p]);

/**
 * The expected cost of running `plan` (issue 30): model requests, tokens, cost from the
 * model prices and duration, each a range, per step kind, before anything runs. Pure and
 * linear in the plan's size (the plan's outline is counted once, each step's own text once).
 * Prompts are counted with the run's tokenizer from the same texts a run sends (agents'
 * system prompts, tool definitions, the plan's outline); replies, tool results and turns
 * follow `estimateAssumptions`. A model with no known price makes the cost `undefined`.
 */
export function estimateRun(plan: Plan, options: EstimateOptions): RunEstimate {
  const a = estimateAssumptions;
  const limits = { ...defaultAgentLimits, ...options.agentLimits };
  const roles = options.models ?? {};
  const head = countTokens(stepPromptHead(plan.objective, plan));
  const status = Math.min(300, plan.steps.length * a.statusTokensPerStep);
  const answerOf = new Map<string, EstimateRange>();
  const agentPrefix = new Map<string, { tokens: number; tools: boolean }>();
  const prefixOf = (step: Step): { tokens: number; tools: boolean } => {
    const name = step.agent ?? 'default';
    const known = agentPrefix.get(name);
    if (known) return known;
    const agent = plan.agents[name];
    const toolNames = agent ? agent.tools : name === 'direct' ? [] : (options.tools?.names() ?? []);
    // The run offers every agent `ask_user` too when it has one (executeLlmStep), so its definition is in every request.
    const offered = options.tools?.get('ask_user') ? [...new Set([...toolNames, 'ask_user'])] : toolNames;
    const definitions = offered.flatMap((toolName) => {
      const tool = options.tools?.get(toolName);
      return tool ? [toolDefinition(tool)] : [];
    });
    const prompt = agent?.prompt ?? (name === 'direct' ? directAgentPrompt : defaultAgentPrompt);
    const computed = { tokens: countTokens(agentSystemPrompt(prompt)) + countTokens(JSON.stringify(definitions)), tools: toolNames.length > 0 };
    agentPrefix.set(name, computed);
    return computed;
  };
  const summaryLine = Math.min(Math.floor(limits.summaryBudgetTokens / 4), a.answerTokens.typical) + 8;
  const usages = new Map<KindEstimate['kind'], Usage[]>();
  const note = (kind: KindEstimate['kind'], usage: Usage): void => {
    const list = usages.get(kind) ?? [];
    list.push(usage);
    usages.set(kind, list);
  };
  const stepMs = new Map<string, EstimateRange>();
  let completedBefore = 0;
  let personSteps = 0;
  let agentSteps = 0;
  let compactionPrefix = 0;
  for (const step of plan.steps) {
    const input = Math.min(1_500, countTokens(step.input ?? step.title));
    const deps = range((p) => Math.min(2_000, step.dependsOn.reduce((sum, id) => sum + (answerOf.get(id)?.[p] ?? 0), 0)));
    const summary = Math.min(limits.summaryBudgetTokens, completedBefore * summaryLine);
    completedBefore++;
    if (performedBy(step.kind, 'person')) {
      personSteps++;
      stepMs.set(step.id, zero());
      answerOf.set(step.id, range(() => 20));
      continue;
    }
    if (step.kind === 'tool') {
      stepMs.set(step.id, range((p) => a.toolStepMs[p]));
      answerOf.set(step.id, range((p) => a.toolResultTokens[p]));
      continue;
    }
    const model = step.model ?? roles.agent ?? options.model;
    let usage: Usage;
    if (step.kind === 'synthesis_gate') {
      const base = head + status + input + a.promptOverheadTokens;
      usage = { model, requests: range(() => 1), prompt: range((p) => base + deps[p]), completion: range((p) => a.answerTokens[p]) };
    } else {
      agentSteps++;
      const prefix = prefixOf(step);
      compactionPrefix = Math.max(compactionPrefix, prefix.tokens + head);
      const turns = prefix.tools ? a.agentTurns.withTools : a.agentTurns.withoutTools;
      const base = prefix.tokens + head + status + input + summary + a.promptOverheadTokens;
      const growth = range((p) => a.toolCallTokens + a.toolResultTokens[p]);
      usage = {
        model,
        requests: range((p) => Math.min(limits.maxTurns, turns[p])),
        prompt: range((p) => {
          const t = Math.min(limits.maxTurns, turns[p]);
          return t * (base + deps[p]) + (growth[p] * t * (t - 1)) / 2;
        }),
        completion: range((p) => (Math.min(limits.maxTurns, turns[p]) - 1) * a.toolCallTokens + a.answerTokens[p]),
      };
    }
    note(step.kind, usage);
    answerOf.set(step.id, range((p) => a.answerTokens[p]));
    stepMs.set(step.id, requestMs(usage));
    const reviewed = step.review ?? (options.reviewCriticalSteps === true && step.critical && step.kind === 'agent');
    if (reviewed) {
      const review: Usage = {
        model: roles.reviewer ?? options.model,
        requests: range(() => 1),
        prompt: range((p) => a.reviewPromptTokens + input + a.answerTokens[p]),
        completion: range(() => a.reviewAnswerTokens),
      };
      note('review', review);
      stepMs.set(step.id, add(stepMs.get(step.id) ?? zero(), requestMs(review)));
    }
  }
  const compactions = compactionCount(agentSteps, summaryLine, limits.summaryBudgetTokens);
  if (compactions.high > 0) {
    const budget = limits.summaryBudgetTokens;
    note('compaction', {
      model: roles.compaction ?? roles.agent ?? options.model,
      requests: compactions,
      prompt: range((p) => compactions[p] * (compactionPrefix + budget + 150)),
      completion: range((p) => compactions[p] * Math.floor(budget / 4)),
    });
  }
  return total(plan, usages, stepMs, personSteps, options.prices);
}

/** Compactions of a rolling summary fed `steps` lines of `line` tokens: none until it overflows, then one each time it refills about half its budget. */
function compactionCount(steps: number, line: number, budget: number): EstimateRange {
  const overflow = steps * line - budget;
  if (overflow <= 0) return zero();
  const typical = Math.ceil(overflow / Math.max(1, budget / 2));
  return { low: Math.ceil(overflow / Math.max(1, budget)), typical, high: Math.min(steps, typical * 2) };
}

/** Wall time of `usage`'s requests one after another. */
function requestMs(usage: Usage): EstimateRange {
  const a = estimateAssumptions;
  return range((p) => usage.requests[p] * a.requestLatencyMs[p] + (usage.completion[p] / a.tokensPerSecond[p]) * 1000);
}

function total(
  plan: Plan,
  usages: Map<KindEstimate['kind'], Usage[]>,
  stepMs: Map<string, EstimateRange>,
  personSteps: number,
  prices: EstimateOptions['prices'],
): RunEstimate {
  const unpriced = new Set<string>();
  const kinds: KindEstimate[] = [];
  const counts = new Map<string, number>();
  for (const step of plan.steps) counts.set(step.kind, (counts.get(step.kind) ?? 0) + 1);
  for (const kind of [...stepKinds, 'review', 'compaction'] as const) {
    const list = usages.get(kind);
    if (list === undefined) continue;
    let requests = zero();
    let tokens = zero();
    let cost: EstimateRange | undefined = zero();
    for (const usage of list) {
      requests = add(requests, usage.requests);
      tokens = add(tokens, add(usage.prompt, usage.completion));
      const price = priceOf(usage.model, prices);
      if (price === undefined) unpriced.add(usage.model);
      cost =
        price === undefined || cost === undefined
          ? undefined
          : add(
              cost,
              range((p) => (usage.prompt[p] * price.inputPerMillion + usage.completion[p] * price.outputPerMillion) / 1_000_000),
            );
    }
    const count = kind === 'compaction' ? requests.typical : kind === 'review' ? list.length : (counts.get(kind) ?? 0);
    kinds.push({ kind, count, requests: rounded(requests), tokens: rounded(tokens), costUsd: cost });
  }
  const sum = (pick: (kind: KindEstimate) => EstimateRange): EstimateRange => kinds.reduce((all, kind) => add(all, pick(kind)), zero());
  const costUsd = unpriced.size > 0 ? undefined : sum((kind) => kind.costUsd ?? zero());
  return {
    kinds,
    requests: sum((kind) => kind.requests),
    tokens: sum((kind) => kind.tokens),
    costUsd,
    unpricedModels: [...unpriced].sort(),
    durationMs: rounded(longestChain(plan, stepMs)),
    personSteps,
  };
}

function rounded(value: EstimateRange): EstimateRange {
  return range((p) => Math.round(value[p]));
}

/**
 * The plan's longest chain of dependencies by `stepMs`, in one pass over a topological
 * order (Kahn's); steps a cycle leaves out are added one after another.
 */
function longestChain(plan: Plan, stepMs: Map<string, EstimateRange>): EstimateRange {
  const dependents = new Map<string, string[]>();
  const waiting = new Map<string, number>();
  const ids = new Set(plan.steps.map((step) => step.id));
  for (const step of plan.steps) {
    const deps = step.dependsOn.filter((id) => ids.has(id) && id !== step.id);
    waiting.set(step.id, deps.length);
    for (const dep of deps) {
      const list = dependents.get(dep);
      if (list) list.push(step.id);
      else dependents.set(dep, [step.id]);
    }
  }
  const finish = new Map<string, EstimateRange>();
  const start = new Map<string, EstimateRange>();
  const ready = plan.steps.filter((step) => waiting.get(step.id) === 0).map((step) => step.id);
  let longest = zero();
  for (let index = 0; index < ready.length; index++) {
    const id = ready[index] as string;
    const end = add(start.get(id) ?? zero(), stepMs.get(id) ?? zero());
    finish.set(id, end);
    longest = range((p) => Math.max(longest[p], end[p]));
    for (const next of dependents.get(id) ?? []) {
      const before = start.get(next) ?? zero();
      start.set(next, range((p) => Math.max(before[p], end[p])));
      const left = (waiting.get(next) ?? 1) - 1;
      waiting.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  for (const step of plan.steps) if (!finish.has(step.id)) longest = add(longest, stepMs.get(step.id) ?? zero());
  return longest;
}
