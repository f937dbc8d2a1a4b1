import { addReferencedDependencies } from './referencedDependencies';
import { contentHash } from './contentHash';
import { normalizeAgents } from './normalizeAgents';
import { parseJsonLoose } from '../text/parseJsonLoose';
import { normalizeStep, wordsOf, writtenStepId, type RawStepEntry, type StepNames } from './normalizeStep';
import { maxPlanSteps, planBasisSchema, planSchema, type Plan } from './planSchema';
import { dependencyList, firstString, isRecord } from './rawValues';
import { errorMessage } from '../../shared/errorMessage';
import { stepArgumentsBounds } from '../../shared/stepEditSchema';
import { boundsAdvice, valueOutOfBounds } from '../../shared/valueBounds';

/** Outcome of `parsePlan`: a canonical plan plus what was ignored, or why there is none. */
export type ParsePlanResult = { ok: true; plan: Plan; warnings: string[] } | { ok: false; errors: string[] };

/** Values `parsePlan` cannot take from the raw plan; both are optional. */
export interface ParsePlanOptions {
  /** ISO-8601 creation time when the raw plan has none (default: the Unix epoch). */
  createdAt?: string | undefined;
  /** Plan id when the raw plan has none (default: derived from its content). */
  id?: string | undefined;
}

const stepListKeys = ['steps', 'tasks', 'workflow', 'phases'] as const;
const childListKeys = ['tasks', 'steps'] as const;
/** What `task-planner plan --json` writes beside the plan (under `plan`). */
const planCommandOutputKeys = new Set(['critique', 'warnings', 'started', 'estimate', 'result', 'usage']);
const knownPlanKeys = new Set([
  ...stepListKeys,
  // A plan file may name its JSON Schema.
  '$schema',
  'plan',
  'id',
  'version',
  'objective',
  'goal',
  'task',
  'createdAt',
  'created_at',
  'agents',
  'workers',
  'title',
  'description',
  'contextTags',
  'context_tags',
  'basis',
]);

/**
 * Turns what an LLM (or a person) wrote into a canonical `Plan` (docs/architecture.md §3). Accepts a JSON
 * string (code fences, trailing commas, comments and similar defects are repaired; prose
 * around the JSON is dropped) or an already-parsed value. Never throws: what cannot be used
 * is an error, what is ignored is a warning.
 */
export function parsePlan(raw: unknown, options: ParsePlanOptions = {}): ParsePlanResult {
  try {
    return parseValue(typeof raw === 'string' ? parseJsonText(raw) : { ok: true, value: raw }, options, raw);
  } catch (error: unknown) {
    return { ok: false, errors: [`The plan could not be read: ${errorMessage(error)}`] };
  }
}

function parseValue(text: { ok: true; value: unknown } | { ok: false; error: string }, options: ParsePlanOptions, raw: unknown): ParsePlanResult {
  if (!text.ok) return { ok: false, errors: [text.error] };
  const root = text.value;
  const warnings: string[] = [];
  const found = findStepList(root);
  if (!found) {
    return {
      ok: false,
      errors: ['No step list found. Give the steps as an array under "steps" (or "tasks", "workflow", "phases", or the same keys under "plan").'],
    };
  }
  const top = isRecord(root) ? root : {};
  const container = found.container;

  const entries = flattenPhases(found.list, warnings);
  if (entries.length > maxPlanSteps) {
    return {
      ok: false,
      errors: [
        `The plan has ${entries.length.toLocaleString('en-US')} steps, more than the ${maxPlanSteps.toLocaleString('en-US')} one plan may have. ` +
          'Split the work into smaller plans, or group steps into larger ones.',
      ],
    };
  }
  const names: StepNames = { taken: new Set(entries.flatMap((entry) => writtenStepId(entry) ?? [])), renamed: new Map() };
  const normalized = entries.flatMap((entry, index) => {
    const step = normalizeStep(entry, index, warnings, names);
    return step ? [{ entry, step }] : [];
  });
  const steps = normalized.map(({ step }) => step);
  const oversized = steps.flatMap(argumentsProblems);
  if (oversized.length > 0) return { ok: false, errors: oversized };
  // A dependency on a step whose id was replaced (too long, reserved, a line break in it) follows it.
  if (names.renamed.size > 0) for (const step of steps) step.dependsOn = step.dependsOn.map((id) => names.renamed.get(id) ?? id);
  remapPhaseDependencies(normalized);
  addReferencedDependencies(steps, warnings);

  const agents = normalizeAgents(container.agents ?? container.workers ?? top.agents ?? top.workers, warnings);
  // `task-planner plan --json` writes the plan under `plan` beside what became of it: a file saved from it is a plan file.
  const savedOutput = container !== top;
  for (const key of Object.keys(top)) {
    if (!knownPlanKeys.has(key) && !(savedOutput && planCommandOutputKeys.has(key))) warnings.push(`Ignored unknown plan field "${key}".`);
  }

  const objective = firstString(container.objective, container.goal, top.objective, top.goal, top.task, top.title, top.description) ?? '';
  const version = typeof top.version === 'number' && Number.isInteger(top.version) && top.version >= 1 ? top.version : 1;
  const candidate: Plan = {
    id: firstString(top.id, container.id) ?? options.id ?? `plan-${contentHash(typeof raw === 'string' ? raw : JSON.stringify(raw) ?? '')}`,
    version,
    objective,
    createdAt: firstString(top.createdAt, top.created_at) ?? options.createdAt ?? new Date(0).toISOString(),
    agents,
    steps,
  };
  const contextTags = wordsOf(container.contextTags ?? container.context_tags ?? top.contextTags ?? top.context_tags, undefined, 'contextTags', warnings);
  if (contextTags.length > 0) candidate.contextTags = contextTags;
  const basis = top.basis ?? container.basis;
  if (basis !== undefined) {
    // What the planner read is only shown, never acted on: a basis that does not fit is dropped, not the plan.
    const parsedBasis = planBasisSchema.safeParse(basis);
    if (parsedBasis.success) candidate.basis = parsedBasis.data;
    else warnings.push('Ignored "basis": it is not a list of files, searches and answers within bounds.');
  }
  const checked = planSchema.safeParse(candidate);
  if (!checked.success) {
    return { ok: false, errors: checked.error.issues.map((issue) => `${issue.path.join('.') || 'plan'}: ${issue.message}`) };
  }
  return { ok: true, plan: checked.data, warnings };
}

