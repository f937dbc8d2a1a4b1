import { stepSchema, withStepDefaults, type Diagnostic, type Plan, type Step } from './planSchema';
import { consistentAttempts } from './consistentAttempts';
import { followRenamedArgs } from './followRenamedArgs';
import { issueWords } from './issueWords';
import { usesResultOf } from './referencedDependencies';
import { performedBy } from './stepKindTraits';
import { dependencyOrder } from './dependencyOrder';
import { validatePlan, type ValidatePlanOptions } from './validatePlan';

/** The fields of a step an edit may change; the id is fixed once a step exists. */
export type StepPatch = Partial<Omit<Step, 'id'>>;

/** A new step: id and kind are required, everything else has docs/architecture.md §3 defaults. */
export type NewStep = Pick<Step, 'id' | 'kind'> & Partial<Step>;

/** One edit of a plan (docs/architecture.md §3). Indexes are 0-based positions in `plan.steps`. */
export type PlanEdit =
  | { type: 'addStep'; step: NewStep; index?: number }
  | { type: 'updateStep'; stepId: string; patch: StepPatch }
  /** A step others depend on is removed only with `dropEdges`: they then wait on what it waited on. */
  | { type: 'removeStep'; stepId: string; dropEdges?: boolean }
  | { type: 'moveStep'; stepId: string; toIndex: number }
  | { type: 'setDependencies'; stepId: string; dependsOn: string[] }
  | { type: 'skipStep'; stepId: string }
  | { type: 'unskipStep'; stepId: string }
  /** Hands the listed agent and synthesis-gate steps to the user: each becomes a `manual` step with its instructions. */
  | { type: 'makeManual'; stepIds: string[] }
  /** Sets the plan's topics (`contextTags`): trimmed, each once; an empty list removes them. */
  | { type: 'setContextTags'; tags: string[] };

/** The edits that change the steps (every edit but the plan's topics). */
type StepEdit = Exclude<PlanEdit, { type: 'setContextTags' }>;

/** The edited plan (`version + 1`), or why the edit was refused (the plan is unchanged). */
export type EditPlanResult = { ok: true; plan: Plan } | { ok: false; error: string };

type Change = { ok: true; steps: Step[] } | { ok: false; error: string };

/**
 * Applies one edit as a pure reducer: the input plan is never mutated. The result is
 * re-validated, and an edit that would add a validation error (a cycle, a dangling
 * dependency, an empty plan, …) is refused with that error's message.
 */
export function editPlan(plan: Plan, edit: PlanEdit, opts: ValidatePlanOptions = {}): EditPlanResult {
  const edited = editedPlan(plan, edit);
  if (!edited.ok) return edited;
  const next = edited.plan;
  const before = new Set(validatePlan(plan, opts).filter(isError).map(diagnosticKey));
  const introduced = validatePlan(next, opts).filter((diagnostic) => isError(diagnostic) && !before.has(diagnosticKey(diagnostic)));
  if (introduced.length > 0) {
    return { ok: false, error: `The edit was refused because it would break the plan: ${introduced.map((diagnostic) => diagnostic.message).join(' ')}` };
  }
  return { ok: true, plan: next };
}

/** `plan` after `edit`, not yet validated, as the next version. */
function editedPlan(plan: Plan, edit: PlanEdit): EditPlanResult {
  if (edit.type === 'setContextTags') {
    const { contextTags: _replaced, ...rest } = plan;
    const tags = namesOnce(edit.tags);
    return { ok: true, plan: { ...rest, version: plan.version + 1, ...(tags.length > 0 ? { contextTags: tags } : {}) } };
  }
  const change = applyEdit(plan.steps, edit);
  if (!change.ok) return change;
  // A dependency on a step listed below: the step moves down after it, so every view lists steps in an order that runs
  // (a newcomer's trial saw it stay first); a cycle keeps the order, and validation refuses it.
  const steps = edit.type === 'updateStep' || edit.type === 'setDependencies' ? (dependencyOrder(change.steps) ?? change.steps) : change.steps;
  return { ok: true, plan: { ...plan, version: plan.version + 1, steps: [...steps] } };
}

