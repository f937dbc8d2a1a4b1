import type { Step } from '../plan/planSchema';
import type { Clock } from '../servicePorts';
import { StepFailure } from '../tools/stepFailure';
import type { RunStop } from './runStop';

/**
 * Runs one attempt, settling as soon as the run stops or the step's `timeoutMs` (on
 * `clock`) passes, whether or not the attempt honours its signal. A timeout rejects with a
 * retryable `StepFailure` naming the step and its limit. Rejects at once, without starting
 * the attempt, when the run has already stopped.
 */
export function withinStepTimeout<T>(
  step: Pick<Step, 'id' | 'timeoutMs'>,
  stop: RunStop,
  clock: Clock,
  attempt: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  // Without a limit the attempt shares the run's signal: no controller or listener per step.
  if (step.timeoutMs === undefined) return stop.race(() => attempt(stop.signal));
  return withinLimit(step.id, step.timeoutMs, stop.signal, clock, attempt);
}

async function withinLimit<T>(stepId: string, limitMs: number, signal: AbortSignal, clock: Clock, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (signal.aborted) throw signal.reason;
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal.reason);
  // Stryker disable next-line ObjectLiteral: the listener is removed when the attempt ends, and an abort fires once.
  signal.addEventListener('abort', forward, { once: true });
  clock.sleep(limitMs, controller.signal).then(
    () => controller.abort(new StepFailure(`Step ${stepId} timed out after ${limitMs} ms; raise its timeoutMs or make it faster.`, true)),
    () => undefined,
  );
  try {
    return await raceAbort(attempt(controller.signal), controller.signal);
  } finally {
    // Stryker disable next-line BlockStatement: only frees the listener (a later stop aborts an ended attempt's controller, which nobody watches).
    signal.removeEventListener('abort', forward);
    // Clears the timeout's sleep; an attempt that timed out or was stopped keeps its first reason.
    // Stryker disable next-line StringLiteral: nobody reads the reason of an ended attempt.
    controller.abort(new Error('The attempt ended.'));
  }
}

/** Rejects with the signal's reason as soon as it aborts (at once when it has: the attempt may stop the run as it starts), whatever `promise` does. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
