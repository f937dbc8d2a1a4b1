/** JavaScript's `\s` (whitespace and line terminators), spelled for RE2, for use inside a character class. */
const jsSpaces = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
const jsLineTerminators = '\\n\\r\\x{2028}\\x{2029}';

/** A JavaScript pattern feature RE2 has no linear-time equivalent for. */
export class UnsupportedRegexError extends Error {
  constructor(readonly feature: string) {
    super(feature);
  }
}

/**
 * Translates a JavaScript regular expression (already known to be valid for `new RegExp`
 * without the `u` flag) into RE2 syntax with the same meaning where RE2 can express it:
 * `.` and `$` treat `\r`, U+2028 and U+2029 as line ends like JavaScript (so `x$` finds
 * `x` before a CRLF), `\s` means JavaScript's whitespace set, `(?<name>…)` becomes
 * `(?P<name>…)`, `\uXXXX` becomes `\x{XXXX}`, `\cX` a control character, `[^]` any
 * character and `[]` nothing, and identity escapes such as `\a` stay the letter. `\u{…}`
 * and `\p{…}` keep their `u`-flag meaning (a code point, a Unicode property). Throws
 * `UnsupportedRegexError` naming the feature for backreferences, lookahead, lookbehind and
 * octal escapes.
 */
export function jsRegexToRe2(source: string): string {
  let out = '';
  let index = 0;
  while (index < source.length) {
    const char = source[index] as string;
    if (char === '\\') {
      const [text, next] = escapeOutside(source, index);
      out += text;
      index = next;
    } else if (char === '[') {
      const [text, next] = characterClass(source, index);
      out += text;
      index = next;
    } else if (char === '(' && source[index + 1] === '?') {
      const [text, next] = groupOpening(source, index);
      out += text;
      index = next;
    } else {
      out += char === '.' ? `[^${jsLineTerminators}]` : char === '$' ? `(?:$|[\\r\\x{2028}\\x{2029}])` : char;
      index++;
    }
  }
  return out;
}

function groupOpening(source: string, index: number): [string, number] {
  const rest = source.slice(index + 2, index + 4);
  if (rest.startsWith('=') || rest.startsWith('!')) throw new UnsupportedRegexError('lookahead ((?=…) or (?!…))');
  if (rest === '<=' || rest === '<!') throw new UnsupportedRegexError('lookbehind ((?<=…) or (?<!…))');
  if (rest.startsWith('<')) return ['(?P<', index + 3];
  return ['(?', index + 2];
}

function escapeOutside(source: string, index: number): [string, number] {
  const next = source[index + 1] ?? '';
  if (next === 's') return [`[${jsSpaces}]`, index + 2];
  if (next === 'S') return [`[^${jsSpaces}]`, index + 2];
  if (/[1-9]/.test(next) || (next === 'k' && source[index + 2] === '<')) throw new UnsupportedRegexError('backreferences (\\1, \\k<name>)');
  if ('bB'.includes(next)) return [`\\${next}`, index + 2];
  return commonEscape(source, index);
}

/** Escapes that mean the same inside and outside a class; `index` is at the backslash. */
function commonEscape(source: string, index: number): [string, number] {
  const next = source[index + 1] ?? '';
  if ('dDwWnrtfv'.includes(next)) return [`\\${next}`, index + 2];
  if (next === '0') {
    if (/[0-9]/.test(source[index + 2] ?? '')) throw new UnsupportedRegexError('octal escapes (\\0 followed by digits)');
    return ['\\x00', index + 2];
  }
  const hex2 = /^x([0-9a-fA-F]{2})/.exec(source.slice(index + 1, index + 4));
  if (hex2) return [`\\x{${hex2[1]}}`, index + 4];
  const hex4 = /^u([0-9a-fA-F]{4})/.exec(source.slice(index + 1, index + 6));
  if (hex4) return [`\\x{${hex4[1]}}`, index + 6];
  const codePoint = /^u\{([0-9a-fA-F]{1,6})\}/.exec(source.slice(index + 1));
  if (codePoint) return [`\\x{${codePoint[1]}}`, index + 2 + codePoint[0].length];
  const property = /^[pP]\{[A-Za-z_=]+\}/.exec(source.slice(index + 1));
  if (property) return [`\\${property[0]}`, index + 1 + property[0].length];
  const control = /^c([A-Za-z])/.exec(source.slice(index + 1, index + 3));
  if (control) return [literal(String.fromCharCode((control[1] as string).charCodeAt(0) % 32)), index + 3];
  // Any other escape is the character itself in JavaScript (an identity escape).
  const code = source.codePointAt(index + 1) as number;
  return [literal(String.fromCodePoint(code)), index + 1 + (code > 0xffff ? 2 : 1)];
}

function characterClass(source: string, index: number): [string, number] {
  let at = index + 1;
  const negated = source[at] === '^';
  if (negated) at++;
  // In JavaScript a `]` right after `[` or `[^` closes the class: `[]` matches nothing, `[^]` anything.
  if (source[at] === ']') return [negated ? '[\\x{0}-\\x{10FFFF}]' : '[^\\x{0}-\\x{10FFFF}]', at + 1];
  let body = '';
  while (at < source.length && source[at] !== ']') {
    const char = source[at] as string;
    if (char === '\\') {
      const next = source[at + 1] ?? '';
      if (next === 's') {
        body += jsSpaces;
        at += 2;
      } else if (next === 'S') {
        body += '\\S';
        at += 2;
      } else if (next === 'b') {
        body += '\\x08';
        at += 2;
      } else if (next === '-') {
        body += '\\-';
        at += 2;
      } else if (/[1-9]/.test(next)) {
        throw new UnsupportedRegexError('octal escapes in a character class');
      } else {
        const [text, following] = commonEscape(source, at);
        body += text;
        at = following;
      }
    } else {
      // A `[` is plain inside a JavaScript class; RE2 would read `[:` as a POSIX class.
      body += char === '[' ? '\\[' : char;
      at++;
    }
  }
  return [`[${negated ? '^' : ''}${body}]`, at + 1];
}

/** `text` (one character) as an RE2 literal. */
function literal(text: string): string {
  return /[A-Za-z0-9 _]/.test(text) ? text : `\\x{${(text.codePointAt(0) as number).toString(16)}}`;
}
