import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { parseMcpConfig } from '../../../src/core/mcp/mcpConfig';
import { connectMcpServer, maxLoggedStderrChars } from '../../../src/node/mcpConnection';
import { pidNamespaceLauncher } from '../../../src/node/pidNamespace';
import { escapes, pidsWith, startedWith, survivorsAfter, uniqueSleep } from '../../support/processWatch';

const daemonizing = join(resolve(__dirname, '../../..'), 'test/fixtures/mcp/daemonizingServer.cjs');
const misbehaving = join(resolve(__dirname, '../../..'), 'test/fixtures/mcp/misbehavingServer.cjs');

/** The stdio server of daemonizingServer.cjs running `script` in the background. */
function server(script: string) {
  const config = parseMcpConfig(
    { servers: { daemon: { command: process.execPath, args: [daemonizing], env: { DAEMON_SCRIPT: script } } } },
    { label: 'test config', origin: 'user', folder: process.cwd() },
  );
  return config.servers[0]!;
}

const options = { baseEnv: process.env, startTimeoutMs: 20_000, callTimeoutMs: 5_000 };

describe('connectMcpServer: what a stdio server starts ends with it', function () {
  this.timeout(30_000);
  const started: string[] = [];
  const track = (marker: string): string => (started.push(marker), marker);
  afterEach(() => {
    for (const marker of started.splice(0)) for (const pid of pidsWith(marker)) process.kill(pid, 'SIGKILL');
  });

  for (const [name, script] of Object.entries(escapes)) {
    it(`kills ${name} of a server within 1 s of stopping it`, async function () {
      if (name !== 'a setsid grandchild' && (await pidNamespaceLauncher()) === undefined) this.skip();
      const marker = track(uniqueSleep());
      const connection = await connectMcpServer(server(script(marker)), options);
      await startedWith(marker);
      await connection.stop();
      const left = await survivorsAfter(marker, 1000);
      assert.deepEqual(left.map((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8')), [], `${name} survived its server`);
    });
  }

  it('without a PID namespace, still kills a setsid grandchild whose parent lives', async () => {
    const marker = track(uniqueSleep());
    const connection = await connectMcpServer(server(escapes['a setsid grandchild'](marker)), { ...options, pidNamespace: false });
    await startedWith(marker);
    await connection.stop();
    assert.deepEqual(await survivorsAfter(marker, 1000), []);
  });

  it('a contained server still dies of a signal it sends itself, and its stderr is its own (nothing added by the namespace)', async () => {
    const connection = await connectMcpServer(server(''), options);
    try {
      await assert.rejects(
        connection.callTool('die', {}, new AbortController().signal),
        (error: Error) => /stopped while tool "die" was running\. Its last output \(stderr\):\nabout to die: \\u001b\[2Jcleared\?$/.test(error.message),
      );
      assert.equal(connection.stopped(), true);
    } finally {
      await connection.stop();
    }
  });

  it('in a PID namespace, a server sees only its own processes', async function () {
    if ((await pidNamespaceLauncher()) === undefined) this.skip();
    const marker = track(uniqueSleep());
    const connection = await connectMcpServer(server(`sleep ${marker}`), options);
    try {
      const where = (await connection.callTool('where', {}, new AbortController().signal)) as { content: { text: string }[] };
      assert.ok(where.content[0]?.text.includes('"cwd"'));
      const [pid] = pidsWith(marker);
      const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
      // NSpid lists the pid in each namespace from the outermost: a second number means a namespace of its own.
      assert.match(status, /^NSpid:\s+\d+\s+\d+$/m, 'the server runs in a PID namespace of its own');
    } finally {
      await connection.stop();
    }
  });
});

describe('connectMcpServer: what a server writes to stderr', function () {
  this.timeout(30_000);

  it('attack: a server flooding stderr (20 MB) gets at most 1 MB into the log (a file in the editor), said once', async () => {
    const [config] = parseMcpConfig(
      { servers: { flood: { command: process.execPath, args: [misbehaving] } } },
      { label: 'test config', origin: 'user', folder: process.cwd() },
    ).servers;
    const marker = '\n[server flood wrote more than 1000000 characters to stderr: the rest is not logged]\n';
    const logged: string[] = [];
    let settled: () => void = () => undefined;
    // Stderr comes after the answer: the log is read once it said it stops, or (without a limit) once the flood's last line came.
    const done = new Promise<void>((resolve) => (settled = resolve));
    let tail = (): string => '';
    const log = (text: string): void => {
      logged.push(text);
      if (text === marker || tail().endsWith('end of flood')) settled();
    };
    const connection = await connectMcpServer(config!, { ...options, log });
    tail = () => connection.stderrTail();
    try {
      assert.deepEqual(await connection.callTool('stderr_flood', {}, new AbortController().signal), { content: [{ type: 'text', text: 'flooded' }] });
      await done;
      const total = logged.filter((text) => text !== marker).reduce((sum, text) => sum + text.length, 0);
      assert.ok(total <= maxLoggedStderrChars, `${total} characters of stderr were logged`);
      assert.ok(total > maxLoggedStderrChars / 2, `only ${total} characters of stderr were logged`);
      assert.equal(logged.filter((text) => text === marker).length, 1);
    } finally {
      await connection.stop();
    }
  });
});

describe('connectMcpServer: an HTTP server sends its headers to its own address only', function () {
  this.timeout(30_000);

  /** Listens on 127.0.0.1 with `handler`; resolves its address and a way to close it. */
  async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/mcp`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  for (const status of [301, 302, 307, 308]) {
    it(`attack: a ${status} redirect to another origin does not carry the server's headers there, and says so in words`, async () => {
      const reached: (string | undefined)[] = [];
      const elsewhere = await listen((request, response) => {
        reached.push(request.headers['x-api-key'] as string | undefined);
        response.statusCode = 500;
        response.end();
      });
      const first = await listen((_request, response) => {
        response.statusCode = status;
        response.setHeader('location', elsewhere.url);
        response.end();
      });
      try {
        const [config] = parseMcpConfig(
          { servers: { remote: { type: 'http', url: first.url, headers: { 'X-Api-Key': 'the-users-key' } } } },
          { label: 'test config', origin: 'user', folder: process.cwd() },
        ).servers;
        await assert.rejects(connectMcpServer(config!, options), (error: Error) => {
          assert.match(error.message, /^MCP server "remote" could not be started: it sent the request on to http:\/\/127\.0\.0\.1:\d+\/mcp, another address/);
          assert.doesNotMatch(error.message, /redirectPolicy|Streamable HTTP/);
          return true;
        });
        assert.deepEqual(reached, [], 'the other origin was reached');
      } finally {
        await Promise.all([first.close(), elsewhere.close()]);
      }
    });
  }
});
