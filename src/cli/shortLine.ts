import { outputEndLine } from '../core/text/outputEnd';

/**
 * The first line of `text` (a failure's message, which may carry a command's whole output)
 * in at most `max` characters, cut between words and marked "…", with "(more below)"-style
 * `more` appended when anything was left out. For the terminal's one-line mentions of a text
 * printed in full once elsewhere. A text whose first line ends in a command's output ("…; last output: > app@1.0 test",
 * a failed check) shows the end of that output instead, where it says why it failed (`outputEndLine`).
 */
export function shortLine(text: string, max = 160, more = ''): string {
  const trimmed = text.trim();
  const ending = outputEndLine(trimmed, max);
  if (ending !== undefined) return trimmed.includes('\n') && more ? `${ending} ${more}` : ending;
  const newline = trimmed.indexOf('\n');
  const first = (newline === -1 ? trimmed : trimmed.slice(0, newline)).trimEnd();
  const cutLines = newline !== -1;
  if (first.length <= max) return cutLines && more ? `${first} ${more}` : first;
  const head = first.slice(0, max);
  const space = head.lastIndexOf(' ');
  // A word longer than half the line (a path, a URL) is cut where the line ends, not moved whole to nothing.
  const kept = (space > max / 2 ? head.slice(0, space) : head).trimEnd();
  return `${kept}…${more ? ` ${more}` : ''}`;
}
