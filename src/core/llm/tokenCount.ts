import type * as GptTokenizer from 'gpt-tokenizer';
import type { LlmMessage, LlmToolDefinition } from './llmTypes';

let loaded: typeof GptTokenizer | undefined;

/**
 * The o200k_base tokenizer, loaded on first use: its tables are over a third of each bundle that
 * counts tokens (the command line's start-up spent most of its time reading them).
 */
function tokenizer(): typeof GptTokenizer {
  // A plain require: the bundles keep it external as dist/tokenizer.js (see esbuild.mjs).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would be parsed and run at every start
  return (loaded ??= require('gpt-tokenizer') as typeof GptTokenizer);
}

/** Tokens every chat message costs beyond its content (role and separators, as OpenAI counts them). */
const perMessageOverhead = 4;

/**
 * Longest run of characters without a space or line break handed to the tokenizer at
 * once: its byte-pair merging is quadratic in the length of such a run (40 000 repeated
 * letters took 7.5 s, a million would take hours), so a longer run is counted in pieces.
 */
const maxRunChars = 256;

/**
 * Tokens in `text` with the o200k_base encoding (GPT-4o and later). For other model
 * families the count is an estimate, good enough for budgets and compaction. Linear in
 * the text: runs of more than 256 characters without a space are counted in pieces.
 */
export function countTokens(text: string): number {
  let total = 0;
  const { countTokens: countO200k } = tokenizer();
  for (const piece of tokenizerPieces(text)) total += countO200k(piece);
  return total;
}

function encodeLinear(text: string): number[] {
  const { encode } = tokenizer();
  const pieces = tokenizerPieces(text);
  return pieces.length === 1 ? encode(pieces[0] as string) : pieces.flatMap((piece) => encode(piece));
}

/** `text` in consecutive pieces, cut after every `maxRunChars` characters without whitespace (never inside a surrogate pair). */
function tokenizerPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 10 || code === 9 || code === 13) {
      run = 0;
      continue;
    }
    if (++run >= maxRunChars && !(code >= 0xd800 && code <= 0xdbff)) {
      pieces.push(text.slice(start, index + 1));
      start = index + 1;
      run = 0;
    }
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/** Tokens a request's messages and tool definitions cost as a prompt (an estimate when the API reports none). */
export function countPromptTokens(messages: readonly LlmMessage[], tools: readonly LlmToolDefinition[] = []): number {
  let total = 3;
  for (const message of messages) {
    total += perMessageOverhead;
    if (typeof message.content === 'string') total += countTokens(message.content);
    else for (const part of message.content) total += part.type === 'text' ? countTokens(part.text) : 85;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) total += countTokens(call.name) + countTokens(call.arguments);
  }
  if (tools.length > 0) total += countTokens(JSON.stringify(tools));
  return total;
}

/**
 * `text` cut to at most `maxTokens` tokens, on token boundaries. `keep: 'head'` keeps the
 * start, `'tail'` the end. A cut is marked with `marker` (counted within the limit when it fits).
 */
export function truncateToTokens(text: string, maxTokens: number, options: { keep?: 'head' | 'tail'; marker?: string } = {}): string {
  if (maxTokens <= 0) return '';
  const tokens = encodeLinear(text);
  if (tokens.length <= maxTokens) return text;
  const wanted = options.marker ?? '…';
  const marker = countTokens(wanted) < maxTokens ? wanted : '';
  const markerTokens = countTokens(marker);
  const { decode } = tokenizer();
  // Re-encoding a cut can merge or split tokens at the seam: shrink until the result fits.
  for (let room = maxTokens - markerTokens; room > 0; room--) {
    const cut = options.keep === 'tail' ? `${marker}${decode(tokens.slice(-room))}` : `${decode(tokens.slice(0, room))}${marker}`;
    if (countTokens(cut) <= maxTokens) return cut;
  }
  return '';
}
