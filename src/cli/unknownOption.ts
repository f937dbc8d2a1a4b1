import { errorMessage } from '../shared/errorMessage';
import { dashTextHint } from './textArguments';
import { closestName } from '../shared/closestName';

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
  const near = unknown === undefined ? undefined : closestName(unknown, names, maxEdits);
  if (unknown !== undefined && near !== undefined) return `Unknown option --${unknown}. Did you mean --${near}?`;
  // Node's sentence about "--" leaves a quote open and is said again, better, by the hint.
  const own = message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '.');
  return `${own}\n${dashTextHint}`;
}
