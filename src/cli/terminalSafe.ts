import { directionControlClass, visibleEscape } from '../core/plan/visibleDirection';

/**
 * Characters a terminal acts on instead of showing: C0 controls except tab and line feed
 * (ESC starts colour, cursor and title sequences; CR rewrites a line; BS erases), DEL, C1
 * controls (U+009B is a one-character CSI), and the Unicode bidirectional overrides and
 * isolates that reorder what is shown.
 */
const unsafe = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${directionControlClass}]`, 'g');

/**
 * `text` made safe to write to a terminal: every character a terminal would act on is
 * replaced by its visible escape `\uXXXX` (ESC shows as `\u001b`), so nothing from a plan,
 * a model, a file or a tool can hide text, move the cursor or rewrite what was printed.
 * Tabs and line feeds stay. The escapes are JSON escapes too: JSON text stays valid JSON
 * with the same value. Everything the command line prints goes through this function.
 */
export function terminalSafe(text: string): string {
  return text.replace(unsafe, visibleEscape);
}
