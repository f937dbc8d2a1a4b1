import { queryCredentialName, redactUrl } from './redactSecrets';
import { isLocalBaseUrl } from './selectProvider';

/** What `baseUrlProblem` needs to know besides the URL. */
export interface BaseUrlCheck {
  /** Whether an API key would be sent to the URL. */
  sendsKey: boolean;
  /** The user insisted on sending the key over plain HTTP to another machine. */
  allowInsecureKey?: boolean;
  /** How the user allows that, in their words (a flag or a setting), for the message. */
  allowHint: string;
}

/**
 * Why an OpenAI-compatible client must not use `baseURL`, or `undefined` when it may: not
 * an http(s) URL; a URL with a user name or password (fetch never sends them, and they
 * would be shown in errors) or a credential in its query (`?api-key=…`: it would be shown wherever the URL is); or, when a key would be sent, plain `http://` to a host that
 * is not this machine (loopback and `localhost` are fine) unless `allowInsecureKey`. The
 * message shows the URL without its credentials. The one rule of the CLI, the editor and
 * `createOpenAiClient`.
 */
export function baseUrlProblem(baseURL: string, check: BaseUrlCheck): string | undefined {
  const shown = redactUrl(baseURL.trim());
  let url: URL;
  try {
    url = new URL(baseURL.trim());
  } catch {
    return `The base URL "${shown}" is not a valid URL; give the API root, for example https://api.openai.com/v1.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `The base URL "${shown}" must start with https:// (or http:// for a server on this machine).`;
  }
  if (url.username !== '' || url.password !== '') {
    return `The base URL "${shown}" contains a user name or password, which is never sent from a URL: remove it and give the key as the API key (it is sent as a bearer token).`;
  }
  const credential = [...url.searchParams.keys()].find((name) => queryCredentialName.test(name));
  if (credential !== undefined) {
    return (
      `The base URL "${shown}" holds a credential in its query (${credential}=…), which would be shown wherever the URL is ` +
      '(progress, the commands printed to resume a run, logs): remove it and give the key as the API key (it is sent as a bearer token).'
    );
  }
  if (check.sendsKey && url.protocol === 'http:' && !isLocalBaseUrl(baseURL) && check.allowInsecureKey !== true) {
    return `The base URL "${shown}" is plain http:// to another machine: the API key would cross the network unencrypted, readable by anyone on the way. Use https://, or a server on this machine (localhost, 127.0.0.1); to send the key anyway, ${check.allowHint}.`;
  }
  return undefined;
}
