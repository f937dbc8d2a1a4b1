import assert from 'node:assert/strict';
import type { lookup } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchUrlTool } from '../../../src/core/tools/fetchUrlTool';
import { isApprovalRejectedError } from '../../../src/core/tools/approvals';
import { addressKind } from '../../../src/core/web/fetchUrlTarget';
import { createNodeUrlFetcher } from '../../../src/node/nodeUrlFetcher';
import { ManualClock } from '../../fakes/manualClock';
import { ScriptedInteraction } from '../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../fakes/toolContext';

/** A lookup that answers every name with `addresses` (a DNS server the attacker runs, or the intranet's). */
function answering(addresses: { address: string; family: number }[]): typeof lookup {
  return ((_host: string, _options: unknown, callback: (error: null, found: { address: string; family: number }[]) => void) =>
    callback(null, addresses)) as unknown as typeof lookup;
}

describe('attack: fetch_url and where its requests really go (nodeUrlFetcher)', () => {
  let server: http.Server;
  let port = '';
  /** Absolute-form request targets the stand-in proxy received, and the paths the stand-in intranet page served. */
  const proxied: string[] = [];
  let intranetReads = 0;

  before(async () => {
    server = http.createServer((request, response) => {
      const target = request.url ?? '/';
      if (/^https?:\/\//.test(target)) {
        // A forward proxy: it resolves the name itself (from where it runs: the company's network, a cloud VM) and reads the page.
        proxied.push(target);
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(`internal page read through the proxy: ${target}`);
        return;
      }
      if (target === '/intranet') {
        intranetReads++;
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('intranet wiki: the deploy password is hunter2');
        return;
      }
      if (target === '/to-ip6-metadata') {
        response.writeHead(302, { location: 'http://[::ffff:169.254.169.254]/latest/meta-data/' });
        response.end();
        return;
      }
      if (target === '/to-data') {
        response.writeHead(302, { location: 'data:text/plain,owned' });
        response.end();
        return;
      }
      if (target === '/to-backslash') {
        response.writeHead(302, { location: `http:\\\\127.0.0.1:${port}\\intranet` });
        response.end();
        return;
      }
      if (target === '/to-siit') {
        response.writeHead(302, { location: `http://[::ffff:0:127.0.0.1]:${port}/intranet` });
        response.end();
        return;
      }
      if (target === '/to-localhost-dot') {
        response.writeHead(302, { location: `http://localhost%2e:${port}/intranet` });
        response.end();
        return;
      }
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = String((server.address() as AddressInfo).port);
  });

  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /**
   * Node's `http.request` as VS Code's extension host has it: `@vscode/proxy-agent` replaces it, and under the default
   * `http.proxySupport: "override"` with a proxy in force (the user's `http.proxy`, `HTTPS_PROXY`, or the system's/PAC,
   * common in companies) it ignores `agent: false`, puts its own proxy agent in, and sends the request to the proxy: the
   * request's `lookup` then resolves (at most) the proxy's name, never the page's. Here the proxy is this test's server.
   */
  async function throughVscodeProxyPatch<T>(work: () => Promise<T>): Promise<T> {
    const original = http.request;
    const patched = ((url: URL, options: http.RequestOptions, callback?: (response: http.IncomingMessage) => void) => {
      const target = new URL(url);
      return original(
        {
          host: '127.0.0.1',
          port: Number(port),
          method: options.method ?? 'GET',
          path: target.href,
          headers: { ...(options.headers ?? {}), host: target.host },
          ...(options.signal ? { signal: options.signal } : {}),
          agent: false,
        },
        callback,
      );
    }) as unknown as typeof http.request;
    (http as { request: typeof http.request }).request = patched;
    try {
      return await work();
    } finally {
      (http as { request: typeof http.request }).request = original;
    }
  }

  const toolOver = (fetcher: ReturnType<typeof createNodeUrlFetcher>, url: string, interaction = ScriptedInteraction.approvingAll()) =>
    createFetchUrlTool(fetcher).run(makeToolContext({ clock: new ManualClock(), interaction }), { url }, neverAborted);

  it('a public name that resolves to the intranet (or to cloud metadata) is refused even when VS Code routes Node http through a proxy', async () => {
    // Control: without the proxy patch, the name resolving to a private address is refused (held, see nodeUrlFetcher.test.ts).
    const intranetDns = answering([{ address: '10.1.2.3', family: 4 }]);
    await assert.rejects(
      createNodeUrlFetcher(intranetDns).fetch({ url: 'http://wiki.corp.example/admin', format: 'raw', maxBytes: 10_000, maxRedirects: 0 }, neverAborted),
      /resolves to 10\.1\.2\.3/,
    );
    // The same URL inside the extension host with a proxy configured: nobody is asked (a public name under the default policy), and the page is read.
    const interaction = new ScriptedInteraction({ approvals: [] });
    let page: Awaited<ReturnType<typeof toolOver>> | undefined;
    let error: unknown;
    await throughVscodeProxyPatch(async () => {
      try {
        page = await toolOver(createNodeUrlFetcher(intranetDns), 'http://wiki.corp.example/admin', interaction);
      } catch (caught) {
        error = caught;
      }
    });
    assert.deepEqual(interaction.approvals(), [], 'nobody was asked either way');
    assert.equal(
      page,
      undefined,
      `fetch_url read ${proxied.at(-1) ?? '?'} through the proxy, which resolved the name itself: "${page?.content ?? ''}". ` +
        'The DNS check (checkedLookup) never ran for wiki.corp.example; a public name leading to a private or link-local address must be refused.',
    );
    assert.ok(error instanceof Error);
  });

  it('a connection that lands on this machine by any other way (an agent patched to connect elsewhere) is refused, nothing read', async () => {
    const agent = http.Agent.prototype as unknown as { createConnection: (options: Record<string, unknown>, ...rest: unknown[]) => unknown };
    const original = agent.createConnection;
    // Whatever the lookup said (a public address), the socket goes to this test's server on 127.0.0.1.
    agent.createConnection = function (this: unknown, options: Record<string, unknown>, ...rest: unknown[]) {
      return original.call(this, { ...options, host: '127.0.0.1', port: Number(port), lookup: undefined }, ...rest);
    };
    const before = intranetReads;
    try {
      await assert.rejects(
        createNodeUrlFetcher(answering([{ address: '93.184.216.34', family: 4 }])).fetch(
          { url: 'http://public.example/intranet', format: 'raw', maxBytes: 10_000, maxRedirects: 0 },
          neverAborted,
        ),
        /the connection for public\.example went to 127\.0\.0\.1, an address on this machine/,
      );
    } finally {
      agent.createConnection = original;
    }
    assert.equal(intranetReads, before);
  });

  describe('held: redirect targets in other spellings (each checked like a first URL)', () => {
    // Every name resolves to this test's server, which stands in for a public one (as in nodeUrlFetcher.test.ts).
    const publicHere = (): ReturnType<typeof createNodeUrlFetcher> =>
      createNodeUrlFetcher(answering([{ address: '127.0.0.1', family: 4 }]), (address) => (address === '127.0.0.1' ? 'public' : addressKind(address)));

    it('refuses a redirect to IPv4-mapped cloud metadata and to a data: URL', async () => {
      await assert.rejects(toolOver(publicHere(), `http://public.example:${port}/to-ip6-metadata`), /link-local, unspecified, multicast and reserved/);
      await assert.rejects(toolOver(publicHere(), `http://public.example:${port}/to-data`), /reads only http:\/\/ and https:\/\//);
    });

    it('asks before a redirect to 127.0.0.1 spelled with backslashes, or as a SIIT address, and reads nothing when refused', async () => {
      for (const path of ['/to-backslash', '/to-siit']) {
        const before = intranetReads;
        const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
        await assert.rejects(toolOver(publicHere(), `http://public.example:${port}${path}`, interaction), (error: unknown) => isApprovalRejectedError(error), path);
        assert.equal(interaction.approvals().length, 1, path);
        assert.equal(intranetReads, before, path);
      }
    });

    it('never reads a redirect to "localhost%2e" (localhost.) unasked: the name resolving to this machine is refused', async () => {
      const before = intranetReads;
      // The real resolver: localhost. is this machine.
      await assert.rejects(toolOver(createNodeUrlFetcher(), `http://127.0.0.1:${port}/to-localhost-dot`));
      assert.equal(intranetReads, before);
    });
  });
});
