import assert from 'node:assert/strict';
import { LlmError } from '../../../../src/core/llm/llmError';
import { apiAnswered, apiRootCandidates, describeConnection, describeListing, listServerModels, localServers, readTypedBaseUrl, type ModelChoice } from '../../../../src/core/llm/modelSetup';
import { FakeOpenAiServer } from '../../../fakes/fakeOpenAiServer';
import { closedPort } from '../../../support/closedPort';

const apiNames = /LlmError|RunOptions|createOpenAiClient|stepRunner|\bkind\b|ECONNREFUSED/;

describe('modelSetup', () => {
  describe('listServerModels', () => {
    const server = new FakeOpenAiServer({ models: ['qwen2.5:7b', 'llama3.2', 'qwen2.5:7b'] });
    before(() => server.start());
    after(() => server.close());

    it("lists a server's models once each", async () => {
      assert.deepEqual(await listServerModels(server.baseURL), { ok: true, models: ['qwen2.5:7b', 'llama3.2'] });
      assert.deepEqual(await listServerModels(`${server.baseURL}/`), { ok: true, models: ['qwen2.5:7b', 'llama3.2'] }, 'a trailing slash is accepted');
    });

    it('sends the key as a bearer token, and says so when the server refuses it (the key never in the detail)', async () => {
      const seen: string[] = [];
      const refusing = (async (_url: URL, init?: RequestInit) => {
        seen.push(String((init?.headers as Record<string, string>)['authorization']));
        return new Response('{"error":{"message":"bad key sk-secret"}}', { status: 401 });
      }) as typeof fetch;
      const listing = await listServerModels('https://api.example.com/v1', { apiKey: 'sk-secret', fetch: refusing });
      assert.deepEqual(seen, ['Bearer sk-secret']);
      assert.deepEqual(listing, { ok: false, problem: 'refused_key', detail: 'HTTP 401' });
    });

    it('tells an address where nothing answers from one that is not a server address', async () => {
      const port = await closedPort();
      const down = await listServerModels(`http://127.0.0.1:${port}/v1`);
      assert.equal(down.ok ? 'ok' : down.problem, 'unreachable');
      const invalid = await listServerModels('ollama please');
      assert.equal(invalid.ok ? 'ok' : invalid.problem, 'invalid_url');
      const notHttp = await listServerModels('file:///etc/passwd');
      assert.equal(notHttp.ok ? 'ok' : notHttp.problem, 'invalid_url');
    });

    it('a server that answers something else is "not listed"', async () => {
      const html = (async () => new Response('<html>login</html>', { status: 200 })) as typeof fetch;
      const listing = await listServerModels('http://127.0.0.1:1/v1', { fetch: html });
      assert.equal(listing.ok ? 'ok' : listing.problem, 'not_listed');
      const missing = (async () => new Response('no', { status: 404 })) as typeof fetch;
      assert.deepEqual(await listServerModels('http://127.0.0.1:1/v1', { fetch: missing }), { ok: false, problem: 'not_listed', detail: 'HTTP 404' });
    });
  });

  describe('describeConnection', () => {
    const ollama: ModelChoice = { provider: 'openai', baseUrl: localServers.ollama.baseUrl, model: 'qwen2.5:7b', server: 'ollama' };
    const hosted: ModelChoice = { provider: 'openai', baseUrl: 'https://api.example.com/v1', model: 'gpt-4o-mini' };
    const failure = (kind: ConstructorParameters<typeof LlmError>[1]) => ({ ok: false as const, error: new LlmError(`LLM request to x failed after 1 attempt: ${kind} ECONNREFUSED`, kind, undefined, 1) });

    it('names the model that answered on success', () => {
      assert.equal(describeConnection(ollama, { ok: true, model: 'qwen2.5:7b' }), 'Connected: qwen2.5:7b at http://127.0.0.1:11434 answered. Task Planner plans and runs agent steps with it.');
      assert.match(describeConnection({ provider: 'vscode', family: '' }, { ok: true, model: 'gpt-4.1' }), /^Connected: the VS Code chat model gpt-4\.1 answered/);
      assert.match(describeConnection({ provider: 'heuristic' }, { ok: true, model: 'heuristic' }), /without a model \(the heuristic planner\)/);
    });

    it('says what to do for each failure, in words, naming no internal API', () => {
      const cases: [ModelChoice, ReturnType<typeof failure>, RegExp][] = [
        [ollama, failure('network'), /^No server answered at http:\/\/127\.0\.0\.1:11434\/v1: start Ollama \(`ollama serve`\) or check the port\.$/],
        [hosted, failure('network'), /^No server answered at https:\/\/api\.example\.com\/v1: start the server or check the address\.$/],
        [hosted, failure('auth'), /refused the key/],
        [hosted, failure('not_found'), /has no model named "gpt-4o-mini"/],
        [hosted, failure('rate_limited'), /rate limited/],
        [hosted, failure('timeout'), /did not answer in time/],
        [hosted, failure('server'), /server error/],
        [hosted, failure('malformed'), /not as an OpenAI-compatible server/],
        [hosted, failure('bad_request'), /refused the test request for gpt-4o-mini/],
      ];
      for (const [choice, test, expected] of cases) {
        const message = describeConnection(choice, test);
        assert.match(message, expected);
        assert.doesNotMatch(message, apiNames, message);
      }
    });

    it('a VS Code chat model that does not answer points at its extension', () => {
      assert.match(describeConnection({ provider: 'vscode', family: '' }, { ok: false, error: new Error('No chat model.') }), /did not answer: No chat model\. Check that its extension/);
    });
  });

  it('describeListing says where nothing answered and how to start the local server', () => {
    assert.equal(describeListing(localServers.lmstudio.baseUrl, { ok: false, problem: 'unreachable', detail: 'no answer' }, 'lmstudio'), "No server answered at http://127.0.0.1:1234/v1: start LM Studio's local server (Developer tab) or check the port.");
    assert.match(describeListing('x', { ok: false, problem: 'invalid_url', detail: '"x" is not an http(s) address' }), /^"x" is not an http\(s\) address: enter an address such as http:\/\/127\.0\.0\.1:11434\/v1\.$/);
  });
});

