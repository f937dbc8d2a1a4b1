import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { baseUrlProblem } from '../core/llm/baseUrlProblem';
import { isLocalBaseUrl } from '../core/llm/selectProvider';
import { isTransientKind, LlmError, type LlmErrorKind } from '../core/llm/llmError';
import type { LlmChatRequest, LlmChatResponse, LlmSpent, LlmToolCall, LlmUsage } from '../core/llm/llmTypes';
import { cacheSavingOf, costOf, priceOf, type ModelPrice } from '../core/llm/modelPrices';
import { createRedactor } from '../core/llm/redactSecrets';
import { addSpent, attemptUsage, reasoningLength, reportedUsage, type ReportedUsage } from './replyUsage';
import { boundedReplyFetch } from './boundedReplyFetch';
import { toWireFormat, toWireMessage } from './openAiWire';
import type { Clock, LlmClient, Logger } from '../core/servicePorts';
import { capText, textCaps } from '../core/text/capText';
import { timerClock } from './timerClock';
import { AttemptTimeout, checkReplySize, checkToolCallCount, checkToolCallIndex, classify, EmptyReplyError, type Problem } from './openAiReplyProblems';

/** Settings of an OpenAI-compatible provider (OpenAI, Azure, OpenRouter, Ollama, LM Studio, vLLM, …). */
export interface OpenAiClientOptions {
  /** API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** Absent for local servers that need none. Never logged nor put in an error message, not even in part. */
  apiKey?: string;
  /** Send the key even over plain `http://` to another machine (refused by default: see `baseUrlProblem`). */
  allowInsecureKey?: boolean;
  model: string;
  /** Extra HTTP headers sent with every request (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /** Time source for retry waits (default: real timers). */
  clock?: Clock;
  /** Attempts per call, the first included (default 4, at least 1). */
  maxAttempts?: number;
  /**
   * Time limit of one attempt in ms, from sending the request until the whole reply (body
   * included) has arrived (default 120 000).
   */
  timeoutMs?: number;
  /**
   * Longest silence of a streamed reply in ms: before its first chunk and between chunks
   * (default: `timeoutMs` or 60 000, whichever is less).
   */
  silenceTimeoutMs?: number;
  /** First backoff wait in ms, doubled per failed attempt (default 1 000). */
  initialBackoffMs?: number;
  /** Longest backoff wait in ms (default 30 000). */
  maxBackoffMs?: number;
  /** Longest `Retry-After` honoured, in ms; a server asking for more ends the call (default 60 000). */
  maxRetryAfterMs?: number;
  /** Prices (USD per 1M tokens) for models the built-in table does not know. */
  prices?: Record<string, ModelPrice>;
  logger?: Logger;
}

interface Attempt {
  text: string;
  toolCalls: LlmToolCall[];
  usage: ReportedUsage | undefined;
  model: string | undefined;
  finishReason: string | undefined;
  emitted: boolean;
  /** A stream's tool calls as far as they arrived (sparse by index), for counting what a cut-off reply spent. */
  partialCalls: LlmToolCall[];
  /** Characters of reasoning the server sent beside the answer (`reasoning_content`, `reasoning`): not kept, but counted. */
  reasoningChars: number;
}

/**
 * An `LlmClient` over the `openai` package. The SDK's own retries are off: this client
 * retries 429 (waiting what `Retry-After`/`retry-after-ms` asks, seconds or HTTP date),
 * 5xx, 408/409, network faults, time-outs, malformed bodies and empty choice lists, with
 * exponential backoff through `clock`, at most `maxAttempts` attempts in all. Other HTTP
 * errors (401 and 403 included) fail at once. Each attempt ends after `timeoutMs`, body
 * included, and a stream after `silenceTimeoutMs` without a chunk; a body is read at most to
 * `maxReplyBodyBytes`, a stream's event to `maxReplyEventBytes`. Usage comes from the API (streamed with
 * `include_usage`) where it reports a count that can be one and no lower than the text's floor
 * (`attemptUsage`), else is counted with gpt-tokenizer; cost from the price table at the
 * dearer of the model asked for and the one the server names, `undefined` for unknown models.
 * What failed attempts spent (each a request, a cancelled one too; a reply cut off part-way, its tokens) goes with
 * the result (`retriedSpent`) or the error (`LlmError.spent`), for the budget to count; each retry waits for the
 * request's `beforeRetry` (the budget may refuse it, the journal records it). Throws at once when `baseUrlProblem`
 * refuses the base URL. Error messages never show the key (no run of 8 of its
 * characters) nor a URL's credentials.
 */
