import { visibleControls, visibleEscape } from '../shared/visibleCharacters';
import { oneLine } from '../core/text/oneLine';

/**
 * Text from a model or a plan as the editor's own dialogs, tabs and pickers show it (issue
 * 27, E3 to E6): every control a view acts on made visible, blank space that could push the
 * real words out of sight collapsed, the length bounded, and nothing the workbench would
 * render as its own (a `$(codicon)`). Pure, so each rule is tested without the editor.
 */

/** Most check commands one question at Start lists, and the most characters of them it shows; the others ask when they run. */
export const startQuestionShown = { commands: 5, chars: 600 } as const;

/**
 * The first of `commands` (in order) that one question at Start can list so that each is
 * read where it is shown: at most `limits.commands`, at most `limits.chars` characters of
 * descriptions together (the first is always listed: the core already bounds one command).
 * The rest are not asked about at Start: each asks when it runs.
 */
export function commandsToAskAtStart<T>(
  commands: readonly T[],
  describe: (command: T) => string,
  limits: { commands: number; chars: number } = startQuestionShown,
): T[] {
  const asked: T[] = [];
  let chars = 0;
  for (const command of commands) {
    if (asked.length === limits.commands) break;
    const length = describe(command).length;
    if (asked.length > 0 && chars + length > limits.chars) break;
    asked.push(command);
    chars += length;
  }
  return asked;
}

// Characters that show nothing or only blank space but are not `\s`: zero-width ones (made visible) and blank-looking letters (made spaces).
const zeroWidth = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]/g;
const blankLooking = /[\u115f\u1160\u2800\u3164\uffa0]/g;

function withoutHiding(text: string): string {
  // A line or paragraph separator breaks the line, as a line feed does (visibleControls would show it as an escape).
  return visibleControls(text.replace(/\r\n?|[\u2028\u2029]/g, '\n')).replace(zeroWidth, visibleEscape).replace(blankLooking, ' ');
}

/** `text` on one line, at most `max` characters, with every control, direction control and zero-width character as its visible `\uXXXX`. */
export function shownLine(text: string, max: number): string {
  return oneLine(withoutHiding(text.slice(0, max * 4)), max);
}

/**
 * `text` (a review's prompt, a question) as a dialog's detail: controls visible, line
 * separators as line breaks, every run of blank space in a line one space, a run of blank
 * lines one blank line (none at the start or end), at most `limits.lines` lines and
 * `limits.chars` characters, the cut said in words, so the real sentence is never below
 * the fold.
 */
export function shownProse(text: string, limits: { chars: number; lines: number } = { chars: 2_000, lines: 24 }): string {
  const lines = withoutHiding(text.slice(0, limits.chars * 4))
    .replace(/[\u2028\u2029\u0085]/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim());
  const kept: string[] = [];
  for (const line of lines) {
    if (line === '' && (kept.length === 0 || kept.at(-1) === '')) continue;
    kept.push(line);
  }
  while (kept.at(-1) === '') kept.pop();
  let shown = kept.slice(0, limits.lines).join('\n');
  const cut = kept.length > limits.lines || shown.length > limits.chars || text.length > limits.chars * 4;
  if (shown.length > limits.chars) shown = shown.slice(0, limits.chars).replace(/[\ud800-\udbff]$/, '');
  return cut ? `${shown.trimEnd()}\n… (cut: the rest is not shown)` : shown;
}

/** `text` from a plan or a file, unable to form a link in a notification (which renders `[label](target)`, command links included). */
export function withoutLinks(text: string): string {
  return text.replace(/\]\s*\(/g, '] (');
}

/** `text` with every `$(` escaped, so a QuickPick or status bar label shows it as typed and never renders it as a codicon. */
export function withoutIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

/**
 * A suggestion of the model as a QuickPick label: one line of at most `max` characters,
 * controls visible, `$(icon)` shown as typed.
 */
export function shownSuggestion(suggestion: string, max = 200): string {
  return withoutIcons(shownLine(suggestion, max));
}

/**
 * A question as the single line a QuickPick's placeholder shows: each of its line breaks
 * kept as a visible " ⏎ " (not joined into one sentence), blank lines and blank space
 * collapsed, controls visible, at most `max` characters.
 */
export function shownQuestion(question: string, max = 400): string {
  return shownLine(shownProse(question, { chars: max, lines: 12 }).replace(/\n+/g, ' ⏎ '), max);
}

/** A workspace path as a tab or a dialog names it: as it is when it is plain, else as a JSON string with every invisible character escaped. */
export function shownPath(path: string): string {
  return /^[\w@%+=:,./~-]+$/.test(path) ? path : withoutHiding(JSON.stringify(path).replace(/[\u2028\u2029]/g, visibleEscape));
}
