import { directionControlClass } from './vocabulary';

/** `char` as its visible escape `\uXXXX` (also a JSON escape of the same character). */
export function visibleEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

// C0 controls but tab and line feed, DEL, C1 controls, and the direction controls.
const actingControls = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${directionControlClass}]`, 'g');

/**
 * `text` with every character a terminal or a text view acts on instead of showing (C0
 * controls except tab and line feed, DEL, C1 controls, the text-direction controls)
 * replaced by its visible escape `\uXXXX`. Tabs and line feeds stay.
 */
export function visibleControls(text: string): string {
  return text.replace(actingControls, visibleEscape);
}

// Characters that take no room on screen: soft hyphen, Mongolian vowel separator, zero-width space, joiners, word joiner
// and invisible operators, and the byte order mark.
const invisibles = /[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]/g;

/**
 * `text` with every character that takes no room on screen (a byte order mark, a zero-width
 * space or joiner, a soft hyphen…) replaced by its visible escape `\uXXXX`: for a diff, where
 * a line that differs only by one would otherwise look unchanged. Everything else stays.
 */
export function visibleInvisibles(text: string): string {
  return text.replace(invisibles, visibleEscape);
}
