import OpenAI from 'openai';
import type { LlmErrorKind } from '../core/llm/llmError';
import { maxReplyToolCalls } from '../core/llm/llmTypes';
import { capText, textCaps } from '../core/text/capText';
import { errorMessage } from '../shared/errorMessage';
import { ReplyBodyTooLargeError } from './boundedReplyFetch';

// What ends an OpenAI-compatible reply short, and how each failure reads to the user: the checks the client makes of a
// reply's shape and size as it comes, and `classify`, which names a failed attempt's kind (retried or not) and says why.

/** An attempt ended by the client's own time limit or silence limit; its message says which. */
export class AttemptTimeout extends Error {}

/** A 200 reply without any choice, or whose choice has no message: transient on real servers, so retried. */
export class EmptyReplyError extends Error {}

/** A reply longer than `textCaps.modelReply` characters: a broken or hostile server, not retried. */
export class ReplyTooLongError extends Error {}

/** A reply refused for its shape (a tool call index that is none, too many tool calls): a broken or hostile server, not retried. */
export class ReplyRefusedError extends Error {}

/**
 * Refuses a streamed tool call's `index` that is not a whole number below `maxReplyToolCalls`: the server's word, used as
 * a list's index. `"__proto__"` wrote the call onto `Array.prototype`, and 4294967294 made a sparse list that took minutes
 * of the thread to go through.
 */
export function checkToolCallIndex(index: unknown): void {
  if (typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < maxReplyToolCalls) return;
  const shown = capText(JSON.stringify(index) ?? String(index), 40);
  throw new ReplyRefusedError(`the reply gave a tool call index of ${shown}; a reply may hold at most ${maxReplyToolCalls} tool calls, indexed from 0.`);
}

export function checkToolCallCount(count: number): void {
  if (count > maxReplyToolCalls) throw new ReplyRefusedError(`the reply holds ${count} tool calls; a reply may hold at most ${maxReplyToolCalls}.`);
}

export function checkReplySize(chars: number): void {
  if (chars > textCaps.modelReply) {
    throw new ReplyTooLongError(`the reply went past ${textCaps.modelReply} characters, more than any answer this client accepts.`);
  }
}

export interface Problem {
  kind: LlmErrorKind;
  status: number | undefined;
  detail: string;
  retryAfterMs?: number;
  /** The request never reached the server (no connection): it spent nothing. */
  unreached?: true;
}

