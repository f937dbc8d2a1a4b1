// A pass-through HTTP proxy on 127.0.0.1 in front of an OpenAI-compatible endpoint: the CLI under eval talks to it,
// so the harness counts every request of a task (planning and run alike) and the tokens the endpoint reported,
// without a second runner or a hook in the product. Bodies pass unchanged; the Authorization header is forwarded,
// never logged.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the endpoint was asked and reported since the last `take()`. */
export interface ProxyCount {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Requests whose reply reported no usage (their tokens are not in the sums). */
  withoutUsage: number;
}

/** Most bytes of a reply scanned for its usage; the reply itself passes whole. */
const maxScannedBytes = 4 * 1024 * 1024;

/** Starts the proxy to `target` (`https://host/v1`); `baseURL` is what to give the CLI instead. */
export async function startCountingProxy(target: string): Promise<{ baseURL: string; take: () => ProxyCount; close: () => Promise<void> }> {
  const upstream = new URL(target.endsWith('/') ? target : `${target}/`);
  let count: ProxyCount = { requests: 0, promptTokens: 0, completionTokens: 0, withoutUsage: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    void forward(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `eval proxy: ${error instanceof Error ? error.message : String(error)}` } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = (request.url ?? '/').replace(/^\/v1\//, '');
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const isChat = path.startsWith('chat/completions');
    if (isChat) count.requests++;
    const controller = new AbortController();
    response.on('close', () => controller.abort());
    const reply = await fetch(new URL(path, upstream), {
      method: request.method ?? 'GET',
      headers,
      signal: controller.signal,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    response.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' });
    let scanned = '';
    if (reply.body) {
      for await (const chunk of reply.body) {
        response.write(chunk);
        if (scanned.length < maxScannedBytes) scanned += Buffer.from(chunk).toString('utf8');
      }
    }
    response.end();
    if (isChat) addUsage(scanned);
  }

  function addUsage(body: string): void {
    // A JSON reply, or an SSE stream whose last chunk carries the usage (stream_options.include_usage).
    const candidates = body.trimStart().startsWith('{')
      ? [body]
      : body
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim());
    for (const text of candidates.reverse()) {
      const usage = usageOf(text);
      if (usage) {
        count.promptTokens += usage.prompt;
        count.completionTokens += usage.completion;
        return;
      }
    }
    count.withoutUsage++;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    take() {
      const taken = count;
      count = { requests: 0, promptTokens: 0, completionTokens: 0, withoutUsage: 0 };
      return taken;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function usageOf(text: string): { prompt: number; completion: number } | undefined {
  try {
    const parsed = JSON.parse(text) as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null };
    const usage = parsed.usage;
    if (!usage || typeof usage.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number') return undefined;
    return { prompt: usage.prompt_tokens, completion: usage.completion_tokens };
  } catch {
    return undefined;
  }
}
