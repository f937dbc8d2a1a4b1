/**
 * `value` as one word of a command line the user may paste: as it is when it holds only characters no shell acts on, else
 * in single quotes, in which neither a POSIX shell nor PowerShell expands anything (`$(…)`, backquotes, `$VAR`). A run id,
 * a step id or a path printed in a command to paste may come from a model or a repository's journal: double quotes (what
 * `JSON.stringify` gives) left `$(…)` to run when the line was pasted (an outside attack).
 */
export function shellWord(value: string, platform: NodeJS.Platform = process.platform): string {
  if (/^[\w.:/@+=%-]+$/.test(value)) return value;
  // PowerShell doubles a single quote inside single quotes; a POSIX shell closes, escapes and opens again.
  return platform === 'win32' ? `'${value.replaceAll("'", "''")}'` : `'${value.replaceAll("'", "'\\''")}'`;
}
