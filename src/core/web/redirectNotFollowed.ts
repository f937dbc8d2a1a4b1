/**
 * A redirect a `UrlFetcher` did not follow: one past the request's `maxRedirects`, or one
 * from a public address to this machine or the local network, which needs a question the
 * fetcher cannot ask. `fetch_url` follows it itself after checking the target like the
 * first URL (and asking when that URL would have asked).
 */
export class RedirectNotFollowed extends Error {
  constructor(
    /** The URL that answered with the redirect. */
    readonly from: string,
    /** Where it redirected, resolved against `from`. */
    readonly to: string,
  ) {
    super(`${from} redirected to ${to.slice(0, 500)}, which fetch_url did not follow.`);
    this.name = 'RedirectNotFollowed';
  }
}

/** True for a `RedirectNotFollowed`, also across bundle copies (checked by name and shape). */
export function isRedirectNotFollowed(error: unknown): error is RedirectNotFollowed {
  if (error instanceof RedirectNotFollowed) return true;
  const shaped = error as { from?: unknown; to?: unknown };
  return error instanceof Error && error.name === 'RedirectNotFollowed' && typeof shaped.from === 'string' && typeof shaped.to === 'string';
}
