import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the fake server received, as it arrived. */
export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body parsed as JSON; `undefined` when empty or not JSON. */
  body: FakeChatBody | undefined;
  rawBody: string;
  /** 0-based position in the log. */
  index: number;
}

/** The fields of a chat-completions request body the tests look at; everything else is kept too. */
export interface FakeChatBody {
  model?: string;
  messages?: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
  [field: string]: unknown;
}

/** A tool call the scripted assistant makes; object arguments are sent as JSON. */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/**
 * What the server answers. `delayMs` holds back the first byte (a slow server). For a
 * streamed request, `message` is sent as SSE chunks of `chunkSize` characters.
 */
export type FakeReply = (
  | {
      kind: 'message';
      content?: string;
      toolCalls?: FakeToolCall[];
      /** Usage to report (with `prompt_tokens_details.cached_tokens`, the prompt tokens served from the provider's cache); `null` reports none (so the client must count itself). */
      usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } } | null;
      model?: string;
      finishReason?: string;
      /** Characters per streamed content chunk (default 16). */
      chunkSize?: number;
    }
  /** An HTTP error with an OpenAI-style error body, e.g. 429 with `Retry-After`. */
  | { kind: 'error'; status: number; message?: string; headers?: Record<string, string> }
  /** 200 with a body that is not valid JSON (or, streamed, a chunk that is not). */
  | { kind: 'malformed' }
  /** 200 with `choices: []`. */
  | { kind: 'empty_choices' }
  /** Sends the first `afterChars` characters of `content` (streamed: as chunks), then destroys the socket. */
  | { kind: 'cut'; content: string; afterChars: number }
  /** Sends the status line and headers (streamed: also `sentChunks` content chunks of "x"), then nothing, keeping the connection open. */
  | { kind: 'stall'; sentChunks?: number }
  /** Sends the reply to `content` one byte every `intervalMs` ms (a trickle that never goes silent for long). */
  | { kind: 'drip'; content: string; intervalMs: number }
  /** Any JSON body with any status (default 200): reply shapes the kinds above never produce. */
  | { kind: 'json'; body: unknown; status?: number }
  /**
   * An SSE stream of `events`, whatever the request asked: objects are sent as JSON, strings
   * as they are. Ends with `[DONE]`, or with `cut` the connection is destroyed after the events.
   */
  | { kind: 'events'; events: unknown[]; cut?: boolean }
) & { delayMs?: number };

/** A scripted rule: the first rule whose matcher accepts a request (and has uses left) answers it. */
/** The model's reply holding a plan of `steps` (as a planner's JSON answer) for the objective `objective`. */
export function planReply(steps: unknown[], objective = 'test'): Extract<FakeReply, { kind: 'message' }> {
  return { kind: 'message', content: JSON.stringify({ objective, steps }) };
}

export interface FakeRule {
  match: (request: FakeRequest) => boolean;
  reply: FakeReply | ((request: FakeRequest) => FakeReply);
  /** How many requests this rule answers (default: unlimited). */
  times?: number;
}

/** Matchers for common cases. */
export const matchers = {
  any: (): ((request: FakeRequest) => boolean) => () => true,
  /** A request whose messages contain `text` (case-sensitive) anywhere. */
  messagesContain: (text: string) => (request: FakeRequest) => JSON.stringify(request.body?.messages ?? []).includes(text),
  responseFormat: (type: string) => (request: FakeRequest) => request.body?.response_format?.type === type,
  streaming: () => (request: FakeRequest) => request.body?.stream === true,
};

/**
 * A real HTTP server on 127.0.0.1 (random port) speaking enough of the OpenAI
 * chat-completions protocol for the real `openai` client: `POST /v1/chat/completions`
 * (JSON or SSE streaming with `stream_options.include_usage`, tool calls; any
 * `response_format` accepted unless a rule refuses it) and `GET /v1/models`. Replies come
 * from scripted rules; every request is logged. A request no rule matches gets a 418 with
 * a message saying so, which the client does not retry, so a missing script fails fast.
 * `close()` destroys every open socket and pending timer.
 */
