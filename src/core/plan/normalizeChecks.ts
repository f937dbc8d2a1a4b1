import { checkKinds, maxChecksPerStep } from '../../shared/vocabulary';
import { checkSchema, type Check } from './planSchema';
import { describeRaw, isRecord } from './rawValues';

/**
 * A raw step's `checks` in canonical form (the first `maxChecksPerStep`). Accepts `type` for `kind`, and for a command
 * `command`/`cmd` (a list, or a line split at spaces) for `argv`. Every malformed entry is
 * dropped with a warning naming the step, the check's number and what was wrong.
 */
export function normalizeChecks(value: unknown, stepId: string, warnings: string[]): Check[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.push(`Step "${stepId}": "checks" must be a list of checks, got ${describeRaw(value)}; it was ignored.`);
    return [];
  }
  if (value.length > maxChecksPerStep) warnings.push(`Step "${stepId}" has ${value.length} checks; only the first ${maxChecksPerStep} were kept.`);
  const checks: Check[] = [];
  for (const [index, raw] of value.slice(0, maxChecksPerStep).entries()) {
    const problem = (what: string): void => void warnings.push(`Step "${stepId}": check ${index + 1} was dropped: ${what}.`);
    if (!isRecord(raw)) {
      problem(`it is not an object with a "kind" (${describeRaw(raw)})`);
      continue;
    }
    const candidate = canonical(raw);
    if (typeof candidate.kind !== 'string' || !(checkKinds as readonly string[]).includes(candidate.kind)) {
      problem(`its kind ${describeRaw(candidate.kind ?? 'is missing')} is not one of ${checkKinds.join(', ')}`);
      continue;
    }
    const parsed = checkSchema.safeParse(candidate);
    if (!parsed.success) {
      // The kind is known by now, so every issue is about a field.
      problem(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
      continue;
    }
    checks.push(parsed.data);
  }
  return checks;
}

/** The check with its aliases resolved and unknown fields left for the schema to strip. */
function canonical(raw: Record<string, unknown>): Record<string, unknown> {
  const { type, command, cmd, ...rest } = raw;
  const kind = rest.kind ?? type;
  const candidate: Record<string, unknown> = { ...rest, kind: typeof kind === 'string' ? kind.trim().toLowerCase() : kind };
  const line = command ?? cmd;
  if (candidate.argv === undefined && line !== undefined) {
    candidate.argv = typeof line === 'string' ? line.trim().split(/\s+/).filter((arg) => arg !== '') : line;
  }
  return candidate;
}