describe('modelSetup: edges of listing and describing', () => {
  const answering = (body: unknown, status = 200) => {
    const urls: string[] = [];
    const fetch = (async (url: URL) => {
      urls.push(String(url));
      return new Response(JSON.stringify(body), { status });
    }) as typeof globalThis.fetch;
    return { urls, fetch };
  };
  const throwing = (error: Error) => (async () => { throw error; }) as typeof fetch;

  it('asks <base>/models of a trimmed address, however many trailing slashes it has', async () => {
    const server = answering({ data: [] });
    await listServerModels('  http://127.0.0.1:9/v1///  ', { fetch: server.fetch });
    assert.deepEqual(server.urls, ['http://127.0.0.1:9/v1/models']);
  });

  it('keeps only model ids that are strings, each cut to 200 characters, at most 500 of them', async () => {
    const mixed = answering({ data: [null, 'bare', { id: 5 }, { id: 'a' }, { id: 'x'.repeat(300) }] });
    assert.deepEqual(await listServerModels('http://127.0.0.1:9/v1', { fetch: mixed.fetch }), { ok: true, models: ['a', 'x'.repeat(200)] });
    const many = answering({ data: Array.from({ length: 600 }, (_, index) => ({ id: `m${index}` })) });
    const listing = await listServerModels('http://127.0.0.1:9/v1', { fetch: many.fetch });
    assert.ok(listing.ok);
    assert.equal(listing.models.length, 500);
    assert.deepEqual(await listServerModels('http://127.0.0.1:9/v1', { fetch: answering({ data: 'none' }).fetch }), { ok: true, models: [] });
  });

  it('tells a refused key (401 or 403), an answer that is not JSON, a time-out and no answer apart', async () => {
    assert.deepEqual(await listServerModels('http://127.0.0.1:9/v1', { fetch: answering({}, 403).fetch }), { ok: false, problem: 'refused_key', detail: 'HTTP 403' });
    const notJson = (async () => new Response('<html>', { status: 200 })) as typeof fetch;
    assert.deepEqual(await listServerModels('http://127.0.0.1:9/v1', { fetch: notJson }), { ok: false, problem: 'not_listed', detail: 'the answer was not JSON' });
    const timeout = Object.assign(new Error('The operation timed out.'), { name: 'TimeoutError' });
    assert.deepEqual(await listServerModels('http://127.0.0.1:9/v1', { fetch: throwing(timeout) }), { ok: false, problem: 'unreachable', detail: 'no answer in time' });
    assert.deepEqual(await listServerModels('http://127.0.0.1:9/v1', { fetch: throwing(new TypeError('fetch failed')) }), { ok: false, problem: 'unreachable', detail: 'no answer' });
    assert.deepEqual(await listServerModels('file:///etc/passwd'), { ok: false, problem: 'invalid_url', detail: '"file:///etc/passwd" is not an http(s) address' });
  });

  it('describes any other failure with its reason on one line, or says there was none', () => {
    const hosted: ModelChoice = { provider: 'openai', baseUrl: 'https://api.example.com/v1', model: 'm' };
    assert.equal(describeConnection(hosted, { ok: false, error: new Error('Socket\n  closed   early.') }), 'The test request to https://api.example.com failed: Socket closed early.');
    assert.equal(describeConnection(hosted, { ok: false, error: new LlmError('Stopped.', 'aborted', undefined, 1) }), 'The test request to https://api.example.com failed: Stopped.');
    assert.equal(describeConnection(hosted, { ok: false, error: '   ' }), 'The test request to https://api.example.com failed: no reason given.');
    assert.equal(describeConnection(hosted, { ok: false, error: 'x'.repeat(400) }), `The test request to https://api.example.com failed: ${'x'.repeat(300)}.`);
  });

  it('describes a refused key and an unlisted model list by the server they came from', () => {
    assert.equal(describeListing('https://api.example.com/v1', { ok: false, problem: 'refused_key', detail: 'HTTP 401' }), 'The server at https://api.example.com refused the key.');
    assert.equal(describeListing('https://api.example.com/v1', { ok: false, problem: 'not_listed', detail: 'HTTP 404' }), 'The server at https://api.example.com did not list its models (HTTP 404).');
    assert.equal(describeListing('somewhere', { ok: false, problem: 'refused_key', detail: 'HTTP 401' }), 'The server at somewhere refused the key.');
    assert.equal(describeListing('http://10.0.0.2/v1', { ok: false, problem: 'unreachable', detail: 'no answer' }), 'No server answered at http://10.0.0.2/v1: start the server or check the address.');
  });
});

