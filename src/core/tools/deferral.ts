import type { RequestKind } from '../../shared/vocabulary';

export type { RequestKind } from '../../shared/vocabulary';

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
    readonly kind: RequestKind,
    readonly stepId: string,
  ) {
    super(`Step ${stepId} waits for ${waitsFor[kind]}; resume the run to give it.`);
  }
}

const waitsFor: Record<RequestKind, string> = { approval: 'an approval', clarification: 'an answer', review: 'a review', budget: 'a higher LLM budget', manual: 'you to do it and mark it done or failed' };

/** True for a `DeferredError`, also across bundle copies (checked by name and shape). */
export function isDeferredError(error: unknown): error is DeferredError {
  return error instanceof DeferredError || (error instanceof Error && error.name === 'DeferredError' && 'kind' in error && 'stepId' in error);
}
