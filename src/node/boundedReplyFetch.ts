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
 * `base` (the global `fetch`) for the OpenAI SDK, with each answer's body bounded: a JSON body at `max` bytes, an
 * event stream at `max` bytes an event (from its last blank line, so a long stream of small events goes on). Past it
 * the body fails with `ReplyBodyTooLargeError` and no more of it is read: the SDK reads a whole JSON body into memory
 * before anyone can look at its size, and holds an event until it ends, so a server answering with gigabytes would
 * exhaust the process. An answer without a body is returned as it is.
 */
export function boundedReplyFetch(max = maxReplyBodyBytes, base: typeof fetch = fetch): ReplyFetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null) return response;
    const events = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const bounded = new Response(response.body.pipeThrough(boundedBody(events, max)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

/** Passes a body on until it (or, for `events`, one event of it) exceeds `max` bytes; then fails it. */
function boundedBody(events: boolean, max: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  // Where an event stream stands: at the start of a line (a line break here ends the event), after a CR (a LF next is its CRLF).
  let lineStart = true;
  let afterCr = false;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (!events) size += chunk.byteLength;
      else {
        for (let index = 0; index < chunk.length && size <= max; index++) {
          const byte = chunk[index];
          if (byte === 10 && afterCr) {
            afterCr = false;
            continue;
          }
          afterCr = byte === 13;
          if (byte === 10 || byte === 13) {
            if (lineStart) size = 0;
            lineStart = true;
          } else {
            lineStart = false;
            size++;
          }
        }
      }
      if (size > max) {
        const where = events ? ' in one event' : '';
        controller.error(new ReplyBodyTooLargeError(`the server's reply went past ${max} bytes${where}, more than any answer this client accepts.`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
