import type { FailurePolicy, Step } from './planSchema';

/**
 * Total attempts a step may use under `policy`. A `retry` policy always allows at least
 * one retry: asking for retries while allowing none would be contradictory.
 */
export function attemptLimit(step: Pick<Step, 'maxAttempts'>, policy: FailurePolicy): number {
  return policy === 'retry' ? Math.max(2, step.maxAttempts) : step.maxAttempts;
}
