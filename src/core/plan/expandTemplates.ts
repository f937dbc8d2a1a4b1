import { stepIdCharacter } from '../../shared/vocabulary';
import { valueText } from '../text/valueText';

/** Text with its placeholders filled in, and the placeholders that could not be. */
export interface TemplateExpansion {
  text: string;
  /** Placeholders left verbatim because their step or key has no result. */
  unresolved: string[];
}

const placeholderPattern = /\{\{\s*results\.([^{}\s]+?)\s*\}\}/g;
const wholeValueReference = new RegExp(`^\\$(${stepIdCharacter}+)$`);

/** The text a found reference is replaced with in a template. */
export type ReferenceText = (found: ResolvedReference) => string;

/** The template convention without knowing which tool made a result: strings raw, other values as compact JSON. */
const plainText: ReferenceText = (found) => valueText(found.value);

/**
 * Replaces `{{results.<id>}}` and `{{results.<id>.<key>…}}` with completed results, each as
 * `textOf` gives it (by default strings raw, other values as compact JSON; a run gives a
 * tool's result its one text form, `read_file`'s the file's text). An id may itself contain
 * dots; the longest prefix that names a result wins. Unresolvable placeholders stay verbatim.
 */
export function expandTemplatesDetailed(text: string, results: Readonly<Record<string, unknown>>, textOf: ReferenceText = plainText): TemplateExpansion {
  const unresolved: string[] = [];
  const expanded = text.replace(placeholderPattern, (whole, reference: string) => {
    const found = lookUp(reference, results);
    if (!found.ok) {
      unresolved.push(whole);
      return whole;
    }
    return textOf(found);
  });
  return { text: expanded, unresolved };
}

/** `expandTemplatesDetailed` without the report (docs/architecture.md §11 public name). */
export function expandTemplates(text: string, results: Readonly<Record<string, unknown>>): string {
  return expandTemplatesDetailed(text, results).text;
}

/**
 * Resolves templates in a step's `args`, deeply: strings are expanded, and a string whose
 * whole value is a reference (`"$<id>"`, or `"$<id>.<key>.<key>"` for a path into the
 * result, keys of arrays being indexes) becomes the value it names itself (not
 * stringified). A reference that names no result (an unknown step, a missing key, a key
 * the value only inherits such as `constructor`) stays as written and is reported in
 * `unresolved`, like a template. Templates inside a longer string take `textOf`'s text.
 */
export function resolveArgs(
  args: Readonly<Record<string, unknown>>,
  results: Readonly<Record<string, unknown>>,
  textOf: ReferenceText = plainText,
): { args: Record<string, unknown>; unresolved: string[] } {
  const unresolved: string[] = [];
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const reference = wholeValueReferenceOf(value);
      if (reference !== undefined) {
        const found = lookUp(reference, results);
        if (found.ok) return found.value;
        unresolved.push(value);
        return value;
      }
      const expansion = expandTemplatesDetailed(value, results, textOf);
      unresolved.push(...expansion.unresolved);
      return expansion.text;
    }
    if (Array.isArray(value)) return value.map(visit);
    if (isPlainObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, visit(inner)]));
    }
    return value;
  };
  return { args: visit(args) as Record<string, unknown>, unresolved };
}

/** The references (`<id>` or `<id>.<key>…`, without `results.`) of the `{{results.…}}` placeholders in `text`, in order. */
export function templateReferencesOf(text: string): string[] {
  return [...text.matchAll(placeholderPattern)].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));
}

/** The reference of an argument whose whole value is `"$<id>"` or `"$<id>.<key>…"` (without the `$`), else `undefined`. */
export function wholeValueReferenceOf(value: string): string | undefined {
  return wholeValueReference.exec(value)?.[1];
}

/** Where a reference led: the step id whose result it starts from, and the key path followed into it. */
export interface ResolvedReference {
  ok: true;
  value: unknown;
  id: string;
  keys: string[];
}

/**
 * The value `reference` (`<id>` or `<id>.<key>…`) names among `results`: the longest
 * prefix that is a result's id wins (ids may hold dots), then each key must be the value's
 * own (an inherited `constructor` or `__proto__` names nothing). An `undefined` value is
 * not found.
 */
export function lookUp(reference: string, results: Readonly<Record<string, unknown>>): ResolvedReference | { ok: false } {
  const parts = reference.split('.');
  for (let idLength = parts.length; idLength >= 1; idLength--) {
    const id = parts.slice(0, idLength).join('.');
    if (!Object.hasOwn(results, id)) continue;
    let value: unknown = results[id];
    const keys = parts.slice(idLength);
    for (const key of keys) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return { ok: false };
      value = (value as Record<string, unknown>)[key];
    }
    return value === undefined ? { ok: false } : { ok: true, value, id, keys };
  }
  return { ok: false };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}
