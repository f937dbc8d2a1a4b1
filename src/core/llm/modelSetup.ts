import { isLlmError } from './llmError';
import { isLocalBaseUrl } from './selectProvider';
import { errorMessage } from '../../shared/errorMessage';

/** The OpenAI-compatible servers people run on their own machine. */
export type LocalServerKind = 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm';

/** A local server: its name, where it listens by default, and how to start it. */
export interface LocalServer {
  name: string;
  /** The API root it serves by default (OpenAI-compatible, `/v1`). */
  baseUrl: string;
  /** What to do when nothing answers there, in the user's words. */
  startHint: string;
}

/** Every local server offered by "Set up a model", with its default address. */
export const localServers: Record<LocalServerKind, LocalServer> = {
  ollama: { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', startHint: 'start Ollama (`ollama serve`) or check the port' },
  lmstudio: { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', startHint: "start LM Studio's local server (Developer tab) or check the port" },
  llamacpp: { name: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080/v1', startHint: 'start `llama-server` or check the port' },
  vllm: { name: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', startHint: 'start `vllm serve` or check the port' },
};

/** The hosted default: OpenAI's API root. */
export const defaultHostedBaseUrl = 'https://api.openai.com/v1';

/** Which model Task Planner plans and runs agent steps with. */
export type ModelChoice =
  | { provider: 'vscode'; /** Empty: the first chat model VS Code offers. */ family: string }
  | { provider: 'openai'; baseUrl: string; model: string; /** The local server it is, when one of `localServers`. */ server?: LocalServerKind }
  | { provider: 'heuristic' };

/** What `GET <baseUrl>/models` told: the model ids, or why there are none. */
export type ModelListing = { ok: true; models: string[] } | { ok: false; problem: ListingProblem; detail: string };

/** Why a server could not list its models. */
export type ListingProblem = 'unreachable' | 'refused_key' | 'not_listed' | 'invalid_url';

/**
 * Asks an OpenAI-compatible server for its models (`GET <baseUrl>/models`), with the key
 * as a bearer token when given. Never throws; at most `timeoutMs` (milliseconds). The key
 * never appears in `detail`.
 */
export async function listServerModels(baseUrl: string, options: { apiKey?: string; timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<ModelListing> {
  let url: URL;
  try {
    url = new URL(`${baseUrl.trim().replace(/(?<!\/)\/+$/, '')}/models`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    return { ok: false, problem: 'invalid_url', detail: `"${baseUrl}" is not an http(s) address` };
  }
  const doFetch = options.fetch ?? fetch;
  try {
    const response = await doFetch(url, {
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
      // Not followed: to another path of the origin (another account of a gateway) it would carry the key.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
    if (response.status === 401 || response.status === 403) return { ok: false, problem: 'refused_key', detail: `HTTP ${response.status}` };
    if (!response.ok) return { ok: false, problem: 'not_listed', detail: `HTTP ${response.status}` };
    const body = (await response.json()) as { data?: unknown };
    const models = Array.isArray(body.data)
      ? body.data.flatMap((entry: unknown) =>
          entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'string' ? [(entry as { id: string }).id.slice(0, 200)] : [],
        )
      : [];
    return { ok: true, models: [...new Set(models)].slice(0, 500) };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    return name === 'SyntaxError'
      ? { ok: false, problem: 'not_listed', detail: 'the answer was not JSON' }
      : { ok: false, problem: 'unreachable', detail: name === 'TimeoutError' ? 'no answer in time' : 'no answer' };
  }
}

/** An address as typed in "Set up a model", read: the URL to use, and the scheme it was given when it had none. */
export type TypedBaseUrl = { ok: true; url: string; addedScheme?: 'http://' | 'https://' } | { ok: false; problem: 'not_http' | 'invalid' };

/**
 * The address typed for an OpenAI-compatible server (`localhost:8080/v1`,
 * `http://127.0.0.1:11434/v1/`), trimmed and without trailing slashes. Without a scheme it
 * gets `http://` when `local` (a server on this machine or the network) or when its host is
 * this machine, else `https://`; `addedScheme` says which. Another scheme than http(s) is
 * `not_http`; what no URL can be is `invalid`. The path is kept as typed (see `apiRootCandidates`).
 */
export function readTypedBaseUrl(text: string, local: boolean): TypedBaseUrl {
  // "localhost:8080" parses as the scheme "localhost:": a scheme is only what is followed by "//".
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim());
  const trimmed = text.trim().replace(/(?<!\/)\/+$/, '');
  const addedScheme = hasScheme ? undefined : local || isLocalBaseUrl(`http://${trimmed}`) ? 'http://' : 'https://';
  let url: URL;
  try {
    url = new URL(`${addedScheme ?? ''}${trimmed}`);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'not_http' };
  if (url.hostname === '') return { ok: false, problem: 'invalid' };
  return { ok: true, url: `${addedScheme ?? ''}${trimmed}`, ...(addedScheme ? { addedScheme } : {}) };
}

/**
 * Where an address's API may be, in the order to probe: an address with no path (the
 * server's root, `http://localhost:8080`) is tried with `/v1` first, where every
 * OpenAI-compatible server offered here serves it, then as typed; any other, as typed only.
 */
export function apiRootCandidates(baseUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return [baseUrl];
  }
  return url.pathname === '/' && url.search === '' ? [`${url.origin}/v1`, baseUrl] : [baseUrl];
}

/** Whether a model listing shows a server's API at the address asked: it listed models, or it wants a key there. */
export function apiAnswered(listing: ModelListing): boolean {
  return listing.ok || listing.problem === 'refused_key';
}

/** The outcome of the one tiny test request. */
export type ConnectionTest = { ok: true; model: string } | { ok: false; error: unknown };

/**
 * What the connection test means, in the user's words (never an internal name): success
 * with the model that answered, or what failed and what to do about it.
 */
export function describeConnection(choice: ModelChoice, test: ConnectionTest): string {
  if (choice.provider === 'heuristic') return 'From now on it plans without a model (the heuristic planner): steps that need a model are yours to do.';
  if (choice.provider === 'vscode') {
    if (test.ok) return `Connected: the VS Code chat model ${test.model} answered. Task Planner plans and runs agent steps with it.`;
    return `The VS Code chat model did not answer: ${plainReason(test.error)}. Check that its extension (GitHub Copilot or another) is installed and signed in.`;
  }
  const where = origin(choice.baseUrl);
  if (test.ok) return `Connected: ${test.model} at ${where} answered. Task Planner plans and runs agent steps with it.`;
  const kind = isLlmError(test.error) ? test.error.kind : 'other';
  const server = choice.server ? localServers[choice.server] : undefined;
  switch (kind) {
    case 'network':
      return `No server answered at ${choice.baseUrl}: ${server ? server.startHint : 'start the server or check the address'}.`;
    case 'timeout':
      return `The server at ${where} did not answer in time: it may still be loading ${choice.model}; try again in a moment.`;
    case 'auth':
      return `The server at ${where} refused the key: run "Task Planner: Set up a model" again and enter a valid key.`;
    case 'not_found':
      return `The server at ${where} has no model named "${choice.model}": run "Task Planner: Set up a model" again and pick one of its models.`;
    case 'rate_limited':
      return `The server at ${where} is busy or your quota is used up (rate limited): try again later.`;
    case 'server':
      return `The server at ${where} failed while answering (a server error): check its log, then try again.`;
    case 'malformed':
      return `The server at ${where} answered, but not as an OpenAI-compatible server would: check that the address ends with its API root (often /v1).`;
    case 'bad_request':
      return `The server at ${where} refused the test request for ${choice.model}: check the model name.`;
    default:
      return `The test request to ${where} failed: ${plainReason(test.error)}.`;
  }
}

/** Why a model list could not be read, in the user's words. */
export function describeListing(baseUrl: string, listing: Extract<ModelListing, { ok: false }>, server?: LocalServerKind): string {
  switch (listing.problem) {
    case 'invalid_url':
      return `${listing.detail}: enter an address such as ${localServers.ollama.baseUrl}.`;
    case 'unreachable':
      return `No server answered at ${baseUrl}: ${server ? localServers[server].startHint : 'start the server or check the address'}.`;
    case 'refused_key':
      return `The server at ${origin(baseUrl)} refused the key.`;
    case 'not_listed':
      return `The server at ${origin(baseUrl)} did not list its models (${listing.detail}).`;
  }
}

function plainReason(error: unknown): string {
  const text = errorMessage(error);
  return text.replace(/\s+/g, ' ').trim().replace(/\.$/, '').slice(0, 300) || 'no reason given';
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
