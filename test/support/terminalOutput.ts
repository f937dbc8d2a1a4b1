// What the CLI's terminal output must not hold raw, for the attacks on it (hostile models, MCP servers).

/** Characters a terminal acts on: C0 controls but tab and line feed, DEL, C1 controls, direction controls, line and paragraph separators. */
export const actingCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
/** Characters that take no room and show nothing: zero-width ones, the byte order mark, the tag characters. */
export const invisibleCharacters = /[\u200b\u2060\ufeff]|[\u{E0000}-\u{E007F}]/u;

/** The first character of `text` that `pattern` matches, named with its code point and what surrounds it; `undefined` when none. */
export function firstMatch(pattern: RegExp, text: string): string | undefined {
  const match = pattern.exec(text);
  if (!match) return undefined;
  return `U+${match[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${match.index}: ${JSON.stringify(text.slice(Math.max(0, match.index - 30), match.index + 30))}`;
}
