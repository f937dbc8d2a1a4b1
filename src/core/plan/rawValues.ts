/**
 * Readers for loosely typed values written by LLMs: they accept the usual variations and
 * return `undefined` (or an empty list) instead of throwing.
 */

/** True for plain objects (not arrays, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The first non-blank string among `values`; finite numbers count, stringified. */
export function firstString(...values: unknown[]): string | undefined {
  for (const value of values) {
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/** A dependency field as a list of ids: a scalar becomes a one-element list, elements are stringified. */
export function dependencyList(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value])
    .filter((dep) => dep !== null && dep !== undefined && typeof dep !== 'object')
    .map((dep) => String(dep));
}

/** A short, never-throwing description of any raw value for warnings (objects may lack `toString`). */
export function describeRaw(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `${value.slice(0, 39)}…` : value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json.length > 40 ? `${json.slice(0, 39)}…` : json;
  } catch {
    // fall through: cyclic or exotic values
  }
  return typeof value;
}
