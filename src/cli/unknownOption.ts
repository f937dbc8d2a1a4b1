import { errorMessage } from '../shared/errorMessage';
import { dashTextHint } from './textArguments';

/** Most edits between a mistyped option and the one meant ("--concurency" → "--concurrency" is one). */
const maxEdits = 2;

/**
 * What the command line says of arguments `parseArgs` refused (`error`), given the options it knows (`names`, without
 * dashes): an unknown option close to a known one is named as a typo ("Did you mean --concurrency?"), without
 * Node's advice about positional arguments; anything else keeps that advice and how to give text starting with "-".
 */
export function parseErrorMessage(error: unknown, names: readonly string[]): string {
  const message = errorMessage(error);
  const unknown = /^Unknown option '--?([^'=]+)'/.exec(message)?.[1];
  const near = unknown === undefined ? undefined : closest(unknown, names);
  if (unknown !== undefined && near !== undefined) return `Unknown option --${unknown}. Did you mean --${near}?`;
  // Node's sentence about "--" leaves a quote open and is said again, better, by the hint.
  const own = message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '.');
  return `${own}\n${dashTextHint}`;
}

/** The name of `names` fewest edits away from `typed`, when within `maxEdits`; the first of equals. */
function closest(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const name of names) {
    const edits = editDistance(typed, name);
    if (edits <= maxEdits && (best === undefined || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}

/** Levenshtein distance: insertions, deletions and substitutions of one character each. */
function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}