/**
 * What is wrong with `step`'s free-form values (its tool's arguments, its result's JSON Schema), which the plan's schema
 * takes as any JSON: past `stepArgumentsBounds`, as the panel refuses them. Arguments a thousand levels deep broke every
 * view of the plan, and deeper ones its checks, with "Maximum call stack size exceeded" (attack). Walks at most the bounds.
 */
function argumentsProblems(step: Plan['steps'][number]): string[] {
  const values = [
    { value: step.args, what: 'its arguments' },
    { value: step.outputSchema, what: 'its output schema' },
  ];
  return values.flatMap(({ value, what }) => {
    const passed = value === undefined ? undefined : valueOutOfBounds(value, stepArgumentsBounds);
    return passed === undefined ? [] : [`Step ${step.id}: ${boundsAdvice(stepArgumentsBounds, what)[passed]}`];
  });
}

function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const parsed = parseJsonLoose(text);
  if (!parsed.ok) return { ok: false, error: `${parsed.error} Send a JSON object with a "steps" array.` };
  if (parsed.value === null || typeof parsed.value !== 'object') {
    return { ok: false, error: 'The plan is not a JSON object or array. Send a JSON object with a "steps" array.' };
  }
  return parsed;
}

function findStepList(root: unknown): { list: unknown[]; container: Record<string, unknown> } | undefined {
  if (Array.isArray(root)) return { list: root, container: {} };
  if (!isRecord(root)) return undefined;
  for (const key of stepListKeys) {
    if (Array.isArray(root[key])) return { list: root[key], container: root };
  }
  const nested = root.plan;
  if (Array.isArray(nested)) return { list: nested, container: root };
  if (isRecord(nested)) {
    for (const key of stepListKeys) {
      if (Array.isArray(nested[key])) return { list: nested[key], container: nested };
    }
  }
  return undefined;
}

/** Phases with their own `tasks`/`steps` become their children, each inheriting the phase's dependencies. */
function flattenPhases(list: unknown[], warnings: string[]): RawStepEntry[] {
  const entries: RawStepEntry[] = [];
  for (const item of list) {
    const children = isRecord(item) ? childListKeys.map((key) => item[key]).find(Array.isArray) : undefined;
    if (!isRecord(item) || !children) {
      entries.push({ value: item });
      continue;
    }
    const phaseId = firstString(item.id, item.phase_id, item.name);
    const phaseDeps = dependencyList(item.dependsOn ?? item.depends_on ?? item.requires ?? item.after ?? item.dependencies);
    if (children.length === 0) warnings.push(`Phase "${phaseId ?? '(unnamed)'}" has no tasks; it was dropped.`);
    for (const child of children) entries.push({ value: child, inheritedDeps: phaseDeps, ...(phaseId ? { phaseId } : {}) });
  }
  return entries;
}

/** A dependency on a flattened phase's id means a dependency on every step of that phase. */
function remapPhaseDependencies(normalized: { entry: RawStepEntry; step: Plan['steps'][number] }[]): void {
  const stepIds = new Set(normalized.map(({ step }) => step.id));
  const phaseChildren = new Map<string, string[]>();
  for (const { entry, step } of normalized) {
    if (entry.phaseId === undefined || stepIds.has(entry.phaseId)) continue;
    phaseChildren.set(entry.phaseId, [...(phaseChildren.get(entry.phaseId) ?? []), step.id]);
  }
  if (phaseChildren.size === 0) return;
  for (const { step } of normalized) {
    const remapped = step.dependsOn.flatMap((dep) => phaseChildren.get(dep)?.filter((id) => id !== step.id) ?? [dep]);
    step.dependsOn = [...new Set(remapped)];
  }
}
