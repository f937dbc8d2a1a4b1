/** One word of a command line after quote removal. */
export interface ShellWord {
  /** The word as the program receives it. */
  text: string;
  /** Whether any part of it was quoted or escaped (so it is written as an argument, never English). */
  quoted: boolean;
}

const blank = (char: string | undefined): boolean => char === ' ' || char === '\t';
// Outside single quotes these start syntax this reader does not run (pipes, lists, redirections, subshells,
// expansions, substitutions); a line break outside quotes ends a command as ";" does.
const unreadSyntax = new Set(['|', ';', '<', '>', '&', '(', ')', '$', '`', '\n']);
const unreadInDoubleQuotes = new Set(['$', '`']);

/**
 * The commands of `line` as a POSIX shell reads its words, each a non-empty list of words, in the order `&&` joins them.
 * In one pass over `line`: single quotes keep their text as written; in double quotes a backslash escapes only
 * `$` `` ` `` `"` `\` and a line break (which it removes with itself) and stays before any other character; outside quotes a
 * backslash escapes the next character (a line break: both removed); quoted, escaped and plain pieces without a blank
 * between them are one word (`--name="x y"` is `--name=x y`). Blanks are spaces and tabs only. `&&` splits commands only
 * outside quotes and with a blank (or the line's end) on each side. No expansion is done, so none is read: `undefined`
 * (no command) for an unclosed quote, a trailing backslash, any other operator or `&&` touching a word outside quotes,
 * `$` or `` ` `` outside single quotes, a comment (`#` starting a word), a variable assignment before the program
 * (`A=1 npm test`), a line break outside quotes, and an empty command. Globs and `~` are left as written.
 */
export function readShellCommands(line: string): ShellWord[][] | undefined {
  const commands: ShellWord[][] = [[]];
  let text: string | undefined;
  let quoted = false;
  const endWord = (): void => {
    if (text !== undefined) commands.at(-1)!.push({ text, quoted });
    text = undefined;
    quoted = false;
  };
  let index = 0;
  while (index < line.length) {
    const char = line[index]!;
    if (blank(char)) {
      endWord();
      index++;
    } else if (char === "'") {
      const close = line.indexOf("'", index + 1);
      if (close < 0) return undefined;
      text = (text ?? '') + line.slice(index + 1, close);
      quoted = true;
      index = close + 1;
    } else if (char === '"') {
      const read = doubleQuoted(line, index + 1);
      if (read === undefined) return undefined;
      text = (text ?? '') + read.text;
      quoted = true;
      index = read.end;
    } else if (char === '\\') {
      if (index + 1 >= line.length) return undefined;
      if (line[index + 1] !== '\n') {
        text = (text ?? '') + line[index + 1]!;
        quoted = true;
      }
      index += 2;
    } else if (char === '&' && text === undefined && line[index + 1] === '&' && (index + 2 === line.length || blank(line[index + 2]))) {
      commands.push([]);
      index += 2;
    } else if (unreadSyntax.has(char) || (char === '#' && text === undefined)) {
      return undefined;
    } else {
      // `A=1 npm test` runs npm with A set in its environment, not a program named "A=1".
      if (char === '=' && !quoted && commands.at(-1)!.length === 0 && /^[A-Za-z_]\w*$/.test(text ?? '')) return undefined;
      text = (text ?? '') + char;
      index++;
    }
  }
  endWord();
  return commands.every((command) => command.length > 0) ? commands : undefined;
}

/** The text of double quotes opened before `start` and where reading goes on after their close; `undefined` when unclosed or holding an expansion. */
function doubleQuoted(line: string, start: number): { text: string; end: number } | undefined {
  let text = '';
  let index = start;
  for (;;) {
    if (index >= line.length) return undefined;
    const char = line[index]!;
    if (char === '"') return { text, end: index + 1 };
    if (unreadInDoubleQuotes.has(char)) return undefined;
    const next = line[index + 1];
    // Before any other character the backslash stays: `node -e "…\n…"` lost it and printed an "n" (a trial).
    if (char === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') text += next;
      index += 2;
    } else {
      text += char;
      index++;
    }
  }
}