export function createOpenAiClient(options: OpenAiClientOptions): LlmClient {
  const problem = baseUrlProblem(options.baseURL, {
    sendsKey: Boolean(options.apiKey),
    allowInsecureKey: options.allowInsecureKey ?? false,
    allowHint: 'pass allowInsecureKey: true',
  });
  if (problem !== undefined) throw new LlmError(problem, 'bad_request', undefined, 0);
  const clock = options.clock ?? timerClock;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 4));
  const timeoutMs = options.timeoutMs ?? 120_000;
  const silenceTimeoutMs = Math.min(timeoutMs, options.silenceTimeoutMs ?? 60_000);
  const initialBackoffMs = options.initialBackoffMs ?? 1_000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const apiKey = options.apiKey ?? '';
  const redact = createRedactor([apiKey]);
  const endpoint = safeOrigin(options.baseURL);
  const sdk = new OpenAI({
    baseURL: options.baseURL,
    apiKey: apiKey === '' ? 'not-needed' : apiKey,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: timeoutMs,
    fetch: boundedReplyFetch(),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  });

  const failWith = (model: string, kind: LlmErrorKind, status: number | undefined, attempts: number, detail: string, spent?: LlmSpent): LlmError =>
    new LlmError(
      redact(
        capText(
          `LLM request to ${endpoint} (model ${model}) failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${detail}`,
          textCaps.message,
        ),
      ),
      kind,
      status,
      attempts,
      spent,
    );

  async function chat(request: LlmChatRequest): Promise<LlmChatResponse> {
    const { signal } = request;
    let spent: LlmSpent | undefined;
    const fail = (kind: LlmErrorKind, status: number | undefined, attempts: number, detail: string): LlmError =>
      failWith(request.model ?? options.model, kind, status, attempts, detail, spent);
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw fail('aborted', undefined, attempt - 1, 'cancelled.');
      const state: Attempt = {
        text: '',
        // Stryker disable next-line ArrayDeclaration: every path that returns the state sets toolCalls first
        toolCalls: [],
        usage: undefined,
        model: undefined,
        finishReason: undefined,
        emitted: false,
        partialCalls: [],
        reasoningChars: 0,
      };
      try {
        await runAttempt(sdk, request.model ?? options.model, request, { timeoutMs, silenceTimeoutMs }, state);
        const reply = finish(request, state);
        return spent === undefined ? reply : { ...reply, retriedSpent: spent };
      } catch (error: unknown) {
        const problem = classify(error, signal, clock.now(), options.baseURL);
        spent = addSpent(spent, spentBy(request, state, problem));
        // Stryker disable next-line ConditionalExpression,StringLiteral: 'aborted' is not transient, so without this line the next throw ends the call with the same kind, attempts and 'cancelled.'
        if (problem.kind === 'aborted') throw fail('aborted', undefined, attempt, 'cancelled.');
        const waitMs =
          // Stryker disable next-line ConditionalExpression: only a rate-limited problem carries retryAfterMs
          problem.kind === 'rate_limited' && problem.retryAfterMs !== undefined
            ? problem.retryAfterMs
            : Math.min(maxBackoffMs, initialBackoffMs * 2 ** (attempt - 1));
        if (!isTransientKind(problem.kind) || attempt >= maxAttempts) throw fail(problem.kind, problem.status, attempt, problem.detail);
        // Stryker disable next-line ConditionalExpression: undefined > maxRetryAfterMs is false anyway
        if (problem.retryAfterMs !== undefined && problem.retryAfterMs > maxRetryAfterMs) {
          throw fail(
            problem.kind,
            problem.status,
            attempt,
            `${problem.detail} The server asks to wait ${Math.ceil(problem.retryAfterMs / 1000)} s, more than the ${Math.ceil(maxRetryAfterMs / 1000)} s this client waits.`,
          );
        }
        options.logger?.warn('LLM request failed; retrying', { attempt, kind: problem.kind, status: problem.status, waitMs, detail: redact(problem.detail) });
        if (state.emitted) request.onDelta?.({ kind: 'retry', attempt: attempt + 1, reason: redact(problem.detail) });
        try {
          await clock.sleep(waitMs, signal);
        } catch {
          throw fail('aborted', undefined, attempt, 'cancelled while waiting to retry.');
        }
        // The caller may refuse the next attempt (a budget it would pass) or record it before it is sent (the journal).
        await request.beforeRetry?.(spent ?? nothingSpent);
      }
    }
  }

  /**
   * The model whose price counts a call's usage: the dearer of the model asked for and the one the server says answered
   * (a server naming a cheaper model than it was asked for lowers no cost limit); the asked one when neither is priced.
   */
  function pricedModel(asked: string, answered: string, usage: LlmUsage): string {
    const askedCost = costOf(asked, usage, options.prices);
    const answeredCost = costOf(answered, usage, options.prices);
    return answeredCost !== undefined && (askedCost === undefined || answeredCost > askedCost) ? answered : asked;
  }

  /**
   * What a failed attempt spent: nothing when the server was never reached; else a request, and the tokens of a reply
   * cut off part-way. A cancelled attempt too: the server had its request, and a cancellation (a step's time limit)
   * must not make calls free.
   */
  function spentBy(request: LlmChatRequest, state: Attempt, problem: Problem): LlmSpent | undefined {
    const received = state.text !== '' || state.toolCalls.length > 0 || state.emitted;
    if (problem.unreached === true) return undefined;
    const asked = request.model ?? options.model;
    const toolCalls = state.toolCalls.length > 0 ? state.toolCalls : state.partialCalls.filter((call) => call !== undefined);
    const attempt = { request, text: state.text, toolCalls, reasoningChars: state.reasoningChars };
    const usage: LlmUsage = received ? attemptUsage(attempt, state.usage).usage : { promptTokens: 0, completionTokens: 0 };
    const costUsd = costOf(pricedModel(asked, state.model ?? asked, usage), usage, options.prices);
    return { requests: 1, usage, ...(costUsd === undefined ? {} : { costUsd }) };
  }

  function finish(request: LlmChatRequest, state: Attempt): LlmChatResponse {
    const counted = attemptUsage({ request, text: state.text, toolCalls: state.toolCalls, reasoningChars: state.reasoningChars }, state.usage);
    const reported = counted.reported;
    const usage = counted.usage;
    const asked = request.model ?? options.model;
    const model = state.model ?? asked;
    const pricedAs = pricedModel(asked, model, usage);
    const costUsd = costOf(pricedAs, usage, options.prices);
    const savedUsd = usage.cachedPromptTokens ? cacheSavingOf(pricedAs, usage, options.prices) : undefined;
    return {
      text: state.text,
      toolCalls: state.toolCalls,
      usage,
      usageReported: reported,
      ...(costUsd === undefined ? {} : { costUsd }),
      ...(savedUsd === undefined ? {} : { savedUsd }),
      model,
      ...(state.finishReason === undefined ? {} : { finishReason: state.finishReason }),
    };
  }

  // A server on this machine costs nothing per call; elsewhere a call's cost is known when its model's price is.
  const local = isLocalBaseUrl(options.baseURL);
  return { model: options.model, chat, costKnown: (model) => local || priceOf(model, options.prices) !== undefined };
}

