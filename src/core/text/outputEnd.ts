import { oneLine } from './oneLine';

/** What a failed check's detail says before the command output it ends with (`evaluateCheck`). */
const lastOutput = 'last output: ';
/** Where the next check's failure starts in a diagnosis of several (`runChecks`): that check's output ends there. */
const nextCheck = /\nCheck \d+ \([^\n]*\) failed: /g;
/** Between the lines of the output on one line. */
const separator = ' | ';

/**
 * `text` on one line of at most `max` characters when its first line says "last output: " (a failed check's detail, a
 * diagnosis made of them): what comes before, then the END of that output, its last lines, where a failing command
 * says why ("# fail 1", "1 failing"), with "…" where lines were left out. Its start ("> tiny-notes@0.3.0 test", the
 * npm banner) said nothing (a newcomer's trial). `undefined` for any other text: its start is what to show. Only the
 * start of `text`, and of the output its last `4 × max` characters, are looked at, so a 5 MB text costs no more than a short one.
 */
export function outputEndLine(text: string, max: number): string | undefined {
  const start = text.slice(0, max * 4);
  const newline = start.indexOf('\n');
  const at = (newline === -1 ? start : start.slice(0, newline)).indexOf(lastOutput);
  if (at === -1) return undefined;
  nextCheck.lastIndex = at + lastOutput.length;
  const end = nextCheck.exec(text)?.index ?? text.length;
  const more = end < text.trimEnd().length ? ' …' : '';
  // Short enough to be said whole: its start and its end.
  const whole = end <= max * 4 ? oneLine(text.slice(0, end)) : undefined;
  if (whole !== undefined && whole.length + more.length <= max) return `${whole}${more}`;
  // What it says before, in at most two thirds of the line, always followed by "last output:".
  const before = oneLine(text.slice(0, at), Math.max(1, Math.floor((max * 2) / 3) - lastOutput.length));
  const lead = `${before}${before === '' ? '' : ' '}${lastOutput.trimEnd()}`;
  const from = at + lastOutput.length;
  const tail = text.slice(Math.max(from, end - max * 4), end);
  const cutBefore = end - max * 4 > from;
  const lines = tail
    .split('\n')
    .map((line) => oneLine(line))
    .filter((line) => line !== '' && line !== '…');
  const room = max - lead.length - 1 - more.length;
  const shown: string[] = [];
  let used = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!;
    const cost = line.length + (shown.length > 0 ? separator.length : 0);
    // "…" before what is shown when anything was left out.
    if (used + cost + (index > 0 || cutBefore ? 2 : 0) > room) break;
    shown.unshift(line);
    used += cost;
  }
  if (lines.length === 0) return `${lead}${more}`;
  if (shown.length === 0) {
    // Its last line alone is too long: that line's end.
    const last = lines[lines.length - 1]!;
    return `${lead} …${last.slice(-Math.max(1, room - 1)).replace(/^[\udc00-\udfff]/, '').trimStart()}${more}`;
  }
  const leftOut = shown.length < lines.length || cutBefore || tail.trimStart().startsWith('…');
  return `${lead} ${leftOut ? '… ' : ''}${shown.join(separator)}${more}`;
}
