import type { z } from 'zod';
import { lookUp, wholeValueReferenceOf, type ReferenceText } from '../../plan/expandTemplates';
import type { Plan } from '../../plan/planSchema';
import { capText, textCaps } from '../../text/capText';
import type { ToolRegistry } from '../../tools/tool';
import { toolResultText } from '../../tools/toolResultText';

/** What turning references into text needs: the step's arguments as written, the completed results and where they came from. */
export interface ReferenceTextContext {
  /** The step's `args` as the plan has them (before resolution). */
  written: Readonly<Record<string, unknown>>;
  /** The completed results, read only when an argument is a reference. */
  results(): Readonly<Record<string, unknown>>;
  plan: Plan;
  tools: ToolRegistry;
}

/**
 * `input` (resolved arguments) where every string parameter that a `"$<id>…"` reference
 * gave another value gets that value's text instead, so `write_file {content: "$step_1"}`
 * after a `read_file` step writes the file's text. The text of a whole step result
 * is `resultTextFor`'s, the one text form an agent and a template get too; at most
 * `textCaps.result` characters. Only references are turned into text: a literal number
 * given for a string stays and fails the schema, as the plan's validation said. Returns
 * `input` itself when the schema accepts it or nothing is a reference; never mutates it.
 */
export function withReferenceTexts(schema: z.ZodType, input: unknown, context: ReferenceTextContext): unknown {
  const parsed = schema.safeParse(input);
  if (parsed.success) return input;
  let changed: unknown = input;
  for (const issue of parsed.error.issues) {
    if (issue.code !== 'invalid_type' || issue.expected !== 'string' || issue.path.length === 0) continue;
    const written = valueAt(context.written, issue.path);
    const reference = typeof written === 'string' ? wholeValueReferenceOf(written) : undefined;
    if (reference === undefined) continue;
    const text = referenceText(reference, context);
    if (text !== undefined) changed = withValueAt(changed, issue.path, text);
  }
  return changed;
}

function referenceText(reference: string, context: ReferenceTextContext): string | undefined {
  const found = lookUp(reference, context.results());
  if (!found.ok) return undefined;
  return capText(resultTextFor(context.plan, context.tools)(found), textCaps.result);
}

/**
 * The text of a referenced result in `plan`: a whole result (`$<id>`, `{{results.<id>}}`) a tool
 * produced is that tool's one text form (`toolResultText`: `read_file`'s is the file's text, not
 * its JSON), anything else, a path into a result included, the template convention (`valueText`).
 */
export function resultTextFor(plan: Plan, tools: ToolRegistry): ReferenceText {
  return (found) => {
    const producer = found.keys.length === 0 ? plan.steps.find((step) => step.id === found.id) : undefined;
    const tool = producer?.kind === 'tool' && producer.tool !== undefined ? tools.get(producer.tool) : undefined;
    return toolResultText(tool, found.value);
  };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || typeof key === 'symbol' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A copy of `root` with the value at `path` replaced (copying only the containers on the way). */
function withValueAt(root: unknown, path: readonly PropertyKey[], replacement: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return replacement;
  if (Array.isArray(root) && typeof key === 'number') {
    const copy: unknown[] = [...(root as unknown[])];
    copy[key] = withValueAt(copy[key], rest, replacement);
    return copy;
  }
  if (root === null || typeof root !== 'object' || typeof key === 'symbol' || !Object.hasOwn(root, key)) return root;
  return { ...(root as Record<string, unknown>), [key]: withValueAt((root as Record<PropertyKey, unknown>)[key], rest, replacement) };
}
