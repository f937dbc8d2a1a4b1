/**
 * Arguments that start with "-" and a space or line break (a request written as a list,
 * "- bump the version\n- run npm test"): text, never an option. `args` has each one
 * replaced by a stand-in `parseArgs` takes for a positional or an option's value, and
 * `restore` puts the text back in what `parseArgs` made of `args`.
 */
export function textArguments(argv: readonly string[]): {
  args: string[];
  restore: <Parsed extends { values: Record<string, unknown>; positionals: string[] }>(parsed: Parsed) => Parsed;
} {
  const texts = new Map<string, string>();
  const args = argv.map((arg) => {
    if (!/^-\s/.test(arg)) return arg;
    // NUL never occurs in a real argument, so a stand-in cannot be mistaken for one.
    const standIn = `\u0000text${texts.size}\u0000`;
    texts.set(standIn, arg);
    return standIn;
  });
  const text = (value: unknown): unknown => (typeof value === 'string' ? (texts.get(value) ?? value) : value);
  return {
    args,
    restore: (parsed) => ({
      ...parsed,
      values: Object.fromEntries(
        Object.entries(parsed.values).map(([name, value]) => [name, Array.isArray(value) ? value.map(text) : text(value)]),
      ),
      positionals: parsed.positionals.map((positional) => texts.get(positional) ?? positional),
    }),
  };
}

/** What to add to `parseArgs`' error: how to give other text that starts with "-". */
export const dashTextHint =
  'A request or answer that starts with "-" followed by a space is text. For other text starting with "-", ' +
  'put "--" before it, after every option: task-planner plan --workspace DIR -- "-…"';
