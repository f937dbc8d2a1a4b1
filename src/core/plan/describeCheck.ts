import type { Check } from './planSchema';
import { directionControlClass } from '../../shared/vocabulary';
import { visibleEscape } from '../../shared/visibleCharacters';

/** Longest path, command line or expected text a check's description shows, in characters. */
export const maxCheckValueChars = 120;
/** Most checks of one step that `describeChecks` lists; the rest are counted. */
export const maxChecksListed = 5;

// Line breaks, tabs and every other control, DEL, C1 controls and direction controls: one
// check is one line, and nothing from a plan may move a cursor or reorder the text around it.
const controls = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${directionControlClass}]`, 'g');

/**
 * One check in plain words, on one line: "file exists src/a.ts", "file absent old.log",
 * "src/a.ts contains "export"", "src/a.ts matches /v\d+/", "command npm test exits 0",
 * "no new errors in the changed files". Every value from the plan is cut to
 * `maxCheckValueChars` characters (marked "…") and every control character is shown as
 * its escape `\uXXXX`, so the line is bounded and safe for a panel and a terminal.
 */
export function describeCheck(check: Check): string {
  switch (check.kind) {
    case 'file_exists':
      return `file exists ${shown(check.path)}`;
    case 'file_absent':
      return `file absent ${shown(check.path)}`;
    case 'file_contains': {
      const wants = [
        ...(check.text === undefined ? [] : [`contains "${shown(check.text)}"`]),
        ...(check.pattern === undefined ? [] : [`matches /${shown(check.pattern)}/`]),
      ];
      return wants.length === 0 ? `file exists ${shown(check.path)}` : `${shown(check.path)} ${wants.join(' and ')}`;
    }
    case 'command': {
      const where = check.cwd === undefined ? '' : ` in ${shown(check.cwd)}`;
      const output = check.outputContains === undefined ? '' : `, output contains "${shown(check.outputContains)}"`;
      return `command ${shown(check.argv.join(' '))}${where} exits ${check.expectExitCode ?? 0}${output}`;
    }
    case 'no_new_diagnostics':
      return check.paths === undefined || check.paths.length === 0
        ? 'no new errors in the changed files'
        : `no new errors in ${shown(check.paths.join(', '))}`;
  }
}

/**
 * A step's checks on one line, "file exists a.ts; command npm test exits 0", at most
 * `maxChecksListed` of them and then "and N more"; `undefined` when there are none. The
 * review panel and the command line show this line after their own "Checks" label.
 */
export function describeChecks(checks: readonly Check[] | undefined): string | undefined {
  if (checks === undefined || checks.length === 0) return undefined;
  const listed = checks.slice(0, maxChecksListed).map(describeCheck);
  const more = checks.length - listed.length;
  return `${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** `value` cut to `maxCheckValueChars` characters with its controls escaped (cut first, so a huge value costs little). */
function shown(value: string): string {
  let keep = maxCheckValueChars - 1;
  // Never keep half of a surrogate pair.
  if (/[\ud800-\udbff]/.test(value.charAt(keep - 1))) keep--;
  const cut = value.length <= maxCheckValueChars ? value : `${value.slice(0, keep)}…`;
  return cut.replace(controls, visibleEscape);
}
