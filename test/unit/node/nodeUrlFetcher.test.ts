import assert from 'node:assert/strict';
import type { lookup } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createFetchUrlTool } from '../../../src/core/tools/fetchUrlTool';
import { isApprovalRejectedError } from '../../../src/core/tools/approvals';
import { addressKind } from '../../../src/core/web/fetchUrlTarget';
import { isRedirectNotFollowed } from '../../../src/core/web/redirectNotFollowed';
import { createNodeUrlFetcher } from '../../../src/node/nodeUrlFetcher';
import { ManualClock } from '../../fakes/manualClock';
import { ScriptedInteraction } from '../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../fakes/toolContext';

const article = `<!doctype html><html><head><title>Release notes</title><script>steal()</script></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Release notes</h1><p>Version <strong>2.0</strong> brings a new planner. It reads every tool the user already has, and it explains each step before it runs.</p>
<p>It also keeps the run journal small, so a long run resumes quickly after the window is reloaded. This paragraph is long enough for Readability to call it content.</p>
<ul><li>Faster runs</li><li>Fewer questions</li></ul><pre><code>npm install task-planner</code></pre></article>
<footer>Copyright</footer></body></html>`;

/** A compressed body of 200 000 bytes, so its first 100 bytes are not the whole of it. */
const longGzip = gzipSync(Buffer.alloc(200_000, 'x'));

