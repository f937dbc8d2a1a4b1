import type { RequestKind } from '../../shared/vocabulary';

export type { RequestKind } from '../../shared/vocabulary';

/** The kinds of request a step asks itself and may defer (a budget pause is not asked: the run's budget ran out). */
export type AskedKind = Exclude<RequestKind, 'budget'>;

/**
 * Thrown by a tool (or a step executor) when `Interaction` answered `'defer'`: nobody
 * can answer now. The engine then suspends the step (it is neither failed nor retried),
 * lets independent branches finish, and ends the run `waiting` with the pending request;
 * `resumeRun` supplies the answer and re-runs the step from its start, so a tool must ask
 * before it changes anything.
 */
export class DeferredError extends Error {
  override readonly name = 'DeferredError';

  constructor(
    readonly kind: AskedKind,
    readonly stepId: string,
  ) {
    super(`Step ${stepId} waits for ${waitsFor[kind]}; resume the run to give it.`);
  }
}

const waitsFor: Record<AskedKind, string> = {
  approval: 'an approval',
  clarification: 'an answer',
  review: 'a review',
  manual: 'you to do it and mark it done or failed',
};

/**
 * True for a `DeferredError`, also across bundle copies (checked by name and shape, its
 * `kind` one a step asks): anything else is an ordinary failure, never a request nobody asked.
 */
export function isDeferredError(error: unknown): error is DeferredError {
  if (error instanceof DeferredError) return true;
  return (
    error instanceof Error &&
    error.name === 'DeferredError' &&
    'stepId' in error &&
    'kind' in error &&
    typeof error.kind === 'string' &&
    Object.hasOwn(waitsFor, error.kind)
  );
}
