/** The Unicode controls that reorder how the text after them is shown (bidi embeddings, overrides, isolates and marks). */
const directionControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every text-direction control replaced by its visible escape `\uXXXX`, so a
 * title from a model or a plan file cannot reverse what an editor, a tree or a table shows
 * around it (a file name beside it, say). Right-to-left letters need no control and stay.
 */
export function visibleDirection(text: string): string {
  return text.replace(directionControls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
