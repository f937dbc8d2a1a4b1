/**
 * The OTLP/HTTP address of `endpoint`, or a message saying why it is not one: an http or
 * https URL; a bare collector address (no path) gets the traces path `/v1/traces`.
 */
export function otlpTracesUrl(endpoint: string): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    return { problem: `"${endpoint}" is not a URL; give the collector's address, such as http://127.0.0.1:4318.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `"${endpoint}" must start with http:// or https://.` };
  if (url.username !== '' || url.password !== '') return { problem: `"${endpoint}" must not hold a user name or password.` };
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces';
  return { url: url.toString() };
}

/**
 * `url` as messages and logs show it: scheme, host and path, without the query and fragment,
 * where a collector's key or token may be (`?api-key=…`); the path keeps the "/v1/traces" the
 * user checks. Text that is no URL is shown as "the trace collector".
 */
export function shownTraceUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search === '' && parsed.hash === '' ? '' : '?…'}`;
  } catch {
    return 'the trace collector';
  }
}
