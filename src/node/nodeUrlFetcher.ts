import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FetchedUrl, UrlFetchRequest, UrlFetcher } from '../core/servicePorts';
import { addressKind, checkFetchUrl, checkRedirectTarget, type AddressKind, type FetchTarget } from '../core/web/fetchUrlTarget';
import { RedirectNotFollowed } from '../core/web/redirectNotFollowed';
import type * as HtmlToMarkdown from './htmlToMarkdown';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const textTypes = /^(?:text\/.*|application\/(?:[\w.+-]*\+)?(?:json|xml)|application\/(?:javascript|ecmascript|x-ndjson|yaml|x-yaml|toml))$/;

/**
 * The `UrlFetcher` over Node's own HTTP client: no proxy, no cookie jar, no authorization
 * header; a fresh connection per request; gzip, deflate and brotli bodies decompressed and
 * counted after decompression. `lookup` resolves host names (default: the system's); each
 * address it gives is checked with `resolvedKind` (default: `addressKind`; tests stand a
 * loopback server in for a public one), so a public name cannot lead to this machine or
 * the local network, and no name to a link-local address. A redirect past `maxRedirects`,
 * or from a public URL to this machine or the local network (which would need a question),
 * is not followed: it rejects with `RedirectNotFollowed`, for `fetch_url` to check and ask.
 *
 * No proxy, even in the editor: VS Code replaces Node's `http.request` with one that sends
 * requests to the user's proxy (`http.proxySupport`), where the proxy resolves the name, so a
 * public name leading to the intranet was read unasked (an outside attack). Requests are made
 * with `ClientRequest` and an agent of their own, which it does not touch, and each socket's
 * remote address is checked again once it connects, whatever made it.
 */
export function createNodeUrlFetcher(lookup: typeof dnsLookup = dnsLookup, resolvedKind: (address: string) => AddressKind = addressKind): UrlFetcher {
  return {
    async fetch(request, signal) {
      const first = checkFetchUrl(request.url);
      let target = first;
      for (let redirects = 0; ; redirects++) {
        signal.throwIfAborted();
        const allowed = allowedFor(target, resolvedKind);
        const response = await get(target, checkedLookup(target, lookup, allowed), allowed, signal);
        const location = response.headers.location;
        if (redirectStatuses.has(response.statusCode ?? 0) && location !== undefined) {
          response.destroy();
          let next: string;
          try {
            next = new URL(location, target.url).href;
          } catch {
            throw new Error(`${target.url.href} redirected to "${location.slice(0, 200)}", which is not a URL.`);
          }
          if (redirects >= request.maxRedirects) throw new RedirectNotFollowed(target.url.href, next);
          const hop = checkRedirectTarget(target.url.href, next);
          if (hop.kind === 'local' && first.kind !== 'local') throw new RedirectNotFollowed(target.url.href, next);
          target = hop;
          continue;
        }
        return await readPage(target.url.href, response, request, signal);
      }
    },
  };
}

/** Whether a connection for `target` may lead to `address`: a public one always, this machine or the local network only when the URL names it. */
function allowedFor(target: FetchTarget, resolvedKind: (address: string) => AddressKind): (address: string) => boolean {
  return (address) => {
    const kind = resolvedKind(address);
    return kind === 'public' || (kind === 'local' && target.kind === 'local');
  };
}

function get(target: FetchTarget, lookup: LookupFunction, allowed: (address: string) => boolean, signal: AbortSignal): Promise<IncomingMessage> {
  const secure = target.url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const outgoing = new ClientRequest({
      ...urlToHttpOptions(target.url),
      method: 'GET',
      // A fresh agent per request (no pooled connection), and one the editor's proxy support does not replace.
      agent: secure ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false }),
      lookup,
      signal,
      headers: {
        'user-agent': 'TaskPlanner-fetch_url',
        accept: 'text/html,application/xhtml+xml,text/plain,application/json;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
    });
    outgoing.once('socket', (socket: Socket) => {
      const check = (): void => {
        const address = socket.remoteAddress;
        if (address === undefined || allowed(address)) return;
        const where = 'an address on this machine, the local network or a link-local range';
        outgoing.destroy(new Error(`the connection for ${target.url.host} went to ${address}, ${where}`));
      };
      if (socket.remoteAddress !== undefined) check();
      else socket.once('connect', check);
    });
    outgoing.once('response', resolve);
    outgoing.once('error', (error) => reject(signal.aborted ? signal.reason : new Error(`Could not read ${target.url.href}: ${error.message}`)));
    outgoing.end();
  });
}

