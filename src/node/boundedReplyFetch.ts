import { boundedFetch } from './boundedFetch';

/**
 * Most bytes of a model server's reply read as a whole JSON body. A reply of the largest accepted answer
 * (`textCaps.modelReply`, 2 M characters) escaped in JSON fits; more is refused as it arrives.
 */
export const maxReplyBodyBytes = 16 * 1024 * 1024;

/**
 * Most bytes of one event of a streamed reply. A server streams an answer a few tokens an event; the OpenAI SDK's line
 * reader scans a long line again at each chunk it gets, so the CPU an event costs grows with its square: 16 MiB took 10 s
 * of the extension host's thread, 4 MiB about 1 s.
 */
export const maxReplyEventBytes = 4 * 1024 * 1024;

/** The `fetch` the OpenAI SDK takes. */
export type ReplyFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A body of a model server that went past `maxReplyBodyBytes` (a whole JSON body, or one event of a stream). */
export class ReplyBodyTooLargeError extends Error {
  override readonly name = 'ReplyBodyTooLargeError';
}

/**
 * `base` (the global `fetch`) for the OpenAI SDK, with each answer's body bounded at `maxBody` bytes and an event
 * stream's at `maxEvent` bytes an event (`boundedFetch`): past it the body fails with `ReplyBodyTooLargeError`.
 * A redirect is never followed (`redirect: 'manual'`): the answer is returned as it is, an error for the client. `fetch`
 * would send the request again where the server says, with the key to another path of the same origin (a key is bound to
 * its path: another account of a gateway) and with the prompts to any other address, this machine's included.
 */
export function boundedReplyFetch(maxBody = maxReplyBodyBytes, maxEvent = maxReplyEventBytes, base: ReplyFetch = fetch): ReplyFetch {
  const tooLarge = (events: boolean): Error =>
    new ReplyBodyTooLargeError(
      events
        ? `the server's reply went past ${maxEvent} bytes in one event, more than any answer this client accepts.`
        : `the server's reply went past ${maxBody} bytes, more than any answer this client accepts.`,
    );
  return boundedFetch({ maxBody, maxEvent, tooLarge }, (input: string | URL | Request, init?: RequestInit) => base(input, { ...init, redirect: 'manual' }));
}