describe('readTypedBaseUrl, apiRootCandidates and apiAnswered (Set up a model, issue 28)', () => {
  it('takes an address without a scheme: http:// for a local server or this machine, https:// for another hosted one', () => {
    assert.deepEqual(readTypedBaseUrl(' localhost:8080/v1/ ', true), { ok: true, url: 'http://localhost:8080/v1', addedScheme: 'http://' });
    assert.deepEqual(readTypedBaseUrl('10.0.0.7:8000/v1', true), { ok: true, url: 'http://10.0.0.7:8000/v1', addedScheme: 'http://' });
    assert.deepEqual(readTypedBaseUrl('127.0.0.1:1234/v1', false), { ok: true, url: 'http://127.0.0.1:1234/v1', addedScheme: 'http://' });
    assert.deepEqual(readTypedBaseUrl('api.example.com/v1', false), { ok: true, url: 'https://api.example.com/v1', addedScheme: 'https://' });
    assert.deepEqual(readTypedBaseUrl('HTTPS://api.example.com/v1', false), { ok: true, url: 'HTTPS://api.example.com/v1' });
    assert.deepEqual(readTypedBaseUrl('http://h//', true), { ok: true, url: 'http://h' });
  });

  it('refuses another scheme, and what no address can be', () => {
    assert.deepEqual(readTypedBaseUrl('ftp://example.com', true), { ok: false, problem: 'not_http' });
    assert.deepEqual(readTypedBaseUrl('http://', true), { ok: false, problem: 'invalid' });
    assert.deepEqual(readTypedBaseUrl('local host:80', true), { ok: false, problem: 'invalid' });
    assert.deepEqual(readTypedBaseUrl('', true), { ok: false, problem: 'invalid' });
  });

  it('an address without a path is tried at /v1 first, then as typed; one with a path only as typed', () => {
    assert.deepEqual(apiRootCandidates('http://localhost:8080'), ['http://localhost:8080/v1', 'http://localhost:8080']);
    assert.deepEqual(apiRootCandidates('http://localhost:8080/'), ['http://localhost:8080/v1', 'http://localhost:8080/']);
    assert.deepEqual(apiRootCandidates('http://localhost:8080/api'), ['http://localhost:8080/api']);
    assert.deepEqual(apiRootCandidates('not a url'), ['not a url']);
  });

  it("a server's API answered when it listed models or asked for a key, not when nothing or a 404 answered", () => {
    assert.equal(apiAnswered({ ok: true, models: [] }), true);
    assert.equal(apiAnswered({ ok: false, problem: 'refused_key', detail: 'HTTP 401' }), true);
    assert.equal(apiAnswered({ ok: false, problem: 'not_listed', detail: 'HTTP 404' }), false);
    assert.equal(apiAnswered({ ok: false, problem: 'unreachable', detail: 'no answer' }), false);
  });
});
