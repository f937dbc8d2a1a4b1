import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundedFetch } from './boundedFetch';

/** Most bytes of one message an MCP server may send: the SDK's own limit for a stdio server (10 MB). */
export const maxMcpMessageBytes = 10 * 1024 * 1024;

/**
 * `base` (the global `fetch`) with every answer's body bounded as a stdio server's messages are (`boundedFetch`): past
 * `max` bytes (an event stream's, an event) the body fails and `oversized` is told, once per answer.
 */
export function mcpBoundedFetch(oversized: () => void, max = maxMcpMessageBytes, base: FetchLike = fetch): FetchLike {
  const tooLarge = (): Error => {
    oversized();
    return new Error(`the MCP server sent a message larger than ${max} bytes`);
  };
  return boundedFetch({ maxBody: max, maxEvent: max, tooLarge }, base);
}
