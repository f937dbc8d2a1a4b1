import type { LlmSpent } from './llmTypes';

/**
 * Why an LLM call failed. `rate_limited`, `server`, `network`, `timeout` and `malformed`
 * are transient and retried; the others are not.
 */
export type LlmErrorKind = 'rate_limited' | 'server' | 'network' | 'timeout' | 'malformed' | 'bad_request' | 'auth' | 'not_found' | 'aborted' | 'other';

/**
 * A failed LLM call, after retries. The message says what happened and how many attempts
 * were made; it never contains the API key. `status` is the HTTP status when there was one.
 */
export class LlmError extends Error {
  override readonly name = 'LlmError';

  constructor(
    message: string,
    readonly kind: LlmErrorKind,
    readonly status: number | undefined,
    readonly attempts: number,
    /** What the call's attempts used although it failed (requests the server answered, replies cut off part-way); absent when nothing was spent. */
    readonly spent?: LlmSpent,
  ) {
    super(message);
  }

  /** Whether another attempt may succeed. */
  get transient(): boolean {
    return isTransientKind(this.kind);
  }
}

/** Whether an error of `kind` is worth another attempt. */
export function isTransientKind(kind: LlmErrorKind): boolean {
  return kind === 'rate_limited' || kind === 'server' || kind === 'network' || kind === 'timeout' || kind === 'malformed';
}

/** Whether `error` is an `LlmError` (also across bundle copies). */
export function isLlmError(error: unknown): error is LlmError {
  return error instanceof LlmError || (error instanceof Error && error.name === 'LlmError' && 'kind' in error);
}
