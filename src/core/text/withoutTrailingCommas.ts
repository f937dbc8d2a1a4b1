/**
 * `text` (JSON as a model wrote it) without the commas that stand just before a closing `}` or `]`, outside strings:
 * `{"path": "a",}` reads as `{"path": "a"}`. Nothing else is repaired: an argument cut off mid-string (a reply that ran
 * out of tokens) must stay invalid, not be closed into a shorter file's content, as a general JSON repair would do.
 */
export function withoutTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  let pendingComma = -1;
  for (let index = 0; index < text.length; index++) {
    const character = text[index]!;
    if (inString) {
      out += character;
      if (character === '\\') out += text[++index] ?? '';
      else if (character === '"') inString = false;
      continue;
    }
    if (character === ',') {
      pendingComma = out.length;
    } else if (character === '}' || character === ']') {
      if (pendingComma >= 0) out = out.slice(0, pendingComma) + out.slice(pendingComma + 1);
      pendingComma = -1;
    } else if (!/\s/.test(character)) {
      pendingComma = -1;
    }
    if (character === '"') inString = true;
    out += character;
  }
  return out;
}
