import assert from 'node:assert/strict';
import type { FetchedUrl, UrlFetchRequest, UrlFetcher } from '../../../../src/core/servicePorts';
import { isApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { isDeferredError } from '../../../../src/core/tools/deferral';
import { createFetchUrlTool } from '../../../../src/core/tools/fetchUrlTool';
import { isRedirectNotFollowed, RedirectNotFollowed } from '../../../../src/core/web/redirectNotFollowed';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

function fakeFetcher(page: Partial<FetchedUrl> = {}, redirects: Record<string, string> = {}): UrlFetcher & { requests: UrlFetchRequest[] } {
  const requests: UrlFetchRequest[] = [];
  return {
    requests,
    fetch(request) {
      requests.push(request);
      const to = redirects[request.url];
      if (to !== undefined) return Promise.reject(new RedirectNotFollowed(request.url, new URL(to, request.url).href));
      return Promise.resolve({ url: request.url, status: 200, contentType: 'text/plain', format: 'text', content: 'hello', truncated: false, ...page });
    },
  };
}

describe('fetch_url', () => {
  it('is a network tool whose input is a URL and an optional format', () => {
    const tool = createFetchUrlTool(fakeFetcher());
    assert.equal(tool.effects, 'network');
    assert.equal(tool.inputSchema.safeParse({ url: 'https://a.example', format: 'pdf' }).success, false);
    assert.equal(tool.inputSchema.safeParse({ url: 'https://a.example', extra: 1 }).success, false);
  });

  it('reads a public URL without asking under the default policy, as Markdown with the caps given to the fetcher', async () => {
    const fetcher = fakeFetcher();
    const interaction = new ScriptedInteraction();
    const result = await createFetchUrlTool(fetcher).run(makeToolContext({ interaction }), { url: 'https://docs.example/page' }, neverAborted);
    assert.equal(result.content, 'hello');
    assert.deepEqual(fetcher.requests, [{ url: 'https://docs.example/page', format: 'markdown', maxBytes: 2 * 1024 * 1024, maxRedirects: 0 }]);
    assert.equal(interaction.requests.length, 0);
  });

  it('asks under the "always" policy, naming the tool, the step and the URL; a "no" fetches nothing', async () => {
    const fetcher = fakeFetcher();
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'not now' }] });
    await assert.rejects(
      createFetchUrlTool(fetcher).run(
        makeToolContext({ interaction, approvalPolicy: 'always', stepTitle: 'Read docs' }),
        { url: 'https://docs.example/' },
        neverAborted,
      ),
      (error: unknown) => isApprovalRejectedError(error) && /reading https:\/\/docs\.example\/: not now/.test(error.message),
    );
    assert.deepEqual(interaction.approvals(), [
      { kind: 'tool', stepId: 'S1', title: 'Read docs', tool: 'fetch_url', source: 'the internet', input: { url: 'https://docs.example/' } },
    ]);
    assert.equal(fetcher.requests.length, 0);
  });

  it('always asks before reading this machine or the local network, even when commands only ask', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    await createFetchUrlTool(fakeFetcher()).run(
      makeToolContext({ interaction, approvalPolicy: 'commandsOnly' }),
      { url: 'http://localhost:8080/health' },
      neverAborted,
    );
    const [asked] = interaction.approvals();
    assert.equal(asked?.kind === 'tool' ? asked.source : undefined, 'a server on this machine or your local network');
  });

  it('suspends when nobody can answer the question', async () => {
    await assert.rejects(
      createFetchUrlTool(fakeFetcher()).run(
        makeToolContext({ interaction: new ScriptedInteraction({ approvals: ['defer'] }) }),
        { url: 'http://10.0.0.5/' },
        neverAborted,
      ),
      (error: unknown) => isDeferredError(error),
    );
  });

  describe('redirects (G2)', () => {
    const localSource = 'a server on this machine or your local network';
    const hopsOf = (fetcher: { requests: UrlFetchRequest[] }): string[] => fetcher.requests.map((request) => request.url);

    it('asks before a public page\'s redirect reaches this machine, in every spelling of it; a "no" reads nothing there', async () => {
      for (const [to, shown] of [
        ['http://127.0.0.1:8080/admin', 'http://127.0.0.1:8080/admin'],
        ['http://localhost/admin', 'http://localhost/admin'],
        ['http://2130706433/admin', 'http://127.0.0.1/admin'],
        ['http://[::ffff:127.0.0.1]/admin', 'http://[::ffff:7f00:1]/admin'],
        ['http://0x7f.1/admin', 'http://127.0.0.1/admin'],
        ['http://192.168.1.1/', 'http://192.168.1.1/'],
      ] as const) {
        const fetcher = fakeFetcher({}, { 'https://public.example/': to });
        const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
        await assert.rejects(
          createFetchUrlTool(fetcher).run(makeToolContext({ interaction, stepTitle: 'Read docs' }), { url: 'https://public.example/' }, neverAborted),
          (error: unknown) => isApprovalRejectedError(error) && error.message.includes(`reading ${shown}, where https://public.example/ redirected`),
          to,
        );
        assert.deepEqual(interaction.approvals(), [
          { kind: 'tool', stepId: 'S1', title: 'Read docs', tool: 'fetch_url', source: localSource, input: { url: shown, redirectedFrom: 'https://public.example/' } },
        ], to);
        assert.deepEqual(hopsOf(fetcher), ['https://public.example/'], to);
      }
    });

    it('asks about a hop two redirects away, and reads it once allowed', async () => {
      const fetcher = fakeFetcher({}, { 'https://public.example/': 'https://other.example/next', 'https://other.example/next': 'http://127.0.0.1/secret' });
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
      const page = await createFetchUrlTool(fetcher).run(makeToolContext({ interaction }), { url: 'https://public.example/' }, neverAborted);
      assert.equal(page.url, 'http://127.0.0.1/secret');
      assert.deepEqual(hopsOf(fetcher), ['https://public.example/', 'https://other.example/next', 'http://127.0.0.1/secret']);
      assert.equal(interaction.approvals().length, 1, 'the public hop asks nothing under the default policy');
      assert.ok(fetcher.requests.every((request) => request.maxRedirects === 0), 'the fetcher follows no redirect by itself');
    });

    it('under "always" asks for each hop to another server, but not again for a server already allowed in the call', async () => {
      const fetcher = fakeFetcher({}, { 'https://a.example/': 'https://a.example/b', 'https://a.example/b': 'https://c.example/', 'https://c.example/': 'https://a.example/d' });
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: true }] });
      await createFetchUrlTool(fetcher).run(makeToolContext({ interaction, approvalPolicy: 'always' }), { url: 'https://a.example/' }, neverAborted);
      assert.deepEqual(
        interaction.approvals().map((request) => (request.kind === 'tool' ? request.input : undefined)),
        [{ url: 'https://a.example/' }, { url: 'https://c.example/', redirectedFrom: 'https://a.example/b' }],
      );
      assert.equal(hopsOf(fetcher).length, 4);
    });

    it('asks again for a redirect from an allowed local server to another one on this machine', async () => {
      const fetcher = fakeFetcher({}, { 'http://localhost:3000/': 'http://localhost:3000/login', 'http://localhost:3000/login': 'http://localhost:9000/' });
      const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: false, reason: 'not that one' }] });
      await assert.rejects(createFetchUrlTool(fetcher).run(makeToolContext({ interaction }), { url: 'http://localhost:3000/' }, neverAborted), /not that one/);
      assert.equal(interaction.approvals().length, 2);
      assert.deepEqual(hopsOf(fetcher), ['http://localhost:3000/', 'http://localhost:3000/login']);
    });

    it('refuses a redirect to another scheme or a link-local address, naming where it came from', async () => {
      await assert.rejects(
        createFetchUrlTool(fakeFetcher({}, { 'https://a.example/': 'file:///etc/passwd' })).run(makeToolContext(), { url: 'https://a.example/' }, neverAborted),
        { message: 'https://a.example/ redirected to file:///etc/passwd, which was refused: fetch_url reads only http:// and https:// addresses, not "file:" ones.' },
      );
      await assert.rejects(
        createFetchUrlTool(fakeFetcher({}, { 'https://a.example/': 'http://169.254.169.254/' })).run(makeToolContext(), { url: 'https://a.example/' }, neverAborted),
        /which was refused: fetch_url does not read from 169\.254\.169\.254/,
      );
    });

    it('follows at most five redirects', async () => {
      const chain: Record<string, string> = {};
      for (let index = 0; index < 6; index++) chain[`https://a.example/${index}`] = `https://a.example/${index + 1}`;
      const fetcher = fakeFetcher({}, Object.fromEntries(Object.entries(chain).slice(0, 5)));
      assert.equal((await createFetchUrlTool(fetcher).run(makeToolContext(), { url: 'https://a.example/0' }, neverAborted)).url, 'https://a.example/5');
      await assert.rejects(
        createFetchUrlTool(fakeFetcher({}, chain)).run(makeToolContext(), { url: 'https://a.example/0' }, neverAborted),
        { message: 'https://a.example/5 redirected more than 5 times; fetch_url stopped following.' },
      );
    });

    it('passes on any other failure of the fetcher, and knows a redirect error from another copy of the code', async () => {
      await assert.rejects(
        createFetchUrlTool({ fetch: () => Promise.reject(new Error('Could not read')) }).run(makeToolContext(), { url: 'https://a.example/' }, neverAborted),
        { message: 'Could not read' },
      );
      const copy = Object.assign(new Error('x'), { name: 'RedirectNotFollowed', from: 'https://a.example/', to: 'https://b.example/' });
      assert.equal(isRedirectNotFollowed(copy), true);
      assert.equal(isRedirectNotFollowed(Object.assign(new Error('x'), { name: 'RedirectNotFollowed', from: 'https://a.example/' })), false);
      assert.equal(isRedirectNotFollowed(Object.assign(new Error('x'), { name: 'RedirectNotFollowed', to: 'https://a.example/' })), false);
      assert.equal(isRedirectNotFollowed(Object.assign(new Error('x'), { from: 'a', to: 'b' })), false);
      assert.equal(isRedirectNotFollowed({ name: 'RedirectNotFollowed', from: 'a', to: 'b' }), false);
      assert.equal(new RedirectNotFollowed('https://a.example/', 'https://b.example/').message, 'https://a.example/ redirected to https://b.example/, which fetch_url did not follow.');
    });
  });

  it('refuses schemes, credentials and link-local addresses before asking or fetching', async () => {
    const fetcher = fakeFetcher();
    const tool = createFetchUrlTool(fetcher);
    for (const url of ['file:///etc/passwd', 'https://me:pw@example.com/', 'http://169.254.169.254/']) {
      await assert.rejects(tool.run(makeToolContext({ interaction: new ScriptedInteraction() }), { url }, neverAborted), /fetch_url/);
    }
    assert.equal(fetcher.requests.length, 0);
  });

  it('escapes controls in the content, title and URL, caps the content and says so', async () => {
    const tool = createFetchUrlTool(fakeFetcher({ content: `\u001b[31m${'x'.repeat(300_000)}`, title: 'T\u0007itle', url: 'https://a.example/\u009b' }));
    const result = await tool.run(makeToolContext(), { url: 'https://a.example/' }, neverAborted);
    assert.ok(result.content.startsWith('\\u001b[31mxxx'));
    assert.ok(result.content.length <= 200_000);
    assert.equal(result.truncated, true);
    assert.equal(result.title, 'T\\u0007itle');
    assert.equal(result.url, 'https://a.example/\\u009b');
    assert.equal(tool.resultText?.(result), result.content);
  });

  it('fails with the status of an error answer, retryable only for a server error or rate limit', async () => {
    await assert.rejects(
      createFetchUrlTool(fakeFetcher({ status: 404, content: 'gone' })).run(makeToolContext(), { url: 'https://a.example/x' }, neverAborted),
      (error: Error & { retryable?: boolean }) => /https:\/\/a\.example\/x answered with status 404: gone/.test(error.message) && error.retryable === false,
    );
    await assert.rejects(
      createFetchUrlTool(fakeFetcher({ status: 503, content: '' })).run(makeToolContext(), { url: 'https://a.example/x' }, neverAborted),
      (error: Error & { retryable?: boolean }) => error.retryable === true,
    );
  });

  it('draws the line at status 400, and retries only a rate limit (429) or a server error (500 and up)', async () => {
    const outcome = (status: number): Promise<string> =>
      createFetchUrlTool(fakeFetcher({ status, content: 'body' }))
        .run(makeToolContext(), { url: 'https://a.example/x' }, neverAborted)
        .then(
          () => 'ok',
          (error: Error & { retryable?: boolean }) => (error.retryable === true ? 'retry' : 'fail'),
        );
    assert.deepEqual(await Promise.all([399, 400, 428, 429, 430, 499, 500].map(outcome)), ['ok', 'fail', 'fail', 'retry', 'fail', 'fail', 'retry']);
  });

  it('says the content was cut only when it was: by the fetcher, or past the result cap', async () => {
    const exactly = await createFetchUrlTool(fakeFetcher({ content: 'x'.repeat(200_000) })).run(makeToolContext(), { url: 'https://a.example/' }, neverAborted);
    assert.equal(exactly.truncated, false);
    const byFetcher = await createFetchUrlTool(fakeFetcher({ truncated: true })).run(makeToolContext(), { url: 'https://a.example/' }, neverAborted);
    assert.equal(byFetcher.truncated, true);
    const progress: string[] = [];
    await createFetchUrlTool(fakeFetcher()).run(makeToolContext({ progress: (message: string) => progress.push(message) }), { url: 'https://a.example/' }, neverAborted);
    assert.deepEqual(progress, ['fetching a.example']);
  });

  it('gives a later step the content as text, and any other kept value as JSON', () => {
    const tool = createFetchUrlTool(fakeFetcher());
    assert.equal(tool.resultText?.({ content: 'page' }), 'page');
    assert.equal(tool.resultText?.({ content: 7 }), '{"content":7}');
    assert.equal(tool.resultText?.(null), 'null');
    assert.equal(tool.resultText?.('text'), 'text');
  });

  it("gives up after 30 s on the clock, aborting the fetch, and passes a cancelled run's reason on", async () => {
    let seen: AbortSignal | undefined;
    const never: UrlFetcher = {
      fetch: (_request, signal) => {
        seen = signal;
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
      },
    };
    const clock = new ManualClock();
    const timedOut = assert.rejects(
      createFetchUrlTool(never).run(makeToolContext({ clock }), { url: 'https://slow.example/' }, neverAborted),
      /gave up on https:\/\/slow\.example\/: no complete answer within 30 s/,
    );
    await clock.advance(30_000);
    await timedOut;
    assert.equal(seen?.aborted, true);
    const cancel = new AbortController();
    const cancelled = assert.rejects(
      createFetchUrlTool(never).run(makeToolContext({ clock }), { url: 'https://slow.example/' }, cancel.signal),
      /run cancelled/,
    );
    cancel.abort(new Error('run cancelled'));
    await cancelled;
    assert.equal(clock.pendingCount, 0);
  });
});
