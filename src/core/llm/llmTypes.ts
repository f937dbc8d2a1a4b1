/**
 * The provider-neutral vocabulary of the `LlmClient` port (docs/architecture.md §5): messages, tool
 * definitions and calls, structured-output formats, usage and streaming deltas. Providers
 * (OpenAI-compatible, VS Code LM) translate to and from their own wire types.
 */

/** A piece of a user message: text, or an image given by URL (http(s) or a `data:` URL). */
export type LlmContentPart = { type: 'text'; text: string } | { type: 'image'; url: string };

/**
 * Most tool calls one model reply may hold, whichever client reads it. A model asks for a few at a time (an agent runs 16
 * a turn); a server's thousands of calls with empty arguments counted as no characters, each a message of the next request.
 */
export const maxReplyToolCalls = 1000;

/** A tool call the model made; `arguments` is the raw JSON text the model wrote (maybe invalid). */
export interface LlmToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of a conversation. A `tool` message answers the call with `toolCallId`. */
export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | LlmContentPart[] }
  | { role: 'assistant'; content: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

/** A tool the model may call; `parameters` is a JSON Schema object for its arguments. */
export interface LlmToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * How the reply must be shaped. `json_schema`: the provider constrains output to `schema`
 * (JSON Schema; `strict` asks for exact adherence); `json_object`: any JSON object.
 */
export type LlmResponseFormat =
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean }
  | { type: 'json_object' };

/** Token counts of one call, from the API's usage or, when it reports none, counted locally. */
export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  /**
   * Of `promptTokens`, those the provider read from its prompt cache (billed at the cached
   * input price); absent when the provider reports none. Invariant: at most `promptTokens`.
   */
  cachedPromptTokens?: number;
}

/**
 * A streamed piece of the reply. `retry` means the attempt that produced the earlier deltas
 * failed and a new attempt starts from scratch: consumers discard what they accumulated.
 */
export type LlmDelta =
  | { kind: 'text'; text: string }
  | { kind: 'tool_call'; index: number; id?: string; name?: string; argumentsDelta: string }
  | { kind: 'retry'; attempt: number; reason: string };

/** One chat call. `signal` is mandatory: every call is cancellable with its run. */
export interface LlmChatRequest {
  messages: LlmMessage[];
  /**
   * The model to ask, on the client's own endpoint; absent: the client's `model`. Set by
   * `withModel` for a role's model (`modelRoles.ts`); a name only, never an address.
   */
  model?: string;
  tools?: LlmToolDefinition[];
  /**
   * `none`: the model may not call any of `tools`, which are sent all the same so the request
   * starts like the run's other requests (a prefix the provider can cache). Default `auto`.
   */
  toolChoice?: 'auto' | 'none';
  responseSchema?: LlmResponseFormat;
  signal: AbortSignal;
  /** Stream the reply; deltas go to `onDelta` as they arrive. The result is the same either way. */
  stream?: boolean;
  onDelta?: (delta: LlmDelta) => void;
  /** Sampling temperature, 0–2; the provider's default when absent. */
  temperature?: number;
  /** Upper bound of completion tokens for this call. */
  maxTokens?: number;
  /**
   * Asked by a client that retries, before each attempt after the first (once its wait is over), with what the call's
   * failed attempts spent so far: the attempt is sent once it resolves, and not at all when it rejects (the call then
   * ends with that rejection). The budget refuses a retry past a limit here, and the journal records the attempt
   * before it is sent (`budget.ts`, `journaledEffects.ts`).
   */
  beforeRetry?: (spent: LlmSpent) => Promise<void>;
}

/**
 * What the failed attempts of one call used: each was a request the server answered (or held until a time limit),
 * and a reply cut off part-way was billed for its prompt and for what it had sent. Counted locally, never taken from
 * the server's word. `costUsd` is absent when the model's price is unknown.
 */
export interface LlmSpent {
  requests: number;
  usage: LlmUsage;
  costUsd?: number;
}

/** The model's complete reply. `costUsd` is `undefined` when the model's price is unknown. */
export interface LlmChatResponse {
  text: string;
  toolCalls: LlmToolCall[];
  usage: LlmUsage;
  /** Whether `usage` came from the API (`true`) or was counted with the local tokenizer. */
  usageReported: boolean;
  costUsd?: number;
  /** USD the cached prompt tokens saved against the uncached input price; absent when nothing was cached or the price is unknown. */
  savedUsd?: number;
  /** The model that answered, as the API named it. */
  model: string;
  finishReason?: string;
  /** What the attempts that failed before this reply used (a retried call), on top of `usage`; absent when none did. */
  retriedSpent?: LlmSpent;
}
