import { z } from 'zod';
import { StepFailure } from './stepFailure';
import { visibleControls } from '../../shared/visibleCharacters';
import type { FetchedUrl, UrlFetcher } from '../servicePorts';
import { capText } from '../text/capText';
import { valueText } from '../text/valueText';
import { checkFetchUrl, checkRedirectTarget, type FetchTarget } from '../web/fetchUrlTarget';
import { isRedirectNotFollowed } from '../web/redirectNotFollowed';
import { needsApproval, requireToolCallApproval } from './approvals';
import type { Tool, ToolContext } from './tool';

/** Limits of one `fetch_url` call: bytes read, characters returned, milliseconds waited, redirects followed. */
export const fetchUrlLimits = { maxBytes: 2 * 1024 * 1024, maxResultChars: 200_000, timeoutMs: 30_000, maxRedirects: 5 } as const;

const inputSchema = z.strictObject({
  url: z.string().min(1).max(4000).describe('The http:// or https:// address to read.'),
  format: z
    .enum(['markdown', 'raw'])
    .optional()
    .describe('"markdown" (default): an HTML page becomes the Markdown of its main content; "raw": the body as sent. Plain text and JSON come as they are.'),
});

/** What `fetch_url` returns: the page as the fetcher read it, its texts made safe to show (controls escaped) and bounded. */
export type FetchUrlOutput = FetchedUrl;

/**
 * `fetch_url` over `fetcher`: a GET of an http(s) URL as Markdown or text. Checked before
 * anything is asked (`checkFetchUrl`); asks per the approval policy for the network, and
 * always for an address on this machine or the local network. Redirects are followed
 * here, one request at a time (at most `maxRedirects`): each target is checked and asked
 * about by the same rule as the first URL, so a public page cannot lead to this machine
 * or the local network unasked (a target on a server the user already allowed in this
 * call, same scheme, host and port, does not ask again). Each request gives up after
 * `fetchUrlLimits.timeoutMs` on the run's `Clock`; reads at most `maxBytes` and returns at
 * most `maxResultChars` characters, every terminal control escaped. A status of 400 or more fails the step.
 */
export function createFetchUrlTool(fetcher: UrlFetcher, limits: typeof fetchUrlLimits = fetchUrlLimits): Tool<z.infer<typeof inputSchema>, FetchUrlOutput> {
  return {
    name: 'fetch_url',
    description: `Read a web page or file over http(s) with a GET, without credentials: HTML pages come back as the Markdown of their main content, text and JSON as they are. At most ${limits.maxBytes} bytes are read and ${limits.maxResultChars} characters returned (truncated: true when cut); it gives up on a request after ${limits.timeoutMs / 1000} s.`,
    inputSchema,
    effects: 'network',
    async run(ctx, input, signal) {
      let target = checkFetchUrl(input.url);
      const allowedOrigins = new Set<string>();
      // Awaited only when it asks: a fetch that asks nothing starts at once, as its time limit expects.
      if (mustAsk(ctx, target, allowedOrigins)) await askBeforeReading(ctx, target, undefined, allowedOrigins, signal);
      let fetched: FetchedUrl | undefined;
      for (let redirects = 0; fetched === undefined; redirects++) {
        const shown = target.url.href;
        ctx.progress?.(`fetching ${visibleControls(capText(target.url.host, 100))}`);
        try {
          fetched = await withTimeLimit(ctx.clock, limits.timeoutMs, signal, shown, (limited) =>
            // No redirect followed by the fetcher: each is checked and asked about here.
            fetcher.fetch({ url: shown, format: input.format ?? 'markdown', maxBytes: limits.maxBytes, maxRedirects: 0 }, limited),
          );
        } catch (error) {
          if (!isRedirectNotFollowed(error)) throw error;
          if (redirects >= limits.maxRedirects) {
            throw new Error(`${visibleControls(capText(error.from, 500))} redirected more than ${limits.maxRedirects} times; fetch_url stopped following.`, {
              cause: error,
            });
          }
          target = checkRedirectTarget(error.from, error.to);
          if (mustAsk(ctx, target, allowedOrigins)) await askBeforeReading(ctx, target, error.from, allowedOrigins, signal);
        }
      }
      if (fetched.status >= 400) {
        throw new StepFailure(
          `${visibleControls(capText(fetched.url, 500))} answered with status ${fetched.status}: ${visibleControls(capText(fetched.content.trim(), 300))}`,
          fetched.status >= 500 || fetched.status === 429,
        );
      }
      return safeOutput(fetched, limits.maxResultChars);
    },
    resultText: (output) => (isOutput(output) ? output.content : valueText(output)),
  };
}

/**
 * Whether reading `target` asks first: by the rule for a first URL (this machine or the
 * local network always, the internet under the `always` policy), unless the user already
 * allowed its server (`allowed`: origins) in this call.
 */
function mustAsk(ctx: ToolContext, target: FetchTarget, allowed: ReadonlySet<string>): boolean {
  return (target.kind === 'local' || needsApproval('network', ctx.approvalPolicy)) && !allowed.has(target.url.origin);
}

/** Asks before reading `target` and adds its server to `allowed` once approved; `from` is the URL that redirected to it, shown in the question. */
async function askBeforeReading(ctx: ToolContext, target: FetchTarget, from: string | undefined, allowed: Set<string>, signal: AbortSignal): Promise<void> {
  const shown = target.url.href;
  const source = target.kind === 'local' ? 'a server on this machine or your local network' : 'the internet';
  await requireToolCallApproval(
    ctx,
    { tool: 'fetch_url', source, input: from === undefined ? { url: shown } : { url: shown, redirectedFrom: from } },
    from === undefined ? `reading ${shown}` : `reading ${shown}, where ${from} redirected`,
    signal,
  );
  allowed.add(target.url.origin);
}

function isOutput(value: unknown): value is FetchUrlOutput {
  return typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string';
}

function safeOutput(fetched: FetchedUrl, maxChars: number): FetchUrlOutput {
  const content = visibleControls(fetched.content);
  return {
    url: visibleControls(capText(fetched.url, 4000)),
    status: fetched.status,
    contentType: visibleControls(capText(fetched.contentType, 200)),
    format: fetched.format,
    ...(fetched.title === undefined ? {} : { title: visibleControls(capText(fetched.title, 500)) }),
    content: capText(content, maxChars),
    truncated: fetched.truncated || content.length > maxChars,
  };
}

/** `work` given a signal that aborts when `signal` does or `timeoutMs` passed on `clock`; a time-out rejects with a message naming the URL. */
async function withTimeLimit<T>(
  clock: { sleep(ms: number, signal?: AbortSignal): Promise<void> },
  timeoutMs: number,
  signal: AbortSignal,
  url: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const limited = new AbortController();
  const stop = (): void => limited.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const timeout = new Error(`fetch_url gave up on ${visibleControls(capText(url, 500))}: no complete answer within ${timeoutMs / 1000} s.`);
  let timedOut = false;
  const timer = clock.sleep(timeoutMs, limited.signal).then(
    () => {
      timedOut = true;
      limited.abort(timeout);
    },
    () => undefined,
  );
  try {
    return await work(limited.signal);
  } catch (error) {
    throw timedOut ? timeout : error;
  } finally {
    signal.removeEventListener('abort', stop);
    if (!limited.signal.aborted) limited.abort(new Error('finished'));
    await timer;
  }
}
