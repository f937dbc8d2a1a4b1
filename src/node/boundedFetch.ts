/** How `boundedFetch` bounds an answer's body. */
export interface BodyLimit {
  /** Most bytes of a whole body that is no event stream (a JSON answer). */
  readonly maxBody: number;
  /** Most bytes of one event of an event stream (counted from its last blank line). */
  readonly maxEvent: number;
  /**
   * The error a body fails with once past its bound, made once per answer (`events`: the answer is an event stream, so the
   * limit was one event's). A caller that wants to know (to stop a server) learns it here.
   */
  readonly tooLarge: (events: boolean) => Error;
}

/**
 * `base` (the global `fetch`) with every answer's body bounded: a JSON body at `limit.maxBody` bytes, an event stream at
 * `limit.maxEvent` bytes an event (so a long stream of small events goes on). Past the limit the body fails with
 * `limit.tooLarge` and no more of it is read: the SDKs that take a `fetch` (OpenAI's, MCP's) read a JSON body whole and
 * hold an event until it ends, so a server answering with gigabytes, or never ending an event, would exhaust the process.
 * An answer without a body is returned as it is, and a redirect without its body, unread: a redirect is described by its
 * headers, and both SDKs read the body of one they do not follow whole, so a redirect whose body never ended held the
 * request until its time limit, reading gigabytes meanwhile (an attack on MCP servers; the model's client follows none).
 */
export function boundedFetch<Input>(
  limit: BodyLimit,
  base: (input: Input, init?: RequestInit) => Promise<Response>,
): (input: Input, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body !== null && response.status >= 300 && response.status < 400) {
      await response.body.cancel().catch(() => undefined);
      const bodiless = new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
      Object.defineProperty(bodiless, 'url', { value: response.url });
      return bodiless;
    }
    if (response.body === null || !boundedStatus(response.status)) return response;
    const events = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const bounded = new Response(response.body.pipeThrough(boundedBody(events, limit)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

/** Whether an answer of `status` has a body to bound: not a redirect (followed or described by its headers), nor one that may not have one. */
function boundedStatus(status: number): boolean {
  return status >= 200 && !(status >= 300 && status < 400) && status !== 204 && status !== 205;
}

/** Passes a body on until it (or, for `events`, one event of it) exceeds its bound in `limit`; then fails it. */
function boundedBody(events: boolean, limit: BodyLimit): TransformStream<Uint8Array, Uint8Array> {
  const max = events ? limit.maxEvent : limit.maxBody;
  let size = 0;
  // Where an event stream stands: at the start of a line (a line break here ends the event), after a CR (a LF next is its CRLF).
  let lineStart = true;
  let afterCr = false;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (!events) size += chunk.byteLength;
      else {
        for (let index = 0; index < chunk.length; index++) {
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
            if (++size > max) break;
          }
        }
      }
      if (size > max) {
        controller.error(limit.tooLarge(events));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
