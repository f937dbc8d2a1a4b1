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

/**
 * Replaces `{{results.<id>}}` and `{{results.<id>.<key>…}}` with completed results:
 * strings raw, other values as compact JSON. An id may itself contain dots; the longest
 * prefix that names a result wins. Unresolvable placeholders stay verbatim.
 */
export function expandTemplatesDetailed(text: string, results: Readonly<Record<string, unknown>>): TemplateExpansion {
  const unresolved: string[] = [];
  const expanded = text.replace(placeholderPattern, (whole, reference: string) => {
    const found = lookUp(reference, results);
    if (!found.ok) {
      unresolved.push(whole);
      return whole;
    }
    return valueText(found.value);
  });
  return { text: expanded, unresolved };
}

/** `expandTemplatesDetailed` without the report (docs/architecture.md §11 public name). */
export function expandTemplates(text: string, results: Readonly<Record<string, unknown>>): string {
  return expandTemplatesDetailed(text, results).text;
}

/**
 * Resolves templates in a step's `args`, deeply: strings are expanded, and a string whose
 * whole value is `"$<id>"` becomes that step's result value itself (not stringified).
 */
export function resolveArgs(
  args: Readonly<Record<string, unknown>>,
  results: Readonly<Record<string, unknown>>,
): { args: Record<string, unknown>; unresolved: string[] } {
  const unresolved: string[] = [];
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = wholeValueReference.exec(value);
      if (whole?.[1] !== undefined && Object.hasOwn(results, whole[1])) return results[whole[1]];
      const expansion = expandTemplatesDetailed(value, results);
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

function lookUp(reference: string, results: Readonly<Record<string, unknown>>): { ok: true; value: unknown } | { ok: false } {
  const parts = reference.split('.');
  for (let idLength = parts.length; idLength >= 1; idLength--) {
    const id = parts.slice(0, idLength).join('.');
    if (!Object.hasOwn(results, id)) continue;
    let value: unknown = results[id];
    for (const key of parts.slice(idLength)) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return { ok: false };
      value = (value as Record<string, unknown>)[key];
    }
    return value === undefined ? { ok: false } : { ok: true, value };
  }
  return { ok: false };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}
