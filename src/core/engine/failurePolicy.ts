import { attemptLimit } from '../plan/attemptLimit';
import type { Step } from '../plan/planSchema';
import { performedBy } from '../plan/stepKindTraits';

/** Why an attempt failed: the step itself errored, or its verification said no. */
export type FailureCause = 'error' | 'verification';

/** What happens after a failed attempt. */
export type FailureDecision =
  | { disposition: 'retry'; delayMs: number }
  | { disposition: 'skip' }
  | { disposition: 'fail'; halt: boolean; replan: boolean };

/** Exponential backoff between attempts, in milliseconds. */
export interface BackoffOptions {
  /** Delay before the second attempt; default 1000 ms. Doubles per further attempt. */
  baseDelayMs: number;
  /** Upper bound of any delay; default 30000 ms. */
  maxDelayMs: number;
}

/** Backoff defaults (docs/architecture.md §4 leaves the numbers to the engine). */
export const defaultBackoff: BackoffOptions = { baseDelayMs: 1000, maxDelayMs: 30_000 };

/** Delay before attempt `failedAttempt + 1`: base · 2^(failedAttempt − 1), capped. */
export function backoffDelayMs(failedAttempt: number, backoff: BackoffOptions): number {
  return Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.max(0, failedAttempt - 1));
}

/**
 * The failure table of docs/architecture.md §4, after attempt `attempt` (1-based) failed.
 * Errors use `onFailure`, and any policy retries while attempts remain (`maxAttempts`
 * counts them all); verification failures use `onVerificationFailure` and retry only
 * under `retry`. Once attempts are used up: `skip` → skipped; `stop` and `retry` →
 * run halts when the step is critical, else skipped; `replan` → failed, asking for a
 * repair plan. `retryable: false` (e.g. a rejected review) goes straight to the policy. A person's step whose
 * verification failed is asked again, whatever its policy and attempts.
 */
export function decideAfterFailure(
  step: Pick<Step, 'kind' | 'maxAttempts' | 'critical' | 'onFailure' | 'onVerificationFailure'>,
  attempt: number,
  cause: FailureCause,
  retryable: boolean,
  backoff: BackoffOptions = defaultBackoff,
): FailureDecision {
  // A person's "Done" that the step's checks refute is asked again at once, saying what failed: the person is in the loop
  // (each try is their answer, and "not done" ends it), and a newcomer's Done before the work had failed the whole run.
  if (cause === 'verification' && retryable && performedBy(step.kind, 'person')) return { disposition: 'retry', delayMs: 0 };
  const policy = cause === 'error' ? step.onFailure : step.onVerificationFailure;
  const mayRetry = retryable && (cause === 'error' || policy === 'retry');
  if (mayRetry && attempt < attemptLimit(step, policy)) {
    return { disposition: 'retry', delayMs: backoffDelayMs(attempt, backoff) };
  }
  if (policy === 'skip') return { disposition: 'skip' };
  if (policy === 'replan') return { disposition: 'fail', halt: false, replan: true };
  return step.critical ? { disposition: 'fail', halt: true, replan: false } : { disposition: 'skip' };
}
