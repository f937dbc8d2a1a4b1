/** Runs of at least this many consecutive characters of a secret are redacted. */
export const minRedactedRun = 8;

const replacement = '[redacted]';
const urlCredentials = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;
const credentialNames = 'access[_-]?token|token|api[_-]?key|key|password|passwd|pwd|secret|sig|signature|auth';
/** The name of a URL query parameter that holds a credential (`api-key`, `sig` of a signed URL, …), whole, in any case. */
export const queryCredentialName = new RegExp(`^(?:${credentialNames})$`, 'i');
// A credential in a URL's query (`?api-key=…`, `&sig=…` of a signed URL): its value.
const queryCredentials = new RegExp(`([?&](?:${credentialNames})=)[^&#\\s]+`, 'gi');

/**
 * A function that redacts, in any text: every run of `minRedactedRun` or more consecutive
 * characters of one of `secrets` (so a server echoing part of a key does not show it), a
 * secret shorter than that (at least 4 characters) where it appears whole, and the user
 * name and password of every URL (`https://user:pass@host` → `https://[redacted]@host`) and
 * credentials in URL queries (`?api-key=…` → `?api-key=[redacted]`).
 * Cost: linear in the text (one look-up per position whose character occurs in a secret).
 */
export function createRedactor(secrets: readonly string[]): (text: string) => string {
  const runs = new Set<string>();
  const short: string[] = [];
  const chars = new Set<number>();
  for (const secret of secrets) {
    if (secret.length >= minRedactedRun) {
      for (let start = 0; start + minRedactedRun <= secret.length; start++) runs.add(secret.slice(start, start + minRedactedRun));
      for (let index = 0; index < secret.length; index++) chars.add(secret.charCodeAt(index));
    } else if (secret.length >= 4) short.push(secret);
  }
  return (text) => {
    let redacted = redactRuns(text, runs, chars);
    for (const secret of short) redacted = redacted.split(secret).join(replacement);
    return redactUrl(redacted);
  };
}

/** `url` (or any text) with the user name and password of its URLs, and credentials in their queries, replaced; other text unchanged. */
export function redactUrl(url: string): string {
  return url.replace(urlCredentials, `$1${replacement}@`).replace(queryCredentials, `$1${replacement}`);
}

function redactRuns(text: string, runs: ReadonlySet<string>, chars: ReadonlySet<number>): string {
  if (runs.size === 0 || text.length < minRedactedRun) return text;
  let output = '';
  let copied = 0;
  let coveredTo = -1;
  let runStart = -1;
  for (let index = 0; index + minRedactedRun <= text.length; index++) {
    // A run ending at the window's last character must contain it: skip windows that cannot match.
    if (!chars.has(text.charCodeAt(index + minRedactedRun - 1))) {
      index += minRedactedRun - 1;
      continue;
    }
    if (!chars.has(text.charCodeAt(index)) || !runs.has(text.slice(index, index + minRedactedRun))) continue;
    if (index > coveredTo) {
      if (runStart >= 0) {
        output += `${text.slice(copied, runStart)}${replacement}`;
        copied = coveredTo;
      }
      runStart = index;
    }
    coveredTo = index + minRedactedRun;
  }
  if (runStart < 0) return text;
  return `${output}${text.slice(copied, runStart)}${replacement}${text.slice(coveredTo)}`;
}
