import type { Step } from './planSchema';

/**
 * `next` (a step after an edit of `before`) with its attempts consistent with its failure
 * policy: a `retry` step gets at least 2 attempts (the first try and one retry), and a step
 * whose policy left `retry` while its attempts stayed those the retry had is tried once, so
 * "On failure: stop" does not keep retrying. Pure; `next` itself when nothing changes.
 */
export function consistentAttempts(next: Step, before?: Pick<Step, 'onFailure' | 'maxAttempts'>): Step {
  if (next.onFailure === 'retry') return next.maxAttempts >= 2 ? next : { ...next, maxAttempts: 2 };
  const leftRetry = before?.onFailure === 'retry' && next.maxAttempts === before.maxAttempts && next.maxAttempts > 1;
  return leftRetry ? { ...next, maxAttempts: 1 } : next;
}
