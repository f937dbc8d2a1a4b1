import { maxChecksPerStep } from '../../shared/vocabulary';
import type { Check, Step } from './planSchema';
/** Longest path, text, pattern, working folder or command-line word of one check, in characters. */
export const maxCheckFieldChars = 2_000;
/** Most command-line words of one command check. */
export const maxCheckArgvItems = 100;

/**
 * What is too big about `step`'s checks, in the user's words (empty when nothing is): more
 * than `maxChecksPerStep` checks, and the first check with a field longer than
 * `maxCheckFieldChars` characters or a command of more than `maxCheckArgvItems` words.
 * Linear in the checks; one message per kind of problem, however many checks have it.
 */
export function checkLimitProblems(step: Pick<Step, 'id' | 'checks'>): string[] {
  const checks = step.checks ?? [];
  const problems: string[] = [];
  if (checks.length > maxChecksPerStep) {
    problems.push(`Step "${step.id}" has ${checks.length} checks; at most ${maxChecksPerStep} are allowed. Keep the few that show the step worked.`);
  }
  for (const [index, check] of checks.entries()) {
    const problem = oversized(check);
    if (problem !== undefined) {
      problems.push(`Step "${step.id}": check ${index + 1} (${check.kind}) ${problem}. Shorten it.`);
      break;
    }
  }
  return problems;
}

function oversized(check: Check): string | undefined {
  if (check.kind === 'command' && check.argv.length > maxCheckArgvItems) {
    return `runs a command of ${check.argv.length} words; at most ${maxCheckArgvItems} are allowed`;
  }
  for (const [field, value] of fieldsOf(check)) {
    if (value.length > maxCheckFieldChars) return `has a ${field} of ${value.length} characters; at most ${maxCheckFieldChars} are allowed`;
  }
  return undefined;
}

/** Every text field of `check`, by the name the user sees. */
function fieldsOf(check: Check): [string, string][] {
  switch (check.kind) {
    case 'file_exists':
    case 'file_absent':
      return [['path', check.path]];
    case 'file_contains':
      return [['path', check.path], ...optional('text', check.text), ...optional('pattern', check.pattern)];
    case 'command':
      return [
        ...check.argv.map((word): [string, string] => ['command word', word]),
        ...optional('working folder', check.cwd),
        ...optional('expected output', check.outputContains),
      ];
    case 'no_new_diagnostics':
      return (check.paths ?? []).map((path): [string, string] => ['path', path]);
  }
}

function optional(field: string, value: string | undefined): [string, string][] {
  return value === undefined ? [] : [[field, value]];
}
