import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundedFetch } from './boundedFetch';

/** Most bytes of one message an MCP server may send: the SDK's own limit for a stdio server (10 MB). */
export const maxMcpMessageBytes = 10 * 1024 * 1024;

/** Least time between two event streams a client opens with GET (the SDK's own first delay before it reconnects one). */
export const minStreamGapMs = 1000;

/**
 * `base` (the global `fetch`) with every answer's body bounded as a stdio server's messages are (`boundedFetch`): past
 * `max` bytes (an event stream's, an event) the body fails and `oversized` is told, once per answer; a redirect's body is
 * dropped unread (`boundedFetch`). An event stream (a GET) is opened at most once every `minStreamGapMs`: a
 * server that ends it at once asking to be reconnected at once (`retry: 0`) had the SDK reopen it hundreds of times a
 * second, for as long as the server ran.
 */
export function mcpBoundedFetch(oversized: () => void, max = maxMcpMessageBytes, base: FetchLike = fetch): FetchLike {
  const tooLarge = (): Error => {
    oversized();
    return new Error(`the MCP server sent a message larger than ${max} bytes`);
  };
  return pacedStreams(boundedFetch({ maxBody: max, maxEvent: max, tooLarge }, base));
}

function pacedStreams(base: FetchLike): FetchLike {
  let next = 0;
  return async (url, init) => {
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return base(url, init);
    const now = Date.now();
    const wait = next - now;
    next = Math.max(now, next) + minStreamGapMs;
    if (wait > 0) await sleep(wait, undefined, { ref: false, ...(init?.signal ? { signal: init.signal } : {}) });
    return base(url, init);
  };
}
