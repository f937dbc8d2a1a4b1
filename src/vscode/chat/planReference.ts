import { createHash } from 'node:crypto';
import type { Plan } from '../../core/plan/planSchema';

/** How a plan is named in a Start button's `/run`: `plan-` and 12 hex digits. */
const referencePattern = /(?:^|\s)(plan-[0-9a-f]{12})(?=\s|$)/i;

/**
 * The name of `plan` exactly as it is: `plan-` and the first 12 hex digits of the SHA-256 of
 * its JSON with every object's keys sorted. Any change to the plan (a step, an argument, its
 * version, another plan) gives another name, so a Start button carrying it starts only the plan
 * it was shown with. Pure.
 */
export function planReference(plan: Plan): string {
  return `plan-${createHash('sha256').update(canonicalJson(plan)).digest('hex').slice(0, 12)}`;
}

/** The plan reference a `/run` request names (a Start button puts it there), lower-cased; `undefined` when it names none. */
export function referencedPlan(prompt: string): string | undefined {
  return referencePattern.exec(prompt)?.[1]?.toLowerCase();
}

/** `value` as JSON with the keys of every object sorted, so the same plan always gives the same text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
