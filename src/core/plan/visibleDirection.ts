/** The Unicode controls that reorder how the text after them is shown (bidi embeddings, overrides, isolates and marks), as a character-class body. */
export const directionControlClass = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';

const directionControls = new RegExp(`[${directionControlClass}]`, 'g');

/** `char` as its visible escape `\uXXXX` (also a JSON escape of the same character). */
export function visibleEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every text-direction control replaced by its visible escape `\uXXXX`, so a
 * title from a model or a plan file cannot reverse what an editor, a tree or a table shows
 * around it (a file name beside it, say). Right-to-left letters need no control and stay.
 */
export function visibleDirection(text: string): string {
  return text.replace(directionControls, visibleEscape);
}
