import { StepFailure } from '../tools/stepFailure';
import type { Clock } from '../servicePorts';

/**
 * Runs `work` with a signal that aborts when `signal` does or when `limitMs` pass on
 * `clock` (never with `limitMs` `Infinity`). When the limit is what stopped it, the result is a retryable `StepFailure`
 * naming `what` and the limit; a cancellation of `signal` propagates as it is.
 */
export async function withTimeLimit<T>(
  clock: Clock,
  signal: AbortSignal,
  limitMs: number,
  what: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  signal.throwIfAborted();
  if (limitMs === Number.POSITIVE_INFINITY) return work(signal);
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  let timedOut = false;
  const timer = new AbortController();
  clock.sleep(limitMs, timer.signal).then(
    () => {
      timedOut = true;
      controller.abort(new StepFailure(`${what} timed out after ${limitMs} ms.`, true));
    },
    () => undefined,
  );
  try {
    return await work(controller.signal);
  } catch (error) {
    if (timedOut && !signal.aborted) throw new StepFailure(`${what} timed out after ${limitMs} ms; raise agentLimits.timeoutMs or split the step.`, true);
    throw error;
  } finally {
    signal.removeEventListener('abort', forward);
    timer.abort();
  }
}
