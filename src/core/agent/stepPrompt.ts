import type { Plan, Step } from '../plan/planSchema';
import { factText, resultText } from '../llm/contextCompactor';
import { countTokens, truncateToTokens } from '../llm/tokenCount';

/** The prompt of the built-in `default` agent (all tools) when the plan defines none. */
export const defaultAgentPrompt = 'You are a careful software assistant working in the user\'s VS Code workspace.';
/** The prompt of the built-in `direct` agent (no tools) when the plan defines none. */
export const directAgentPrompt = 'You answer directly from what you are given, without tools.';

/**
 * The sections of a step prompt in the order they are sent, from the most stable to the most
 * volatile (docs/architecture.md §5, "Prompt layout"): the objective and the plan outline are
 * the same for every step of a run, the summary only grows between rare rewrites, and
 * everything after it belongs to this moment or this step. Providers cache the longest
 * byte-identical start of consecutive requests, so a section goes as late as its text
 * changes. A section whose text is empty is left out. Sections that `buildStepPrompt` does
 * not write itself (`StepPromptExtraSection`) are passed in `StepPromptInput.extra`, each
 * text with its own heading; adding one is adding its name here, at its place in the order.
 */
export const stepPromptSectionOrder = ['objective', 'outline', 'summary', 'status', 'dependencies', 'step', 'attachments'] as const;

/** The name of a step prompt section. */
export type StepPromptSectionName = (typeof stepPromptSectionOrder)[number];

/** The sections `buildStepPrompt` writes from its input. */
type BuiltSection = 'objective' | 'outline' | 'summary' | 'status' | 'dependencies' | 'step';

/** Sections whose text the caller gives (with its heading), such as the step's attachments. */
export type StepPromptExtraSection = Exclude<StepPromptSectionName, BuiltSection>;

/** Token limits of each part of a step prompt. */
export interface StepPromptBudget {
  objective: number;
  /** The plan outline: every step in plan order while they fit, the same text for every step. */
  outline: number;
  summary: number;
  /** The live status: counts, this step, the steps it depends on and those depending on it, with their statuses. */
  status: number;
  dependencies: number;
  input: number;
}

/** Defaults: about 6 100 tokens at most, whatever the plan's length. */
export const defaultStepPromptBudget: Readonly<StepPromptBudget> = {
  objective: 300,
  outline: 1_000,
  summary: 1_000,
  status: 300,
  dependencies: 2_000,
  input: 1_500,
};

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
  /** Texts of the sections the caller writes, each with its heading; absent or empty ones are left out. */
  extra?: Partial<Record<StepPromptExtraSection, string>>;
  budget?: Partial<StepPromptBudget>;
}

/** The parts of a step prompt, each already within its budget, and the joined text. */
export interface StepPrompt {
  objective: string;
  outline: string;
  summary: string;
  status: string;
  dependencies: string;
  input: string;
  /** The start every step prompt of the run shares (objective and outline sections); `text` begins with it. */
  head: string;
  text: string;
  tokens: number;
}

/**
 * A step agent's prompt, its sections in `stepPromptSectionOrder`: the objective, the plan
 * outline (`planOutline`: the same lines for every step), the rolling summary (cut at its
 * start when over budget), the live status (`liveStatus`: counts, the `→` step, the steps
 * it depends on and those depending on it), the direct dependencies' results (each cut by
 * tokens to an equal share; one the summary has in full is referred to, not repeated), the
 * step's input, then the caller's extra sections. Every built part is cut to its budget, so
 * `tokens` stays under the sum of the budgets plus a few heading tokens however long the
 * plan is (extra sections excepted: their callers bound them). Invariant: `text` starts with
 * `head`, and `head` depends only on the objective, the plan and the budget.
 */
export function buildStepPrompt(input: StepPromptInput): StepPrompt {
  const budget = { ...defaultStepPromptBudget, ...input.budget };
  const objective = truncateToTokens(input.objective.trim(), budget.objective, { marker: ' …' });
  const outline = planOutline(input.plan.steps, budget.outline);
  const summary = truncateToTokens(input.summary.trim(), budget.summary, { keep: 'tail', marker: '… ' });
  const status = liveStatus(input, outline, budget.status);
  const dependencies = renderDependencies(input.step.dependsOn, input.depends, budget.dependencies, summary);
  const stepInput = truncateToTokens(input.input.trim(), budget.input, { marker: '\n… (input cut)' });
  const built: Record<BuiltSection, string> = {
    objective: `## Objective\n${objective}`,
    outline: `## Plan\n${outline}`,
    summary: summary === '' ? '' : `## What happened so far\n${summary}`,
    status: `## Where the run stands\n${status}`,
    dependencies: dependencies === '' ? '' : `## Results of the steps this one depends on\n${dependencies}`,
    step: `## Your step: ${input.step.id}\n${stepInput}`,
  };
  const sections: Partial<Record<StepPromptSectionName, string>> = { ...input.extra, ...built };
  const text = stepPromptSectionOrder
    .map((name) => (sections[name] ?? '').trim())
    .filter((section) => section !== '')
    .join('\n\n');
  const head = `${built.objective}\n\n${built.outline}`;
  return { objective, outline, summary, status, dependencies, input: stepInput, head, text, tokens: countTokens(text) };
}

