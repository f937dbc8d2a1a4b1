import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMcpConfig } from '../../../src/core/mcp/mcpConfig';
import { connectMcpServer } from '../../../src/node/mcpConnection';

// Attacks as a hostile MCP server reached by URL: a message of any size (an SSE event without its end, a JSON body, a
// tool list) was read whole into memory, where a stdio server's is cut at 10 MB. An outside attack crashed the CLI (and
// would the extension host) with an SSE event of 1.5 GB without a line break: "JavaScript heap out of memory".

const mb = 1024 * 1024;
const options = { baseEnv: process.env, startTimeoutMs: 10_000, callTimeoutMs: 8_000 };

type Reply = (message: { id: number; method: string }, response: ServerResponse) => boolean;

/** A Streamable HTTP MCP server on 127.0.0.1 with one tool, whose answers `reply` may take over; resolves its address and a way to close it. */
async function hostileServer(reply: Reply): Promise<{ url: string; sent: () => number; close: () => Promise<void> }> {
  let sent = 0;
  const open = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.method !== 'POST') {
        response.statusCode = 405;
        response.end();
        return;
      }
      const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) {
        response.statusCode = 202;
        response.end();
        return;
      }
      open.add(response);
      response.on('close', () => open.delete(response));
      const write = response.write.bind(response);
      response.write = ((chunk: string, ...rest: never[]) => ((sent += Buffer.byteLength(chunk)), write(chunk, ...rest))) as typeof response.write;
      if (reply({ id: message.id, method: message.method }, response)) return;
      const result =
        message.method === 'initialize'
          ? { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'big', inputSchema: { type: 'object' } }] }
            : { content: [{ type: 'text', text: 'small' }] };
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sent: () => sent,
    close: () => {
      for (const response of open) response.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes `total` bytes of `chunk`s to `response` as the client reads them, then leaves it open (`end` false) or ends it with `tail`. */
function pump(response: ServerResponse, total: number, tail?: string): void {
  const chunk = 'x'.repeat(mb);
  let written = 0;
  const more = (): void => {
    while (written < total) {
      written += chunk.length;
      if (!response.write(chunk)) return;
    }
    if (tail !== undefined) response.end(tail);
  };
  response.on('drain', more);
  more();
}

function httpConfig(url: string) {
  return parseMcpConfig({ servers: { remote: { type: 'http', url } } }, { label: 'test config', origin: 'user', folder: process.cwd() }).servers[0]!;
}

describe('attack: connectMcpServer bounds what an HTTP server sends as it bounds a stdio server (10 MB a message)', function () {
  this.timeout(30_000);

  it('an SSE event that never ends (30 MB without a line break) closes the connection at once, saying why; the rest is not read', async () => {
    const server = await hostileServer((message, response) => {
      if (message.method !== 'tools/call') return false;
      response.setHeader('content-type', 'text/event-stream');
      response.write('event: message\ndata: ');
      pump(response, 30 * mb);
      return true;
    });
    const connection = await connectMcpServer(httpConfig(server.url), options);
    try {
      const started = Date.now();
      await assert.rejects(connection.callTool('big', {}, new AbortController().signal), (error: Error) => {
        assert.match(error.message, /^MCP server "remote" stopped while tool "big" was running \(it sent a message larger than 10 MB, so the connection was closed\)/);
        return true;
      });
      assert.ok(Date.now() - started < options.callTimeoutMs - 1000, `it failed only after ${Date.now() - started} ms`);
      assert.equal(connection.stopped(), true);
      assert.ok(server.sent() < 25 * mb, `${server.sent()} bytes were read`);
    } finally {
      await connection.stop();
      await server.close();
    }
  });

  it('a JSON answer of 30 MB fails the call saying why, and the server is stopped', async () => {
    const server = await hostileServer((message, response) => {
      if (message.method !== 'tools/call') return false;
      response.setHeader('content-type', 'application/json');
      response.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
      pump(response, 30 * mb, '"}]}}');
      return true;
    });
    const connection = await connectMcpServer(httpConfig(server.url), options);
    try {
      await assert.rejects(connection.callTool('big', {}, new AbortController().signal), /it sent a message larger than 10 MB, so the connection was closed/);
      assert.equal(connection.stopped(), true);
    } finally {
      await connection.stop();
      await server.close();
    }
  });

  it('a tool list of 30 MB: the server is not started, saying why', async () => {
    const server = await hostileServer((message, response) => {
      if (message.method !== 'tools/list') return false;
      response.setHeader('content-type', 'application/json');
      response.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"tools":[{"name":"big","inputSchema":{"type":"object"},"description":"`);
      pump(response, 30 * mb, '"}]}}');
      return true;
    });
    try {
      await assert.rejects(connectMcpServer(httpConfig(server.url), options), (error: Error) => {
        assert.match(error.message, /^MCP server "remote" could not be started: it sent a message larger than 10 MB, so the connection was closed/);
        return true;
      });
    } finally {
      await server.close();
    }
  });

  it('a stream of 12 MB in many small events (progress, then the result) is read whole: the limit is per message', async () => {
    const server = await hostileServer((message, response) => {
      if (message.method !== 'tools/call') return false;
      response.setHeader('content-type', 'text/event-stream');
      const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'n'.repeat(1000) } });
      let events = '';
      for (let index = 0; index < 12_000; index++) events += `event: message\r\ndata: ${note}\r\n\r\n`;
      response.write(events);
      response.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`);
      return true;
    });
    const connection = await connectMcpServer(httpConfig(server.url), options);
    try {
      assert.deepEqual(await connection.callTool('big', {}, new AbortController().signal), { content: [{ type: 'text', text: 'done' }] });
      assert.ok(server.sent() > 12 * mb);
      assert.equal(connection.stopped(), false);
    } finally {
      await connection.stop();
      await server.close();
    }
  });
});
