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

  it('a stream of 12 MB in many small events (progress, then the result) is read whole: the limit is per message', async function () {
    // What is tested is that the stream is read whole, not how fast: a clean clone's loaded 2-core machine took over the 8 s
    // call limit to parse its 12,000 events.
    this.timeout(90_000);
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
    const connection = await connectMcpServer(httpConfig(server.url), { ...options, callTimeoutMs: 60_000 });
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

describe('attack: connectMcpServer holds a start to its time limit, however many pages of tools a server sends', function () {
  this.timeout(60_000);

  it('a server answering each of 20 pages of its tool list just before the limit is stopped at the limit, not after 20 of them', async () => {
    let pages = 0;
    const server = await hostileServer((message, response) => {
      if (message.method !== 'tools/list') return false;
      pages++;
      setTimeout(() => {
        response.setHeader('content-type', 'application/json');
        const result = { tools: [{ name: `t${pages}`, inputSchema: { type: 'object' } }], nextCursor: String(pages) };
        response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      }, 700);
      return true;
    });
    const started = Date.now();
    try {
      await assert.rejects(connectMcpServer(httpConfig(server.url), { ...options, startTimeoutMs: 1500 }), (error: Error) => {
        assert.match(error.message, /^MCP server "remote" could not be started: it did not start and list its tools within 2 s \(timed out\)/);
        return true;
      });
      assert.ok(Date.now() - started < 4000, `the start took ${Date.now() - started} ms`);
      assert.ok(pages <= 3, `${pages} pages were asked for`);
    } finally {
      await server.close();
    }
  });
});

describe('attack: connectMcpServer bounds what a stdio server gets into the log through its stdout', function () {
  this.timeout(60_000);

  // A raw JSON-RPC server: answers initialize, tools/list and tools/call, the call only after 200 000 lines on stdout that are no JSON.
  const junkServer = `
    const readline = require('node:readline');
    const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
    readline.createInterface({ input: process.stdin }).on('line', async (line) => {
      const message = JSON.parse(line);
      if (message.id === undefined) return;
      if (message.method === 'initialize') {
        send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'junk', version: '1' } } });
      } else if (message.method === 'tools/list') {
        send({ id: message.id, result: { tools: [{ name: 'junk', inputSchema: { type: 'object' } }] } });
      } else {
        const block = ('no json \\u001b[2J\\u001b]52;c;cm0gLXJm\\u0007 ' + 'x'.repeat(40) + '\\n').repeat(10000);
        for (let i = 0; i < 20; i++) await new Promise((done) => process.stdout.write(block, done));
        send({ id: message.id, result: { content: [{ type: 'text', text: 'junked' }] } });
      }
    });`;

  it('200 000 lines that are no JSON on stdout log a bounded number of lines, without their controls, and the call still answers', async () => {
    const [config] = parseMcpConfig(
      { servers: { junk: { command: process.execPath, args: ['-e', junkServer] } } },
      { label: 'test config', origin: 'user', folder: process.cwd() },
    ).servers;
    const logged: string[] = [];
    const connection = await connectMcpServer(config!, { ...options, callTimeoutMs: 50_000, log: (text) => logged.push(text) });
    try {
      assert.deepEqual(await connection.callTool('junk', {}, new AbortController().signal), { content: [{ type: 'text', text: 'junked' }] });
      const characters = logged.reduce((sum, text) => sum + text.length, 0);
      assert.ok(logged.length <= 200, `${logged.length} lines were logged`);
      assert.ok(characters <= 100_000, `${characters} characters were logged`);
      assert.ok(logged.some((text) => /100 errors logged, any more are not/.test(text)), 'the log does not say it stopped logging them');
      assert.ok(!logged.some((text) => /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)), 'a control character reached the log');
    } finally {
      await connection.stop();
    }
  });
});