const nothingSpent: LlmSpent = { requests: 0, usage: { promptTokens: 0, completionTokens: 0 } };

interface AttemptLimits {
  timeoutMs: number;
  silenceTimeoutMs: number;
}

/**
 * One attempt, ended by the request's signal, by `timeoutMs` (the whole reply, body
 * included: the SDK's own time-out stops at the headers) or, for a stream, by
 * `silenceTimeoutMs` without a chunk. Real timers: a network deadline is wall time.
 */
async function runAttempt(sdk: OpenAI, model: string, request: LlmChatRequest, limits: AttemptLimits, state: Attempt): Promise<void> {
  // The SDK leaves an abort listener on the signal it is given; a run's signal lives for
  // thousands of calls, so each attempt gets a child signal that is detached afterwards.
  const attempt = new AbortController();
  let timedOut: string | undefined;
  const expire = (detail: string): void => {
    timedOut ??= detail;
    attempt.abort(new AttemptTimeout(detail));
  };
  const forward = (): void => attempt.abort(request.signal.reason);
  // Stryker disable next-line ConditionalExpression: chat() refuses an aborted signal just before each attempt
  if (request.signal.aborted) forward();
  else request.signal.addEventListener('abort', forward, { once: true });
  const whole = setTimeout(() => expire(`no complete reply within ${limits.timeoutMs} ms (the time limit of one attempt).`), limits.timeoutMs);
  let silence: ReturnType<typeof setTimeout> | undefined;
  const heard = (): void => {
    clearTimeout(silence);
    silence = setTimeout(() => expire(`the server sent nothing for ${limits.silenceTimeoutMs} ms in the middle of its reply.`), limits.silenceTimeoutMs);
  };
  try {
    await sendAttempt(sdk, model, request, attempt.signal, limits.timeoutMs, state, request.stream ? heard : undefined);
  } catch (error) {
    if (timedOut !== undefined && !request.signal.aborted) throw new AttemptTimeout(timedOut);
    throw error;
  } finally {
    clearTimeout(whole);
    clearTimeout(silence);
    request.signal.removeEventListener('abort', forward);
  }
  if (timedOut !== undefined && !request.signal.aborted) throw new AttemptTimeout(timedOut);
}