function applyEdit(steps: readonly Step[], edit: StepEdit): Change {
  if (edit.type === 'addStep') return addStep(steps, edit.step, edit.index);
  if (edit.type === 'makeManual') return makeManual(steps, edit.stepIds);
  const index = steps.findIndex((step) => step.id === edit.stepId);
  if (index < 0) return { ok: false, error: `There is no step "${edit.stepId}" in this plan.` };
  const step = steps[index]!;
  switch (edit.type) {
    case 'updateStep':
      return replaceStep(
        steps,
        index,
        consistentAttempts(followRenamedArgs(step, keptAcrossKinds(step, { ...step, ...edit.patch, id: step.id }), changedFields(step, edit.patch)), step),
      );
    case 'removeStep':
      return removeStep(steps, step, edit.dropEdges === true);
    case 'moveStep':
      return moveStep(steps, index, edit.toIndex);
    case 'setDependencies':
      return replaceStep(steps, index, { ...step, dependsOn: [...new Set(edit.dependsOn)] });
    case 'skipStep':
      return replaceStep(steps, index, { ...step, skipped: true });
    case 'unskipStep': {
      const { skipped: _skipped, ...rest } = step;
      return replaceStep(steps, index, rest);
    }
  }
}

function addStep(steps: readonly Step[], raw: NewStep, index: number | undefined): Change {
  if (steps.some((step) => step.id === raw.id)) return { ok: false, error: `A step with id "${raw.id}" already exists; choose another id.` };
  const checked = checkStep(consistentAttempts(withStepDefaults(raw)));
  if (!checked.ok) return checked;
  const at = index === undefined ? steps.length : index;
  if (!Number.isInteger(at) || at < 0 || at > steps.length) return { ok: false, error: `Position ${index} is outside the plan (0–${steps.length}).` };
  const dependents = steps.slice(0, at).filter((step) => step.dependsOn.includes(raw.id));
  if (dependents.length > 0) {
    return { ok: false, error: `Step "${raw.id}" would come after ${dependents.map((step) => `"${step.id}"`).join(', ')}, which depend on it.` };
  }
  const late = checked.step.dependsOn.filter((dep) => steps.slice(at).some((step) => step.id === dep));
  if (late.length > 0) {
    return { ok: false, error: `Step "${raw.id}" would come before its dependencies ${late.map((dep) => `"${dep}"`).join(', ')}; add it after them.` };
  }
  return { ok: true, steps: [...steps.slice(0, at), checked.step, ...steps.slice(at)] };
}

/**
 * `next` without the fields its new kind cannot have, when the edit changed the kind: an
 * output schema only where a model answers, a model's review not of a person's work,
 * skills only on an agent step (a form that changes the kind cannot remove them).
 */
function keptAcrossKinds(before: Step, next: Step): Step {
  if (next.kind === before.kind) return next;
  const { outputSchema, review, skills, ...rest } = next;
  return {
    ...rest,
    ...(outputSchema !== undefined && performedBy(next.kind, 'model') ? { outputSchema } : {}),
    ...(review !== undefined && !performedBy(next.kind, 'person') ? { review } : {}),
    ...(skills !== undefined && next.kind === 'agent' ? { skills } : {}),
  };
}

function makeManual(steps: readonly Step[], stepIds: readonly string[]): Change {
  const wanted = new Set(stepIds);
  const unknown = [...wanted].filter((id) => !steps.some((step) => step.id === id));
  if (unknown.length > 0) return { ok: false, error: `There is no step ${unknown.map((id) => `"${id}"`).join(', ')} in this plan.` };
  // Only a model's work can be taken over; the step keeps its id, dependencies and policy.
  const refused = steps.filter((step) => wanted.has(step.id) && !performedBy(step.kind, 'model'));
  if (refused.length > 0) {
    return {
      ok: false,
      error: `Only steps a model would do can become yours; ${refused.map((step) => `"${step.id}" (${step.kind})`).join(', ')} ${refused.length === 1 ? 'is' : 'are'} not.`,
    };
  }
  const next: Step[] = [];
  for (const step of steps) {
    if (!wanted.has(step.id)) {
      next.push(step);
      continue;
    }
    const { agent: _agent, ...rest } = step;
    const checked = checkStep(keptAcrossKinds(step, { ...rest, kind: 'manual', input: step.input?.trim() ? step.input : step.title }));
    if (!checked.ok) return checked;
    next.push(checked.step);
  }
  return { ok: true, steps: next };
}

