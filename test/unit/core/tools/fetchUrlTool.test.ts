import assert from 'node:assert/strict';
import type { FetchedUrl, UrlFetchRequest, UrlFetcher } from '../../../../src/core/ports';
import { isApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { isDeferredError } from '../../../../src/core/tools/deferral';
import { createFetchUrlTool } from '../../../../src/core/tools/fetchUrlTool';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

function fakeFetcher(page: Partial<FetchedUrl> = {}): UrlFetcher & { requests: UrlFetchRequest[] } {
  const requests: UrlFetchRequest[] = [];
  return {
    requests,
    fetch(request) {
      requests.push(request);
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
    assert.deepEqual(fetcher.requests, [{ url: 'https://docs.example/page', format: 'markdown', maxBytes: 2 * 1024 * 1024, maxRedirects: 5 }]);
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