/** A lookup that refuses addresses the target may not lead to (see `createNodeUrlFetcher`). */
function checkedLookup(target: FetchTarget, lookup: typeof dnsLookup, allowed: (address: string) => boolean): LookupFunction {
  const host = target.url.hostname;
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = addresses.find((entry) => !allowed(entry.address));
      if (refused) {
        callback(
          new Error(
            `${host} resolves to ${refused.address}, an address on this machine, the local network or a link-local range; fetch_url reads such addresses only when the URL names them directly.`,
          ),
          '',
          0,
        );
        return;
      }
      if (options.all) callback(null, addresses);
      else {
        const first = addresses[0];
        if (first) callback(null, first.address, first.family);
        else callback(new Error(`${host} has no address.`), '', 0);
      }
    });
  };
}

async function readPage(url: string, response: IncomingMessage, request: UrlFetchRequest, signal: AbortSignal): Promise<FetchedUrl> {
  const status = response.statusCode ?? 0;
  const [mediaType = '', ...parameters] = (response.headers['content-type'] ?? '').split(';');
  const contentType = mediaType.trim().toLowerCase();
  if (contentType !== '' && !textTypes.test(contentType)) {
    response.destroy();
    throw new Error(`${url} is ${contentType}, not text; fetch_url reads web pages, text and JSON.`);
  }
  const { bytes, truncated } = await readCapped(decoded(response), request.maxBytes, signal);
  response.destroy();
  if (contentType === '' && bytes.subarray(0, 8192).includes(0)) throw new Error(`${url} looks like a binary file; fetch_url reads web pages, text and JSON.`);
  const text = decode(bytes, charsetOf(parameters));
  if (request.format === 'markdown' && (contentType === 'text/html' || contentType === 'application/xhtml+xml')) {
    // Loaded on the first page read: its HTML parser and converter took a tenth of every start-up of the CLI.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would be run at every start
    const { htmlToMarkdown } = require('./htmlToMarkdown') as typeof HtmlToMarkdown;
    const page = htmlToMarkdown(text);
    return { url, status, contentType, format: 'markdown', ...(page.title === undefined ? {} : { title: page.title }), content: page.markdown, truncated };
  }
  return { url, status, contentType, format: 'text', content: text, truncated };
}

/**
 * The body of `response`, decompressed per its `content-encoding`. Through `pipeline`, not `pipe`: a response destroyed
 * mid-body (a dropped connection, or the abort of the time limit) then ends the decompressed stream with its error, where
 * `pipe` left a reader waiting forever (an outside attack: a gzip body that stalled outlived the 30 s limit).
 */
function decoded(response: IncomingMessage): Readable {
  const through = (decoder: Transform): Readable => pipeline(response, decoder, () => undefined);
  switch ((response.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return through(createGunzip());
    case 'deflate':
      return through(createInflate());
    case 'br':
      return through(createBrotliDecompress());
    default:
      return response;
  }
}

async function readCapped(stream: Readable, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new Error(`The answer broke off: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    stream.destroy();
  }
  signal.throwIfAborted();
  return { bytes: Buffer.concat(chunks, size), truncated };
}

function charsetOf(parameters: readonly string[]): string {
  for (const parameter of parameters) {
    const [key = '', value = ''] = parameter.split('=');
    if (key.trim().toLowerCase() === 'charset') return value.trim().replace(/^"|"$/g, '').toLowerCase();
  }
  return 'utf-8';
}

function decode(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