/** The objective and outline sections alone: the start of every step prompt of the run (`StepPrompt.head`). */
export function stepPromptHead(objective: string, plan: Pick<Plan, 'steps'>, budget: Partial<StepPromptBudget> = {}): string {
  const limits = { ...defaultStepPromptBudget, ...budget };
  return `## Objective\n${truncateToTokens(objective.trim(), limits.objective, { marker: ' …' })}\n\n## Plan\n${planOutline(plan.steps, limits.outline)}`;
}

const titleTokens = 24;

/** A step's title on one line, cut to `titleTokens`: a title cannot add lines to the outline or the status. */
function shortTitle(title: string): string {
  return truncateToTokens(title.replace(/\s+/g, ' ').trim(), titleTokens, { marker: '…' });
}

function outlineLine(step: Pick<Step, 'id' | 'title'>): string {
  return `- ${step.id} ${shortTitle(step.title)}`;
}

/**
 * Every step in plan order with its title and no status, as many as fit in `budget` from
 * the first; the rest are counted on a last line. The same text for every step of a plan.
 */
function planOutline(steps: readonly Pick<Step, 'id' | 'title'>[], budget: number): string {
  const header = `${steps.length} step${steps.length === 1 ? '' : 's'}, in plan order:`;
  const lines: string[] = [];
  let used = countTokens(header) + 12;
  for (const step of steps) {
    const line = outlineLine(step);
    const cost = countTokens(line) + 1;
    if (used + cost > budget) break;
    used += cost;
    lines.push(line);
  }
  const omitted = steps.length - lines.length;
  const text = [header, ...lines, ...(omitted > 0 ? [`(${omitted} more steps not listed here)`] : [])].join('\n');
  return truncateToTokens(text, budget, { marker: '…' });
}

/**
 * Status counts, then the step itself (`→`), the steps it depends on and those that depend
 * on it, in plan order, each with its status; a step the outline does not list also gets
 * its title. The other steps' statuses are in the counts only: every line here changes
 * from one step to the next, so it stays short. Fills `budget` in that priority.
 */
function liveStatus(input: StepPromptInput, outline: string, budget: number): string {
  const steps = input.plan.steps;
  const statusOf = (id: string): string => input.statuses[id] ?? 'pending';
  const counts = new Map<string, number>();
  for (const step of steps) counts.set(statusOf(step.id), (counts.get(statusOf(step.id)) ?? 0) + 1);
  const header = `${steps.length} steps: ${[...counts].map(([status, count]) => `${count} ${status}`).join(', ')}`;
  const listed = new Set(outline.split('\n').flatMap((line) => (line.startsWith('- ') ? [line.slice(2).split(' ', 1)[0] ?? ''] : [])));
  const dependsOn = new Set(input.step.dependsOn);
  const rank = (step: Pick<Step, 'id' | 'dependsOn'>): number =>
    step.id === input.step.id ? 0 : dependsOn.has(step.id) ? 1 : step.dependsOn.includes(input.step.id) ? 2 : -1;
  const related = steps.map((step, index) => ({ step, index, rank: rank(step) })).filter((entry) => entry.rank >= 0);
  const line = (step: Pick<Step, 'id' | 'title'>, rank: number): string =>
    `${rank === 0 ? '→ ' : '- '}${step.id} [${statusOf(step.id)}]${rank === 1 ? ' (this step depends on it)' : rank === 2 ? ' (depends on this step)' : ''}${listed.has(step.id) ? '' : ` ${shortTitle(step.title)}`}`;
  let used = countTokens(header) + 12;
  const chosen = new Set<number>();
  for (const entry of [...related].sort((a, b) => a.rank - b.rank || a.index - b.index)) {
    const cost = countTokens(line(entry.step, entry.rank)) + 1;
    if (used + cost > budget) break;
    used += cost;
    chosen.add(entry.index);
  }
  const lines = related.flatMap((entry) => (chosen.has(entry.index) ? [line(entry.step, entry.rank)] : []));
  const omitted = related.length - chosen.size;
  const text = [header, ...lines, ...(omitted > 0 ? [`(${omitted} more related steps not shown)`] : [])].join('\n');
  return truncateToTokens(text, budget, { marker: '…' });
}

/** The text that says a dependency's result is in the summary already. */
const inSummary = '(in full under "What happened so far")';

/**
 * The dependencies' results, each cut to an equal share of `budget`; a result the summary
 * already has in full (its fact line, uncut) is referred to instead of repeated, which keeps
 * the prompt's volatile end short.
 */
function renderDependencies(ids: readonly string[], depends: Readonly<Record<string, unknown>>, budget: number, summary: string): string {
  if (ids.length === 0) return '';
  const share = Math.floor(budget / ids.length);
  const summaryLines = summary.split('\n');
  const blocks = ids.map((id) => {
    const heading = `### ${id}`;
    if (!Object.hasOwn(depends, id)) return `${heading}\n(no result)`;
    const fact = `: ${factText(depends[id])}`;
    if (summaryLines.some((line) => line.startsWith(`[${id}] `) && line.endsWith(fact))) return `${heading}\n${inSummary}`;
    return `${heading}\n${truncateToTokens(resultText(depends[id]), Math.max(0, share - countTokens(heading) - 2), { marker: '\n… (result cut)' })}`;
  });
  return truncateToTokens(blocks.join('\n'), budget, { marker: '\n… (more results cut)' });
}