function replaceStep(steps: readonly Step[], index: number, candidate: Step): Change {
  const checked = checkStep(candidate);
  if (!checked.ok) return checked;
  return { ok: true, steps: steps.map((step, position) => (position === index ? checked.step : step)) };
}

function removeStep(steps: readonly Step[], target: Step, dropEdges: boolean): Change {
  const ids = new Set(steps.map((step) => step.id));
  const users = steps.filter((step) => step.id !== target.id && usesResultOf(step, target.id, ids));
  if (users.length > 0) {
    const named = users.map((step) => `"${step.id}"`).join(', ');
    const use = users.length === 1 ? 'uses' : 'use';
    return { ok: false, error: `Step "${target.id}" cannot be removed: ${named} ${use} its result. Change what ${named} ${use} first.` };
  }
  const dependents = steps.filter((step) => step.dependsOn.includes(target.id));
  if (dependents.length > 0 && !dropEdges) {
    return {
      ok: false,
      error: `Step "${target.id}" cannot be removed: ${dependents.map((step) => `"${step.id}"`).join(', ')} depend on it. Remove those dependencies first, or remove it together with its edges.`,
    };
  }
  // What waited on the step now waits on what it waited on, so removing the middle of a chain keeps the rest in order.
  const bridged = (dependsOn: readonly string[]): string[] => [...new Set(dependsOn.flatMap((dep) => (dep === target.id ? target.dependsOn : [dep])))];
  return {
    ok: true,
    steps: steps
      .filter((step) => step.id !== target.id)
      .map((step) => (step.dependsOn.includes(target.id) ? { ...step, dependsOn: bridged(step.dependsOn) } : step)),
  };
}

/** The fields `patch` gives a value other than `step`'s: a form sends a field it did not change (the title) as it was. */
function changedFields(step: Step, patch: StepPatch): Set<string> {
  return new Set(Object.entries(patch).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(step[key as keyof Step])).map(([key]) => key));
}

function moveStep(steps: readonly Step[], from: number, toIndex: number): Change {
  if (!Number.isInteger(toIndex) || toIndex < 0 || toIndex >= steps.length) {
    return { ok: false, error: `Position ${toIndex} is outside the plan (0–${steps.length - 1}).` };
  }
  const moving = steps[from]!;
  const rest = steps.filter((_, position) => position !== from);
  const reordered = [...rest.slice(0, toIndex), moving, ...rest.slice(toIndex)];
  const position = new Map(reordered.map((step, at) => [step.id, at]));
  const before = moving.dependsOn.filter((dep) => (position.get(dep) ?? -1) > toIndex);
  if (before.length > 0) return { ok: false, error: `Step "${moving.id}" cannot move before its dependencies ${before.map((dep) => `"${dep}"`).join(', ')}.` };
  const after = reordered.filter((step, at) => at < toIndex && step.dependsOn.includes(moving.id));
  if (after.length > 0) {
    return { ok: false, error: `Step "${moving.id}" cannot move after ${after.map((step) => `"${step.id}"`).join(', ')}, which depend on it.` };
  }
  return { ok: true, steps: reordered };
}

/** Names trimmed, blanks left out, each once, in the order given. */
function namesOnce(names: readonly string[]): string[] {
  return [...new Set(names.map((name) => name.trim()).filter((name) => name !== ''))];
}

/** `candidate` checked against the step schema, its skills named once each (none left: no `skills`). */
function checkStep(candidate: Step): { ok: true; step: Step } | { ok: false; error: string } {
  const { skills, ...rest } = candidate;
  const named = skills === undefined ? [] : namesOnce(skills);
  const parsed = stepSchema.safeParse(named.length > 0 ? { ...rest, skills: named } : rest);
  if (parsed.success) return { ok: true, step: parsed.data };
  return {
    ok: false,
    // In the words of the form the user filled ("check 1, argv should be a list…"), not the schema's ("checks.0.argv: Invalid input").
    error: `Step "${candidate.id}" is not valid: ${parsed.error.issues.map((issue) => issueWords(issue, candidate, 'field')).join('; ')}.`,
  };
}

function isError(diagnostic: Diagnostic): boolean {
  return diagnostic.severity === 'error';
}

function diagnosticKey(diagnostic: Diagnostic): string {
  return `${diagnostic.code}|${diagnostic.stepId ?? ''}|${diagnostic.message}`;
}
