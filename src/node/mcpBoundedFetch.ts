import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Most bytes of one message an MCP server may send: the SDK's own limit for a stdio server (10 MB). */
export const maxMcpMessageBytes = 10 * 1024 * 1024;

/**
 * `base` (the global `fetch`) with every answer's body bounded as a stdio server's messages are: a JSON body at `max`
 * bytes, an event stream at `max` bytes an event (counted from its last blank line, so a long stream of small events
 * goes on). Past the limit the body fails, no more of it is read, and `oversized` is told (once per answer): the SDK
 * would otherwise keep all of it in memory, and a server that never ends an event (or answers with gigabytes of JSON)
 * would exhaust the process. A redirect, or an answer without a body, is returned as it is.
 */
export function boundedFetch(oversized: () => void, max = maxMcpMessageBytes, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (response.body === null || !boundedStatus(response.status)) return response;
    const events = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const bounded = new Response(response.body.pipeThrough(boundedBody(events, max, oversized)), {
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

/** Passes a body on until it (or, for `events`, one event of it) exceeds `max` bytes; then fails it. */
function boundedBody(events: boolean, max: number, oversized: () => void): TransformStream<Uint8Array, Uint8Array> {
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
        oversized();
        controller.error(new Error(`the MCP server sent a message larger than ${max} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