describe('createNodeUrlFetcher (against a server on 127.0.0.1)', () => {
  let server: Server;
  let base: string;
  let seenHeaders: IncomingHttpHeaders | undefined;
  const hanging = new Set<() => void>();
  let silentReached: () => void = () => undefined;
  let secretReads = 0;
  let port = '';

  before(async () => {
    server = createServer((request, response) => {
      seenHeaders = request.headers;
      const path = request.url ?? '/';
      if (path === '/article') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(article);
      } else if (path === '/gzip') {
        response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        response.end(gzipSync('compressed text'));
      } else if (path === '/gzip-stall' || path === '/gzip-cut') {
        // The first bytes of a gzip body, then nothing (a slow server) or a dropped connection.
        hanging.add(() => response.destroy());
        response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': String(longGzip.length) });
        response.write(longGzip.subarray(0, 100), () => (path === '/gzip-cut' ? response.socket?.destroy() : silentReached()));
      } else if (path === '/json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"a":1}');
      } else if (path === '/huge') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(1024 * 1024, 'a');
        let sent = 0;
        const pump = (): void => {
          while (sent < 50 && response.write(chunk)) sent++;
          if (sent >= 50) response.end();
          else response.once('drain', pump);
        };
        response.on('close', () => (sent = 50));
        pump();
      } else if (path === '/silent') {
        hanging.add(() => response.destroy());
        silentReached();
      } else if (path.startsWith('/loop')) {
        response.writeHead(302, { location: path === '/loop-a' ? '/loop-b' : '/loop-a' });
        response.end();
      } else if (path === '/to-file') {
        response.writeHead(301, { location: 'file:///etc/passwd' });
        response.end();
      } else if (path === '/to-metadata') {
        response.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
        response.end();
      } else if (path === '/secret') {
        secretReads++;
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('the admin page of a server on this machine');
      } else if (path.startsWith('/to-')) {
        const targets: Record<string, string> = {
          '/to-loopback': `http://127.0.0.1:${port}/secret`,
          '/to-localhost': `http://localhost:${port}/secret`,
          '/to-decimal': `http://2130706433:${port}/secret`,
          '/to-mapped': `http://[::ffff:127.0.0.1]:${port}/secret`,
          '/to-hex': `http://0x7f.1:${port}/secret`,
          '/to-other': `http://other.example:${port}/to-loopback`,
        };
        response.writeHead(302, { location: targets[path] ?? '/missing' });
        response.end();
      } else if (path === '/hop') {
        response.writeHead(302, { location: '/json' });
        response.end();
      } else if (path === '/controls') {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('before\u001b]0;owned\u0007\u001b[2Jafter\r\u202eevil\u009b31m');
      } else if (path === '/image') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      } else if (path === '/missing') {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('no such page');
      } else {
        response.writeHead(500);
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = String((server.address() as AddressInfo).port);
    base = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    for (const end of hanging) end();
    await new Promise((resolve) => server.close(resolve));
  });

  const fetchUrl = createFetchUrlTool(createNodeUrlFetcher());
  const run = (url: string, format?: 'markdown' | 'raw', clock = new ManualClock()) =>
    fetchUrl.run(makeToolContext({ clock, interaction: ScriptedInteraction.approvingAll() }), { url, ...(format ? { format } : {}) }, neverAborted);

  it('turns an HTML article into Markdown of its main content, without scripts or navigation, and sends no credentials', async () => {
    const page = await run(`${base}/article`);
    assert.equal(page.format, 'markdown');
    assert.equal(page.title, 'Release notes');
    assert.match(page.content, /Version \*\*2\.0\*\* brings a new planner/);
    assert.match(page.content, /-\s+Faster runs\n-\s+Fewer questions/);
    assert.match(page.content, /```\nnpm install task-planner\n```/);
    assert.doesNotMatch(page.content, /steal\(\)|About|<p>/);
    assert.equal(seenHeaders?.cookie, undefined);
    assert.equal(seenHeaders?.authorization, undefined);
    assert.equal(seenHeaders?.['proxy-authorization'], undefined);
  });

  it('gives HTML as sent with format raw, JSON and decompressed text as they are', async () => {
    assert.match((await run(`${base}/article`, 'raw')).content, /<article><h1>/);
    assert.deepEqual(
      { ...(await run(`${base}/json`)) },
      { url: `${base}/json`, status: 200, contentType: 'application/json', format: 'text', content: '{"a":1}', truncated: false },
    );
    assert.equal((await run(`${base}/gzip`)).content, 'compressed text');
  });

  it('reads at most 2 MB of a 50 MB body and returns at most 200 000 characters, saying it cut', async () => {
    const page = await run(`${base}/huge`);
    assert.equal(page.truncated, true);
    assert.ok(page.content.length <= 200_000);
    assert.match(page.content, /more characters cut\)$/);
    const fetched = await createNodeUrlFetcher().fetch({ url: `${base}/huge`, format: 'raw', maxBytes: 2 * 1024 * 1024, maxRedirects: 5 }, neverAborted);
    assert.equal(fetched.content.length, 2 * 1024 * 1024);
    assert.equal(fetched.truncated, true);
  });

  it("gives up on a server that never answers once its time is up on the run's clock", async () => {
    const clock = new ManualClock();
    const reached = new Promise<void>((resolve) => (silentReached = resolve));
    const pending = run(`${base}/silent`, undefined, clock);
    const failed = assert.rejects(pending, /fetch_url gave up on http:\/\/127\.0\.0\.1:\d+\/silent: no complete answer within 30 s/);
    await reached;
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await clock.advance(29_999);
    assert.equal(settled, false);
    await clock.advance(30_000);
    await failed;
  });

  it('attack: gives up on a compressed body that stops coming once its time is up (it waited for ever)', async () => {
    const clock = new ManualClock();
    const reached = new Promise<void>((resolve) => (silentReached = resolve));
    const pending = run(`${base}/gzip-stall`, undefined, clock);
    const failed = assert.rejects(pending, /fetch_url gave up on http:\/\/127\.0\.0\.1:\d+\/gzip-stall: no complete answer within 30 s/);
    await reached;
    // the first bytes reach the reader in a turn or two of the event loop
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(30_000);
    await failed;
  });

  it('attack: fails on a compressed body whose connection drops midway (it waited for ever)', async () => {
    await assert.rejects(run(`${base}/gzip-cut`), /The answer broke off: aborted/);
  });

  it('stops a redirect loop after five redirects', async () => {
    await assert.rejects(run(`${base}/loop-a`), /redirected more than 5 times/);
  });

  it('follows a redirect to another page and re-checks each target: file:// and link-local targets are refused', async () => {
    assert.equal((await run(`${base}/hop`)).url, `${base}/json`);
    await assert.rejects(
      run(`${base}/to-file`),
      /redirected to file:\/\/\/etc\/passwd, which was refused: fetch_url reads only http:\/\/ and https:\/\/ addresses/,
    );
    await assert.rejects(run(`${base}/to-metadata`), /which was refused: fetch_url does not read from 169\.254\.169\.254/);
  });

  it('escapes every terminal control in the page before it reaches a terminal', async () => {
    const page = await run(`${base}/controls`);
    assert.equal(page.content, 'before\\u001b]0;owned\\u0007\\u001b[2Jafter\\u000d\\u202eevil\\u009b31m');
  });

  it('refuses a body that is not text, and fails with the status of an error page', async () => {
    await assert.rejects(run(`${base}/image`), /is image\/png, not text/);
    await assert.rejects(run(`${base}/missing`), /answered with status 404: no such page/);
  });

  it('refuses a public name that resolves to this machine (DNS rebinding)', async () => {
    const port = new URL(base).port;
    const rebinding = createNodeUrlFetcher(((
      _host: string,
      _options: unknown,
      callback: (error: null, addresses: { address: string; family: number }[]) => void,
    ) => callback(null, [{ address: '127.0.0.1', family: 4 }])) as unknown as typeof lookup);
    await assert.rejects(
      rebinding.fetch({ url: `http://attacker.example:${port}/json`, format: 'raw', maxBytes: 1000, maxRedirects: 0 }, neverAborted),
      /attacker\.example resolves to 127\.0\.0\.1, an address on this machine/,
    );
  });

  describe('G2: redirects from a public page to this machine', () => {
    // Every name resolves to this test's server on 127.0.0.1, which stands in for a public one: only the address a URL names outright is judged as it is.
    const anyNameHere = ((_host: string, _options: unknown, callback: (error: null, addresses: { address: string; family: number }[]) => void) =>
      callback(null, [{ address: '127.0.0.1', family: 4 }])) as unknown as typeof lookup;
    const publicFetcher = (): ReturnType<typeof createNodeUrlFetcher> => createNodeUrlFetcher(anyNameHere, (address) => (address === '127.0.0.1' ? 'public' : addressKind(address)));
    const publicRun = (url: string, interaction: ScriptedInteraction) =>
      createFetchUrlTool(publicFetcher()).run(makeToolContext({ clock: new ManualClock(), interaction }), { url }, neverAborted);

    it('asks before each spelling of 127.0.0.1 and localhost, and reads nothing there when refused', async () => {
      for (const [path, shown] of [
        ['/to-loopback', `http://127.0.0.1:${port}/secret`],
        ['/to-localhost', `http://localhost:${port}/secret`],
        ['/to-decimal', `http://127.0.0.1:${port}/secret`],
        ['/to-mapped', `http://[::ffff:7f00:1]:${port}/secret`],
        ['/to-hex', `http://127.0.0.1:${port}/secret`],
      ] as const) {
        const before = secretReads;
        const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
        await assert.rejects(publicRun(`http://public.example:${port}${path}`, interaction), (error: unknown) => isApprovalRejectedError(error), path);
        assert.deepEqual(
          interaction.approvals().map((request) => (request.kind === 'tool' ? [request.source, request.input] : undefined)),
          [['a server on this machine or your local network', { url: shown, redirectedFrom: `http://public.example:${port}${path}` }]],
          path,
        );
        assert.equal(secretReads, before, path);
      }
    });

    it('asks before the second hop of two, and reads the page once allowed', async () => {
      const before = secretReads;
      const refusing = new ScriptedInteraction({ approvals: [{ approved: false }] });
      await assert.rejects(publicRun(`http://public.example:${port}/to-other`, refusing), (error: unknown) => isApprovalRejectedError(error));
      assert.deepEqual(
        refusing.approvals().map((request) => (request.kind === 'tool' ? request.input : undefined)),
        [{ url: `http://127.0.0.1:${port}/secret`, redirectedFrom: `http://other.example:${port}/to-loopback` }],
      );
      assert.equal(secretReads, before);
      const page = await publicRun(`http://public.example:${port}/to-other`, new ScriptedInteraction({ approvals: [{ approved: true }] }));
      assert.equal(page.content, 'the admin page of a server on this machine');
      assert.equal(secretReads, before + 1);
    });

    it('never follows such a redirect by itself, whatever number of redirects it was allowed', async () => {
      const before = secretReads;
      await assert.rejects(
        publicFetcher().fetch({ url: `http://public.example:${port}/to-decimal`, format: 'raw', maxBytes: 1000, maxRedirects: 5 }, neverAborted),
        (error: unknown) =>
          isRedirectNotFollowed(error) && error.message === `http://public.example:${port}/to-decimal redirected to http://127.0.0.1:${port}/secret, which fetch_url did not follow.`,
      );
      assert.equal(secretReads, before);
      const local = await createNodeUrlFetcher().fetch({ url: `${base}/hop`, format: 'raw', maxBytes: 1000, maxRedirects: 1 }, neverAborted);
      assert.equal(local.url, `${base}/json`, 'within this machine, once asked about, it follows');
    });
  });
});