export class FakeOpenAiServer {
  /** Every request received, in order. */
  readonly requests: FakeRequest[] = [];
  private readonly rules: (FakeRule & { used: number })[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server: Server | undefined;
  private port = 0;

  constructor(private readonly options: { models?: string[] } = {}) {}

  /** `http://127.0.0.1:PORT/v1`, the `baseURL` to give the client. Valid after `start()`. */
  get baseURL(): string {
    if (!this.server) throw new Error('FakeOpenAiServer: call start() before reading baseURL.');
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** The chat-completions requests only, parsed. */
  get chatRequests(): FakeRequest[] {
    return this.requests.filter((request) => request.path === '/v1/chat/completions');
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => void this.handle(request, response));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening, cancels delayed replies and destroys every open connection. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const sockets = [...this.sockets].map((socket) => new Promise<void>((resolve) => (socket.destroyed && !this.sockets.has(socket) ? resolve() : socket.once('close', () => resolve()))));
    for (const socket of this.sockets) socket.destroy();
    server.closeAllConnections();
    await Promise.all([closed, ...sockets]);
  }

  /** Number of sockets currently open (for leak assertions). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Adds a rule; rules are tried in the order added. */
  on(match: FakeRule['match'], reply: FakeRule['reply'], times?: number): this {
    this.rules.push({ match, reply, used: 0, ...(times === undefined ? {} : { times }) });
    return this;
  }

  /** Answers the next request (any request) once with `reply`; queued replies are used in order. */
  enqueue(...replies: FakeReply[]): this {
    for (const reply of replies) this.on(matchers.any(), reply, 1);
    return this;
  }

  /** Drops every rule and the request log. */
  reset(): void {
    this.rules.length = 0;
    this.requests.length = 0;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: FakeChatBody | undefined;
    try {
      body = rawBody === '' ? undefined : (JSON.parse(rawBody) as FakeChatBody);
    } catch {
      body = undefined;
    }
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const logged: FakeRequest = { method: request.method ?? 'GET', path, headers: { ...request.headers }, body, rawBody, index: this.requests.length };
    this.requests.push(logged);

    if (request.method === 'GET' && path === '/v1/models') {
      const data = (this.options.models ?? ['fake-model']).map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' }));
      sendJson(response, 200, { object: 'list', data });
      return;
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(response, 404, { error: { message: `Fake server: no route for ${request.method} ${path}.`, type: 'invalid_request_error' } });
      return;
    }
    const rule = this.rules.find((candidate) => (candidate.times === undefined || candidate.used < candidate.times) && candidate.match(logged));
    if (!rule) {
      sendJson(response, 418, { error: { message: `Fake server: no scripted reply matched request #${logged.index}.`, type: 'fake_server_error' } });
      return;
    }
    rule.used++;
    const reply = typeof rule.reply === 'function' ? rule.reply(logged) : rule.reply;
    if (reply.delayMs) await this.delay(reply.delayMs);
    if (response.destroyed || !this.server) return;
    this.respond(reply, body, response);
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  private respond(reply: FakeReply, body: FakeChatBody | undefined, response: ServerResponse): void {
    const model = (reply.kind === 'message' ? reply.model : undefined) ?? body?.model ?? 'fake-model';
    const streaming = body?.stream === true;
    switch (reply.kind) {
      case 'error':
        sendJson(response, reply.status, { error: { message: reply.message ?? `Fake server error ${reply.status}.`, type: 'server_error', code: null } }, reply.headers);
        return;
      case 'malformed':
        if (streaming) {
          startSse(response);
          response.write('data: {"id": "broken", "choices": [ {"delta": \n\n');
          response.end('data: [DONE]\n\n');
        } else {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{"id": "chatcmpl-broken", "choices": [ {"message": ');
        }
        return;
      case 'empty_choices':
        if (streaming) {
          startSse(response);
          response.end('data: [DONE]\n\n');
        } else {
          sendJson(response, 200, { id: 'chatcmpl-empty', object: 'chat.completion', created: 0, model, choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } });
        }
        return;
      case 'cut':
        if (streaming) {
          startSse(response);
          for (const piece of split(reply.content.slice(0, reply.afterChars), 8)) response.write(sse(chunk(model, { content: piece })));
        } else {
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(reply.content.length + 200) });
          response.write(JSON.stringify({ id: 'chatcmpl-cut', choices: [{ message: { content: reply.content } }] }).slice(0, reply.afterChars));
        }
        // Let the written bytes leave before the connection is torn down.
        setImmediate(() => response.socket?.destroy());
        return;
      case 'stall':
        if (streaming) {
          startSse(response);
          for (let sent = 0; sent < (reply.sentChunks ?? 0); sent++) response.write(sse(chunk(model, { content: 'x' })));
        } else {
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        }
        response.flushHeaders();
        return;
      case 'drip': {
        const bytes = Buffer.from(streaming ? `${sse(chunk(model, { content: reply.content }))}data: [DONE]\n\n` : JSON.stringify(completion({ kind: 'message', content: reply.content }, model)));
        if (streaming) startSse(response);
        else response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
        response.flushHeaders();
        this.drip(response, bytes, reply.intervalMs);
        return;
      }
      case 'json':
        sendJson(response, reply.status ?? 200, reply.body);
        return;
      case 'events':
        startSse(response);
        for (const event of reply.events) response.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
        if (reply.cut) setImmediate(() => response.socket?.destroy());
        else response.end('data: [DONE]\n\n');
        return;
      case 'message':
        if (streaming) this.streamMessage(reply, model, body?.stream_options?.include_usage === true, response);
        else sendJson(response, 200, completion(reply, model));
        return;
    }
  }

  private drip(response: ServerResponse, bytes: Buffer, intervalMs: number, offset = 0): void {
    if (response.destroyed || !this.server) return;
    if (offset >= bytes.length) {
      response.end();
      return;
    }
    response.write(bytes.subarray(offset, offset + 1));
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.drip(response, bytes, intervalMs, offset + 1);
    }, intervalMs);
    this.timers.add(timer);
  }

