import { directionControlClass } from '../../shared/vocabulary';
import { visibleEscape } from '../../shared/visibleCharacters';

const directionControls = new RegExp(`[${directionControlClass}]`, 'g');

/**
 * `text` with every text-direction control replaced by its visible escape `\uXXXX`, so a
 * title from a model or a plan file cannot reverse what an editor, a tree or a table shows
 * around it (a file name beside it, say). Right-to-left letters need no control and stay.
 */
export function visibleDirection(text: string): string {
  return text.replace(directionControls, visibleEscape);
}
