import type { Clock } from '../core/servicePorts';

/**
 * The real `Clock`: wall time and the host's timers (Node and VS Code alike), an adapter
 * outside the core, which only sees the `Clock` port. The hosts and the library entry
 * point give it to runs; tests pass a manual clock instead.
 */
export const timerClock: Clock = {
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        // Stryker disable next-line OptionalChaining: onAbort is only ever added to a signal
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, so a listener left on it can never run again
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  },
};
