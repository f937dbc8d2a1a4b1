import { templateReferencesOf, wholeValueReferenceOf } from './expandTemplates';
import type { Step } from './planSchema';

/**
 * Adds the dependencies a plan's references imply: a step whose `args` hold a `"$<id>…"`
 * reference or a `{{results.<id>…}}` placeholder, or whose `input` holds a placeholder,
 * uses step `<id>`'s result, so it must run after it; without the edge the two could run
 * at once and the reference would find nothing. The id is the longest prefix of the
 * reference that names a step of the plan (ids may hold dots). An edge that would close a
 * cycle, or a step's reference to itself, is left out, saying so (the reference would find no result).
 * Changes the steps' `dependsOn` in place (the parser's own drafts) and says what it added
 * in `warnings`.
 */
export function addReferencedDependencies(steps: Step[], warnings: string[]): void {
  const ids = new Set(steps.map((step) => step.id));
  const byId = new Map(steps.map((step) => [step.id, step]));
  const position = new Map(steps.map((step, index) => [step.id, index]));
  const at = (id: string): number => position.get(id) ?? -1;
  // While every edge points to a step written earlier, a step written earlier cannot reach a later one: no walk is needed
  // (a chain of 10,000 steps each using the one before took seconds, a walk of the whole chain for each step).
  let pointsBack = steps.every((step) => step.dependsOn.every((id) => at(id) < at(step.id)));
  const closesCycle = (id: string, step: Step): boolean => id !== step.id && !(pointsBack && at(id) < at(step.id)) && reaches(id, step.id, byId);
  const unresolved = 'so the reference finds no result and stays as written';
  for (const step of steps) {
    const referenced = [...referencedStepIds(step, ids)].filter((id) => !step.dependsOn.includes(id));
    if (referenced.includes(step.id)) warnings.push(`Step "${step.id}" uses its own result, which it has only once it ended, ${unresolved}.`);
    const later = referenced.filter((id) => closesCycle(id, step));
    if (later.length > 0) {
      const named = later.map((id) => `"${id}"`).join(', ');
      warnings.push(
        `Step "${step.id}" uses the result of ${named}, which can only run after it (${later.length === 1 ? 'it depends' : 'they depend'} on "${step.id}"), ` +
          `${unresolved}: let each result flow to steps that run later.`,
      );
    }
    const added = referenced.filter((id) => id !== step.id && !later.includes(id));
    if (added.length === 0) continue;
    step.dependsOn = [...step.dependsOn, ...added];
    if (added.some((id) => at(id) > at(step.id))) pointsBack = false;
    const named = added.map((id) => `"${id}"`).join(', ');
    warnings.push(`Step "${step.id}" uses the result of ${named}, so it now runs after ${added.length === 1 ? 'it' : 'them'} (added to its dependsOn).`);
  }
}

/** The ids among `ids` whose results `step` uses: `"$<id>…"` in its `args`, `{{results.<id>…}}` there or in its `input`. */
export function referencedStepIds(step: Step, ids: ReadonlySet<string>): Set<string> {
  const referenced = new Set<string>();
  for (const text of [...(step.input === undefined ? [] : [step.input]), ...stringsIn(step.args)]) {
    const whole = wholeValueReferenceOf(text);
    for (const reference of [...(whole === undefined ? [] : [whole]), ...templateReferencesOf(text)]) {
      const id = stepIdOf(reference, ids);
      if (id !== undefined) referenced.add(id);
    }
  }
  return referenced;
}

/**
 * The `{{results.<id>…}}` placeholders of `step` (in its input or args) naming no step among `ids`, as written, each
 * once. A `"$NAME"` argument naming none is left alone: it is as likely a word the program reads (`echo $HOME`).
 */
export function unknownReferences(step: Step, ids: ReadonlySet<string>): string[] {
  const unknown = new Set<string>();
  for (const text of [...(step.input === undefined ? [] : [step.input]), ...stringsIn(step.args)]) {
    for (const reference of templateReferencesOf(text)) if (stepIdOf(reference, ids) === undefined) unknown.add(`{{results.${reference}}}`);
  }
  return [...unknown];
}

/**
 * Whether `step` uses the result of step `id` (one of `ids`): a reference in its input or args (`referencedStepIds`),
 * or its `when` or `verification` reading `depends.<id>` / `depends["<id>"]`.
 */
export function usesResultOf(step: Step, id: string, ids: ReadonlySet<string>): boolean {
  if (referencedStepIds(step, ids).has(id)) return true;
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const reads = new RegExp(`\\bdepends\\s*(?:\\.\\s*${escaped}(?![\\w$])|\\[\\s*(['"\`])${escaped}\\1\\s*\\])`);
  return [step.when, step.verification].some((predicate) => predicate !== undefined && reads.test(predicate));
}

/** The longest prefix of `reference` (cut at dots) that is a step id. */
function stepIdOf(reference: string, ids: ReadonlySet<string>): string | undefined {
  const parts = reference.split('.');
  for (let length = parts.length; length >= 1; length--) {
    const id = parts.slice(0, length).join('.');
    if (ids.has(id)) return id;
  }
  return undefined;
}

/** Whether `from` depends on `to`, directly or through other steps. */
function reaches(from: string, to: string, byId: ReadonlyMap<string, Step>): boolean {
  const seen = new Set<string>();
  const stack = [from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(byId.get(id)?.dependsOn ?? []));
  }
  return false;
}

/** Every string inside `value`, deeply (objects and arrays), in order. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