async function sendAttempt(
  sdk: OpenAI,
  model: string,
  request: LlmChatRequest,
  signal: AbortSignal,
  timeoutMs: number,
  state: Attempt,
  heard: (() => void) | undefined,
): Promise<void> {
  const body: ChatCompletionCreateParamsBase = {
    model,
    messages: request.messages.map(toWireMessage),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
          ...(request.toolChoice === 'none' ? { tool_choice: 'none' as const } : {}),
        }
      : {}),
    ...(request.responseSchema ? { response_format: toWireFormat(request.responseSchema) } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
  };
  const requestOptions = { signal, maxRetries: 0, timeout: timeoutMs };
  if (!request.stream) {
    const response = await sdk.chat.completions.create({ ...body, stream: false }, requestOptions);
    const choice = response.choices?.[0];
    if (!choice) throw new EmptyReplyError('the response had no choices.');
    if (!choice.message) throw new EmptyReplyError('its choice had no message.');
    state.text = choice.message.content ?? '';
    state.reasoningChars = reasoningLength(choice.message);
    // Stryker disable next-line ArrayDeclaration: a string in place of the empty list is dropped by the type check below
    state.toolCalls = (choice.message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
    );
    checkToolCallCount(state.toolCalls.length);
    checkReplySize(state.text.length + state.toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0));
    state.finishReason = choice.finish_reason ?? undefined;
    state.model = response.model || undefined;
    if (response.usage) state.usage = reportedUsage(response.usage);
    return;
  }
  // Stryker disable next-line OptionalChaining: heard is given whenever the request streams
  heard?.();
  const stream = await sdk.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }, requestOptions);
  // Stryker disable next-line OptionalChaining: heard is given whenever the request streams
  heard?.();
  const calls: { id: string; name: string; arguments: string }[] = state.partialCalls;
  let sawChoice = false;
  let replyChars = 0;
  for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
    // Stryker disable next-line OptionalChaining: heard is given whenever the request streams
    heard?.();
    if (chunk.model) state.model = chunk.model;
    if (chunk.usage) state.usage = reportedUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChoice = true;
    if (choice.finish_reason) state.finishReason = choice.finish_reason;
    const content = choice.delta?.content;
    state.reasoningChars += reasoningLength(choice.delta);
    // Stryker disable next-line ArrayDeclaration: a string in place of the empty list has no function, so adds 0
    replyChars +=
      (content?.length ?? 0) +
      (choice.delta?.tool_calls ?? []).reduce((sum, part) => sum + (part.function?.name?.length ?? 0) + (part.function?.arguments?.length ?? 0), 0);
    checkReplySize(replyChars);
    if (content) {
      state.text += content;
      state.emitted = true;
      request.onDelta?.({ kind: 'text', text: content });
    }
    for (const part of choice.delta?.tool_calls ?? []) {
      checkToolCallIndex(part.index);
      const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      const argumentsDelta = part.function?.arguments ?? '';
      call.arguments += argumentsDelta;
      state.emitted = true;
      request.onDelta?.({
        kind: 'tool_call',
        index: part.index,
        ...(part.id ? { id: part.id } : {}),
        ...(part.function?.name ? { name: part.function.name } : {}),
        argumentsDelta,
      });
    }
  }
  if (!sawChoice) throw new EmptyReplyError('the streamed response had no choices.');
  state.toolCalls = calls
    // Stryker disable next-line ConditionalExpression: filter skips the holes of a sparse array whatever it returns
    .filter((call) => call !== undefined)
    .map((call, index) => ({ id: call.id || `call_${index}`, name: call.name, arguments: call.arguments }));
}

function safeOrigin(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.protocol}//${url.host}`;
  } catch {
    // Stryker disable next-line all: baseUrlProblem refused every base URL that does not parse before the client was made
    return 'the configured base URL';
  }
}
