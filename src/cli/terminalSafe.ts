import { visibleControls } from '../shared/visibleCharacters';

/**
 * `text` made safe to write to a terminal: every character a terminal would act on is
 * replaced by its visible escape `\uXXXX` (ESC shows as `\u001b`), so nothing from a plan,
 * a model, a file or a tool can hide text, move the cursor or rewrite what was printed.
 * Tabs and line feeds stay. The escapes are JSON escapes too: JSON text stays valid JSON
 * with the same value. Everything the command line prints goes through this function.
 */
export function terminalSafe(text: string): string {
  // C0 controls (ESC starts colour, cursor and title sequences; CR rewrites a line; BS erases), DEL, C1 (U+009B is a one-character CSI), bidi controls.
  return visibleControls(text);
}
