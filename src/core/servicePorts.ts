import type { LlmChatRequest, LlmChatResponse } from './llm/llmTypes';
import type { TraceSpan } from './trace/traceSpan';

// Ports of the services a run calls: time, the log, the language model, trace export and web pages.
// Every port of the core is in a `*Ports.ts` file at the root of src/core (docs/architecture.md, Ports).

/** Time and waiting. `now()` is in milliseconds since the epoch. */
export interface Clock {
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Structured trace output. Implementations must never log secrets. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/**
 * Where a run's trace goes (`src/node/otlpTraceExporter.ts`: OTLP/HTTP through the
 * OpenTelemetry SDK). `export` sends the spans of one run as one trace, their parent links
 * kept, and resolves once they were sent (it rejects when they could not be).
 */
export interface TraceExporter {
  export(spans: readonly TraceSpan[]): Promise<void>;
}

/** What `UrlFetcher.fetch` is asked for. Sizes in bytes. */
export interface UrlFetchRequest {
  /** An `http:` or `https:` URL without credentials, checked with `checkFetchUrl`. */
  url: string;
  /** `markdown`: an HTML page becomes the Markdown of its main content; `raw`: the body as it came. Other text (plain, JSON) is given as it is either way. */
  format: 'markdown' | 'raw';
  /** Most body bytes read (after decompression); the rest is not read and `truncated` is set. */
  maxBytes: number;
  /** Most redirects followed; each target is checked like the first URL. */
  maxRedirects: number;
}

/** A page `UrlFetcher.fetch` read. */
export interface FetchedUrl {
  /** The URL the body came from, after redirects. */
  url: string;
  /** The HTTP status of the last response. */
  status: number;
  /** The media type without parameters, lower case (`text/html`); `''` when the server gave none. */
  contentType: string;
  /** What `content` is: Markdown made from HTML, or text as the server sent it. */
  format: 'markdown' | 'text';
  /** The page's title, when it is an HTML page that has one. */
  title?: string;
  content: string;
  /** True when the body was longer than `maxBytes` and only its first part was read. */
  truncated: boolean;
}

/**
 * Reads a web page for `fetch_url` (the Node one lives in `src/node`): a GET without
 * credentials (no cookies, no authorization, no proxy authorization), following at most
 * `maxRedirects` redirects and checking each target with `checkFetchUrl`, refusing a host
 * name that resolves to a loopback, private or link-local address, reading at most
 * `maxBytes`, and stopping (rejecting with the signal's reason) when `signal` aborts.
 * Refuses a body that is not text (an image, an archive) with a message that says so.
 */
export interface UrlFetcher {
  fetch(request: UrlFetchRequest, signal: AbortSignal): Promise<FetchedUrl>;
}

/**
 * A language model (docs/architecture.md §5): OpenAI-compatible, VS Code LM, or a test fake. `chat`
 * honours `request.signal`, retries transient faults itself (through `Clock`), streams
 * through `request.onDelta` when `request.stream` is set, and rejects with an error whose
 * message is fit for the user and never contains an API key.
 */
export interface LlmClient {
  /** The configured model name (the response's `model` may name a snapshot of it). */
  readonly model: string;
  chat(request: LlmChatRequest): Promise<LlmChatResponse>;
  /**
   * Whether the calls of `model` (this client's or a role's on the same server) have a known cost: a price, or none to
   * pay (a server on this machine). Absent: unknown, as for a model without a price; a run with a cost limit then
   * refuses its calls (`createBudgetTracker`), since they would count nothing against it.
   */
  costKnown?(model: string): boolean;
}
