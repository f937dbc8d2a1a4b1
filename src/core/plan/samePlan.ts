import type { Plan } from './planSchema';

/**
 * Whether two plans say the same but for their version: every field equal, whatever the order of an object's keys,
 * a field that is `undefined` the same as one that is absent. An edit that changes nothing (a form saved as it was)
 * gives such a plan.
 */
export function samePlan(a: Plan, b: Plan): boolean {
  return sameValue({ ...a, version: 0 }, { ...b, version: 0 });
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}
