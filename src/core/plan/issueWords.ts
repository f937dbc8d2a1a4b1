import type { z } from 'zod';
import { closestName } from '../../shared/closestName';

/** What a field of a plan is called where the user typed it: an argument of a tool, or a field of a step. */
export type FieldNoun = 'argument' | 'field';

/**
 * A schema's issue with `value` (a tool's arguments, a step) said in the words of the person who typed it: a field that is
 * missing by its name ("content is missing"), a value of the wrong type by what it should be ("check 1, argv should be a
 * list, not a text"), a field that does not exist with the one it probably meant (`known`: the names there are), the
 * choices of a field that has a few; another issue as the schema words it, after the field's name.
 */
export function issueWords(issue: z.core.$ZodIssue, value: unknown, noun: FieldNoun, known: readonly string[] = []): string {
  const where = placeOf(issue.path);
  if (issue.code === 'invalid_type') {
    const found = valueAt(value, issue.path);
    if (found === undefined) return `${where} is missing`;
    // A list is said with how to write one: "argv: npm test" is the mistake it answers.
    const expected = issue.expected === 'array' ? `${kindWords('array')} (one "- item" a line, or [a, b])` : kindWords(issue.expected);
    return `${where} should be ${expected}, not ${kindWords(kindOf(found))}`;
  }
  if (issue.code === 'unrecognized_keys') {
    const owner = issue.path.length === 0 ? '' : ` of ${where}`;
    return issue.keys
      .map((key) => {
        // Only where the names are known: a field deeper down is said without a guess.
        const meant = issue.path.length === 0 ? closestName(key, known, 2) : undefined;
        return `"${key}" is not ${noun === 'argument' ? 'an argument' : 'a field'} it takes${owner}${meant === undefined ? '' : ` (did you mean "${meant}"?)`}`;
      })
      .join('; ');
  }
  if (issue.code === 'invalid_value' && issue.values.length > 0) {
    return `${where} should be one of: ${issue.values.map((choice) => String(choice)).join(', ')}`;
  }
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

/** "check 1, argv" for `checks.0.argv`: a list's item by its number from 1, after the list's name made singular. */
function placeOf(path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  for (const key of path) {
    if (typeof key === 'number' && parts.length > 0) {
      const list = parts.pop()!;
      parts.push(list.endsWith('s') ? `${list.slice(0, -1)} ${key + 1}` : `${list} item ${key + 1}`);
    } else parts.push(typeof key === 'number' ? `item ${key + 1}` : String(key));
  }
  return parts.join(', ');
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** A type as a person who writes YAML or JSON knows it. */
function kindWords(kind: string): string {
  switch (kind) {
    case 'string':
      return 'a text';
    case 'array':
      return 'a list';
    case 'number':
    case 'int':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'a set of "name: value" fields';
    case 'null':
      return 'empty';
    default:
      return kind;
  }
}
