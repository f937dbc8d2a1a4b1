import { directionControlClass } from './vocabulary';

/** `char` as its visible escape `\uXXXX` (also a JSON escape of the same character): a character beyond U+FFFF as its two halves. */
export function visibleEscape(char: string): string {
  let escaped = '';
  for (let index = 0; index < char.length; index++) escaped += `\\u${char.charCodeAt(index).toString(16).padStart(4, '0')}`;
  return escaped;
}

// Characters that take no room on screen and show nothing: zero-width space, non-joiner and joiner, word joiner and the
// invisible operators, and the byte order mark (zero-width no-break space).
const zeroWidthClass = '\\u200b-\\u200d\\u2060-\\u2064\\ufeff';

// More that show nothing where text is read: the soft hyphen, the combining grapheme joiner, the Khmer inherent vowels, the
// Mongolian vowel separator and free variation selectors, the interlinear annotation controls, the musical format controls
// and the tag characters U+E0000–U+E007F, with which a model can spell words no one sees ("ASCII smuggling": an outside
// attack had the CLI print such a word in a step's title). The Hangul fillers show as blank space, and stay.
const blankClass = '\\u00ad\\u034f\\u17b4\\u17b5\\u180b-\\u180f\\ufff9-\\ufffb\\u{1d173}-\\u{1d17a}\\u{e0000}-\\u{e007f}';

// A zero-width joiner between two pictographs (an emoji's skin tone or presentation selector may come between) joins
// them into one emoji (👩‍💻, 👨‍👩‍👧): it hides nothing, and escaping it would split every such emoji.
const emojiJoiner = '(?<=\\p{Extended_Pictographic}[\\u{fe0f}\\u{1f3fb}-\\u{1f3ff}]?)\\u200d(?=\\p{Extended_Pictographic})';

// A zero-width non-joiner between two letters (or marks) of a script that writes with it (Persian, the Indic scripts)
// keeps them apart as the language spells it; between ASCII letters it could only make two words look alike.
const scriptNonJoiner = '(?<=[\\p{L}\\p{M}])(?<![\\u0000-\\u007f])\\u200c(?=[\\p{L}\\p{M}])(?![\\u0000-\\u007f])';

// C0 controls but tab and line feed, DEL, C1 controls, the line and paragraph separators, the direction controls, the
// zero-width characters (but a joiner inside an emoji, and a non-joiner inside a word of a script that writes with it) and
// the other blank ones.
const actingControls = new RegExp(
  `(?!${emojiJoiner})(?!${scriptNonJoiner})[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u2028\\u2029${directionControlClass}${zeroWidthClass}${blankClass}]`,
  'gu',
);

/**
 * `text` with every character a terminal or a text view acts on or shows as nothing instead
 * of showing (C0 controls except tab and line feed, DEL, C1 controls, the line and paragraph
 * separators U+2028/U+2029, the text-direction controls, the zero-width characters U+200B–U+200D,
 * U+2060–U+2064, the byte order mark U+FEFF, and characters that show nothing where text is read: the soft hyphen, the
 * tag characters U+E0000–U+E007F and the like) replaced by its visible escape `\uXXXX`. Tabs
 * and line feeds stay, and so does a zero-width joiner between two pictographs (it joins them
 * into one emoji) and a zero-width non-joiner between two letters outside ASCII (Persian and
 * the Indic scripts spell words with it).
 */
export function visibleControls(text: string): string {
  return text.replace(actingControls, visibleEscape);
}

// Characters that take no room on screen: the zero-width ones and the other blank ones.
// eslint-disable-next-line no-misleading-character-class -- a class of single code points: the combining grapheme joiner is one of them, alone.
const invisibles = new RegExp(`[${zeroWidthClass}${blankClass}]`, 'gu');

/**
 * `text` with every character that takes no room on screen (a byte order mark, a zero-width
 * space or joiner, a soft hyphen…) replaced by its visible escape `\uXXXX`: for a diff, where
 * a line that differs only by one would otherwise look unchanged. Everything else stays.
 */
export function visibleInvisibles(text: string): string {
  return text.replace(invisibles, visibleEscape);
}