  private streamMessage(reply: Extract<FakeReply, { kind: 'message' }>, model: string, includeUsage: boolean, response: ServerResponse): void {
    startSse(response);
    response.write(sse(chunk(model, { role: 'assistant', content: '' })));
    for (const piece of split(reply.content ?? '', reply.chunkSize ?? 16)) response.write(sse(chunk(model, { content: piece })));
    (reply.toolCalls ?? []).forEach((call, index) => {
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      response.write(sse(chunk(model, { tool_calls: [{ index, id: call.id ?? `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } }] })));
      for (const piece of split(args, reply.chunkSize ?? 16)) response.write(sse(chunk(model, { tool_calls: [{ index, function: { arguments: piece } }] })));
    });
    const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
    response.write(sse({ ...chunk(model, {}), choices: [{ index: 0, delta: {}, finish_reason: finish }] }));
    if (includeUsage && reply.usage !== null) {
      const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
      response.write(sse({ ...chunk(model, {}), choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }));
    }
    response.end('data: [DONE]\n\n');
  }
}

function completion(reply: Extract<FakeReply, { kind: 'message' }>, model: string): Record<string, unknown> {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  const usage = reply.usage === null ? undefined : (reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 });
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
        finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      },
    ],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

function chunk(model: string, delta: Record<string, unknown>): Record<string, unknown> {
  return { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: null }] };
}

function sse(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function startSse(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += Math.max(1, size)) pieces.push(text.slice(start, start + Math.max(1, size)));
  return pieces;
}
