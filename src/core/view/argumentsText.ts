import { Document, isScalar, isSeq, visit } from 'yaml';
import type { ArgumentView } from '../../shared/panelViewModel';

/** Deepest level of a tool's parameters its template fills in (an `edits` list's items are one level down). */
const templateDepth = 3;

/**
 * A tool step's arguments (or a step's checks) as the edit form shows them: YAML, where a
 * text of several lines (a file's `content`, an edit's `replace`) is written as it is
 * under `name: |`, not as one JSON string of escaped newlines. The form reads YAML or JSON
 * back; `{}` for no arguments.
 */
export function argumentsText(value: unknown): string {
  if (value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0)) return Array.isArray(value) ? '[]' : '{}';
  const document = new Document(value);
  // A list of words (a command's argv) reads best on one line: [python, -m, pytest].
  visit(document, {
    Seq(_, node) {
      if (isSeq(node) && node.items.every((item) => isScalar(item) && !String(item.value).includes('\n'))) node.flow = true;
    },
  });
  return document.toString({ flowCollectionPadding: false, blockQuote: 'literal', lineWidth: 0, indent: 2 }).trimEnd();
}

/**
 * The arguments a tool requires, as a template to fill in (YAML like `argumentsText`):
 * each required parameter of its JSON Schema with an empty value of its type (a text `""`,
 * a list `[]` or, for a list of objects, one item with their own required fields), in the
 * schema's order; `{}` when it requires none.
 */
export function argumentsTemplate(parameters: Readonly<Record<string, unknown>>): string {
  return argumentsText(emptyValue(parameters, 0));
}

function emptyValue(schema: unknown, depth: number): unknown {
  if (typeof schema !== 'object' || schema === null) return '';
  const { type, properties, required, items } = schema as Record<string, unknown>;
  const kind: unknown = Array.isArray(type) ? type.find((entry) => entry !== 'null') : type;
  if (kind === 'object' || (kind === undefined && typeof properties === 'object' && properties !== null)) {
    const props = typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : {};
    const names = Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string' && Object.hasOwn(props, name)) : [];
    return depth >= templateDepth ? {} : Object.fromEntries(names.map((name) => [name, emptyValue(props[name], depth + 1)]));
  }
  if (kind === 'array') {
    const item = emptyValue(items, depth + 1);
    return typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).length > 0 ? [item] : [];
  }
  if (kind === 'number' || kind === 'integer') return 0;
  if (kind === 'boolean') return false;
  return '';
}

/**
 * Each argument as the card reads it: a text as it is, a value holding objects (`edit_file`'s `edits`) as YAML, one entry
 * to a line with a text of several lines under `|` (as JSON on one line it read as code, a trial found), any other value
 * (a command's argv, a number) as JSON on one line.
 */
export function argumentViews(args: Record<string, unknown>): ArgumentView[] {
  return Object.entries(args).map(([name, value]) => {
    const text = typeof value === 'string' ? value : holdsObjects(value) ? argumentsText(value) : (JSON.stringify(value) ?? String(value));
    return { name, text, block: text.includes('\n') };
  });
}

/** Whether `value` is an object, or a list holding one. */
function holdsObjects(value: unknown): boolean {
  const isObject = (item: unknown): boolean => typeof item === 'object' && item !== null;
  return Array.isArray(value) ? value.some(isObject) : isObject(value);
}
