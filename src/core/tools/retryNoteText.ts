import { visibleControls } from '../../shared/visibleCharacters';
import type { RetryNote } from '../interactionPorts';
import { oneLine } from '../text/oneLine';

/** Most characters of the last error a retry's question shows. */
export const shownRetryErrorChars = 600;

/**
 * How a question asked by a retry says so (item 6 of issue 28): "Attempt 2 of 3. Attempt 1
 * failed: <its error>", the error on one line, at most `shownRetryErrorChars` characters,
 * every control and direction control as its escape (it comes from a command's output or a
 * model). Empty for a first attempt.
 */
export function describeRetry(retry: RetryNote | undefined): string {
  if (retry === undefined) return '';
  const head = `Attempt ${retry.attempt} of ${retry.of}.`;
  if (retry.lastError === undefined) return head;
  return `${head} Attempt ${retry.attempt - 1} failed: ${visibleControls(oneLine(retry.lastError, shownRetryErrorChars))}`;
}
