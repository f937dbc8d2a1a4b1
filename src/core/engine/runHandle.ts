import { cloneRunState, initialRunState } from './reduceRunEvent';
import type { RunControl } from './runEngine';
import type { RunHandle, RunResult } from './runOptions';
import type { RunEvent, RunState } from './runEvents';

/**
 * Builds a `RunHandle` whose run starts on the next microtask (so callers can subscribe
 * first). `signal` (the caller's) cancels like `cancel()`.
 */
export function createRunHandle(runId: string, signal: AbortSignal | undefined, start: (control: RunControl) => Promise<RunResult>): RunHandle {
  const listeners = new Set<(event: RunEvent) => void>();
  const cancellation = new AbortController();
  if (signal?.aborted) cancellation.abort(signal.reason);
  else signal?.addEventListener('abort', () => cancellation.abort(signal.reason), { once: true });
  let getState: () => RunState = () => initialRunState(runId);
  const control: RunControl = {
    listeners,
    signal: cancellation.signal,
    exposeState: (getter) => {
      getState = getter;
    },
  };
  return {
    runId,
    events: {
      subscribe(listener) {
        listeners.add(listener);
        return () => {
          listeners.delete(listener);
        };
      },
    },
    result: Promise.resolve().then(() => start(control)),
    cancel(reason = 'The run was cancelled.') {
      if (!cancellation.signal.aborted) cancellation.abort(new Error(reason));
    },
    state: () => cloneRunState(getState()),
  };
}
