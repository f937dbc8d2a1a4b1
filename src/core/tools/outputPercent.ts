import { wholePercent, type ProgressPercent } from '../../shared/progressPercent';

/** Most characters of an unfinished output line kept between chunks. */
const maxCarriedChars = 200;

// Only percentages a program prints about its own progress: pytest's "[ 45%]" closing a line, and a progress
// bar's " 45%|" (tqdm, pip). A percentage anywhere else in the output (a coverage table, a log line) says nothing of how far the command is.
const percentPatterns: readonly RegExp[] = [/\[\s{0,2}(\d{1,3})%\]\s*$/, /(?:^|\s)(\d{1,3})%\|/];

/**
 * Reads a command's output as it streams for the progress the program reports of itself
 * (`percentPatterns`), line by line (`\n` or `\r`, so a bar redrawn in place counts),
 * a line cut between chunks read whole. Returns the latest percentage in `text`, or
 * `undefined` when it reports none: the command's progress stays unknown, never guessed.
 */
export function outputPercentReader(): (text: string) => ProgressPercent | undefined {
  let carried = '';
  return (text) => {
    const lines = (carried + text).split(/\r\n?|\n/);
    carried = (lines.at(-1) ?? '').slice(-maxCarriedChars);
    let found: ProgressPercent | undefined;
    for (const line of lines) {
      const tail = line.slice(-maxCarriedChars);
      for (const pattern of percentPatterns) {
        const match = pattern.exec(tail)?.[1];
        const value = match === undefined ? undefined : Number(match);
        if (value !== undefined && value <= 100) found = wholePercent(value);
      }
    }
    return found;
  };
}
