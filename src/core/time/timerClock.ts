import type { Clock } from '../ports';

/**
 * The real `Clock`: wall time and the host's timers (Node and VS Code alike), kept out of
 * the engine's folder so scheduling code never touches timers itself. The engine
 * uses it when `RunOptions.clock` is not given; tests pass a manual clock instead.
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