export function classify(error: unknown, signal: AbortSignal, now: number, baseURL: string): Problem {
  // Stryker disable next-line StringLiteral: chat() ends an aborted call with its own message
  if (signal.aborted || error instanceof OpenAI.APIUserAbortError) return { kind: 'aborted', status: undefined, detail: 'cancelled.' };
  if (error instanceof AttemptTimeout) return { kind: 'timeout', status: undefined, detail: error.message };
  // Stryker disable next-line ConditionalExpression: the last return gives the same kind and detail
  if (error instanceof ReplyTooLongError || error instanceof ReplyRefusedError) return { kind: 'other', status: undefined, detail: error.message };
  const tooLarge = tooLargeBody(error);
  if (tooLarge) return { kind: 'other', status: undefined, detail: tooLarge.message };
  if (error instanceof EmptyReplyError) return { kind: 'malformed', status: undefined, detail: `the server answered, but ${error.message}` };
  // Stryker disable next-line all: the attempt's own timer, started first with the same limit, always ends the attempt before the SDK's
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { kind: 'timeout', status: undefined, detail: 'the request timed out.' };
  if (error instanceof OpenAI.APIConnectionError) {
    return { kind: 'network', status: undefined, detail: `could not reach the server (${causeText(error)}).`, unreached: true };
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status;
    const detail = `HTTP ${status}: ${error.message.replace(/^\d{3}\s*/, '')}`;
    if (status === 429) {
      const retryAfterMs = retryAfter(error.headers as Headers | undefined, now);
      // Stryker disable next-line ConditionalExpression: a retryAfterMs key holding undefined reads as no key
      return { kind: 'rate_limited', status, detail: `rate limited (${detail}).`, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    }
    if (status === 408) return { kind: 'timeout', status, detail: `${detail}.` };
    if (status === 409 || status >= 500) return { kind: 'server', status, detail: `server error (${detail}).` };
    if (status === 401 || status === 403) return { kind: 'auth', status, detail: `the server refused the credentials (${detail}). Check the API key.` };
    if (status === 404) return { kind: 'not_found', status, detail: `not found (${detail}). Check the base URL and the model name.` };
    if (status === 400 || status === 422) return { kind: 'bad_request', status, detail: `the server rejected the request (${detail}).` };
    if (status >= 300 && status < 400) return { kind: 'other', status, detail: redirectDetail(status, error.headers as Headers | undefined, baseURL) };
    return { kind: 'other', status, detail: `${detail}.` };
  }
  if (error instanceof SyntaxError) return { kind: 'malformed', status: undefined, detail: `the response was not valid JSON (${error.message}).` };
  const message = errorMessage(error);
  if (error instanceof TypeError || /terminated|socket|ECONNRESET|EPIPE|network|aborted/i.test(message)) {
    return {
      kind: 'network',
      status: undefined,
      detail: `the connection failed (${message}${error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''}).`,
    };
  }
  if (error instanceof OpenAI.OpenAIError) return { kind: 'malformed', status: undefined, detail: `the response could not be read (${message}).` };
  return { kind: 'other', status: undefined, detail: message };
}

/**
 * Why a redirect failed the request (`boundedReplyFetch` follows none), naming where it led (resolved against `baseURL`)
 * without its query, where a key may be; and, when it leads to an endpoint the client asks (`…/chat/completions`), the
 * base URL to set if that server is the user's. Set whole, the next request went to …/chat/completions/chat/completions,
 * and a relative one ("/v2") was no address (trials); a redirect elsewhere (a sign-in page) suggests nothing to set.
 */
function redirectDetail(status: number, headers: Headers | undefined, baseURL: string): string {
  const location = headers?.get('location') ?? '';
  let target: URL | undefined;
  try {
    target = location === '' ? undefined : new URL(location, baseURL);
  } catch {
    target = undefined;
  }
  const where = target === undefined ? 'another address' : `${target.origin}${target.pathname}`;
  const endpoint = /\/(chat\/completions|models)\/?$/;
  const advice =
    target !== undefined && endpoint.test(target.pathname)
      ? `If that is your model's server, set ${target.origin}${target.pathname.replace(endpoint, '')} as the base URL.`
      : 'Check the base URL: it is the address your model\'s API answers at, the part before /chat/completions.';
  return `the server answered with a redirect (HTTP ${status}) to ${where}, which is not followed: your key and your prompts go only to the base URL you set. ${advice}`;
}

/** The `ReplyBodyTooLargeError` that `error` is or was caused by (the SDK and fetch may wrap a body's failure). */
function tooLargeBody(error: unknown): ReplyBodyTooLargeError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    if (cause instanceof ReplyBodyTooLargeError) return cause;
  }
  return undefined;
}

function causeText(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) return cause.cause instanceof Error ? `${cause.message}: ${cause.cause.message}` : cause.message;
  return error.message;
}

/**
 * Milliseconds a 429 asks to wait, from `retry-after-ms` or `Retry-After` (seconds, or an
 * HTTP date compared with `now`, ms since the epoch); never negative.
 */
function retryAfter(headers: Headers | undefined, now: number): number | undefined {
  // Stryker disable next-line StringLiteral: any text that is not a number parses as NaN, like ''
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after')?.trim();
  // Stryker disable next-line ConditionalExpression: Date.parse of undefined or '' is NaN, which gives undefined below
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
