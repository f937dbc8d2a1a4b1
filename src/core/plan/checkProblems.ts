import { RE2JS } from 're2js';
import { jsRegexToRe2, UnsupportedRegexError } from '../tools/jsRegexToRe2';
import { PathRefusedError, normalizeWorkspacePath } from '../workspace/resolveInRoot';
import { errorMessage } from '../../shared/errorMessage';
import type { Check, Step } from './planSchema';

/**
 * What is wrong with `step`'s checks, one message per problem in the user's words: a
 * `file_contains` with neither text nor pattern, a pattern that is not a valid regular
 * expression, a command without a program, and paths that leave the workspace as written
 * (absolute, `..`, device or disguised paths). For checks within `checkLimitProblems`'
 * limits: a pattern is compiled, so its size must be bounded first.
 */
export function checkProblems(step: Step): string[] {
  const problems: string[] = [];
  for (const [index, check] of (step.checks ?? []).entries()) {
    const name = `Step "${step.id}": check ${index + 1} (${check.kind})`;
    for (const path of pathsOf(check)) {
      const refusal = pathRefusal(path.value);
      if (refusal === undefined) continue;
      problems.push(`${name} has a ${path.field} that leaves the workspace: ${refusal}. Use a path relative to the workspace folder.`);
    }
    if (check.kind === 'file_contains') {
      if (check.text === undefined && check.pattern === undefined) {
        problems.push(`${name} says neither what text nor what pattern to look for; give "text" or "pattern".`);
      }
      if (check.pattern !== undefined) {
        const problem = patternProblem(check.pattern);
        if (problem !== undefined) problems.push(`${name} has a pattern that ${problem}.`);
      }
    }
    if (check.kind === 'command' && (check.argv[0] ?? '').trim() === '') {
      problems.push(`${name} names no program to run; put the program first in "argv", e.g. ["npm", "test"].`);
    }
  }
  return problems;
}

/** Why `pattern` cannot run, in words, or `undefined` when it can (JavaScript syntax, run on RE2). */
function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'm');
  } catch (error) {
    return `is not a valid regular expression: ${errorMessage(error)}`;
  }
  try {
    RE2JS.compile(jsRegexToRe2(pattern), RE2JS.MULTILINE);
    return undefined;
  } catch (error) {
    const what = error instanceof UnsupportedRegexError ? `uses ${error.feature}, which` : 'cannot run because it';
    return `${what} is not supported: checks run patterns on a linear-time engine (RE2) so that no pattern can freeze them`;
  }
}

function pathsOf(check: Check): { field: string; value: string }[] {
  switch (check.kind) {
    case 'file_exists':
    case 'file_absent':
    case 'file_contains':
      return [{ field: 'path', value: check.path }];
    case 'command':
      return check.cwd === undefined ? [] : [{ field: 'working directory', value: check.cwd }];
    case 'no_new_diagnostics':
      return (check.paths ?? []).map((value) => ({ field: 'path', value }));
  }
}

function pathRefusal(path: string): string | undefined {
  try {
    normalizeWorkspacePath(path);
    return undefined;
  } catch (error) {
    return error instanceof PathRefusedError ? error.reason : errorMessage(error);
  }
}
