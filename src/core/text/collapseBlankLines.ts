/** Most blank lines in a row a text shown to a person keeps (see `collapseBlankLines`). */
const maxBlankLines = 2;

/**
 * `text` with every run of more than two blank (empty or whitespace-only) lines replaced
 * by two blank lines around one line saying how many were left out, so a wall of blank
 * lines cannot push what follows out of sight. Other lines are kept as they are.
 */
export function collapseBlankLines(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let blanks = 0;
  const endRun = (): void => {
    if (blanks > maxBlankLines) kept.push('', `… (${blanks - maxBlankLines} more blank lines left out)`, '');
    else for (let index = 0; index < blanks; index++) kept.push('');
    blanks = 0;
  };
  for (const line of lines) {
    if (line.trim() === '') {
      blanks++;
      continue;
    }
    endRun();
    kept.push(line);
  }
  endRun();
  return kept.join('\n');
}
