import { boundedFetch } from './boundedFetch';

/**
 * Most bytes of a model server's reply read: a whole JSON body, or one event of a stream. A reply of the largest
 * accepted answer (`textCaps.modelReply`, 2 M characters) escaped in JSON fits; more is refused as it arrives.
 */
export const maxReplyBodyBytes = 16 * 1024 * 1024;

/** The `fetch` the OpenAI SDK takes. */
export type ReplyFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A body of a model server that went past `maxReplyBodyBytes` (a whole JSON body, or one event of a stream). */
export class ReplyBodyTooLargeError extends Error {
  override readonly name = 'ReplyBodyTooLargeError';
}

/**
 * `base` (the global `fetch`) for the OpenAI SDK, with each answer's body bounded at `max` bytes (an event stream's at
 * `max` an event, `boundedFetch`): past it the body fails with `ReplyBodyTooLargeError`.
 */
export function boundedReplyFetch(max = maxReplyBodyBytes, base: ReplyFetch = fetch): ReplyFetch {
  const tooLarge = (events: boolean): Error =>
    new ReplyBodyTooLargeError(`the server's reply went past ${max} bytes${events ? ' in one event' : ''}, more than any answer this client accepts.`);
  return boundedFetch({ max, tooLarge }, base);
}
