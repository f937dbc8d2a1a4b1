import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { isLlmError, type LlmError } from '../../../src/core/llm/llmError';
import type { LlmDelta } from '../../../src/core/llm/llmTypes';
import { createOpenAiClient, type OpenAiClientOptions } from '../../../src/node/openAiClient';
import type { LlmClient } from '../../../src/core/servicePorts';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../fakes/manualClock';
import { textCaps } from '../../../src/core/text/capText';

const apiKey = 'sk-test-SECRET-123456';
const start = Date.parse('2026-01-01T00:00:00Z');

describe('createOpenAiClient against the fake OpenAI server', function () {
  this.timeout(10_000);
  let server: FakeOpenAiServer;
  let clock: ManualClock;
  const signal = new AbortController().signal;
  const user = [{ role: 'user' as const, content: 'Hello' }];

  const client = (patch: Partial<OpenAiClientOptions> = {}): LlmClient => createOpenAiClient({ baseURL: server.baseURL, apiKey, model: 'gpt-4o-mini', clock, ...patch });
  const rejection = async (promise: Promise<unknown>): Promise<LlmError> => {
    try {
      await promise;
    } catch (error: unknown) {
      assert.ok(isLlmError(error), `expected an LlmError, got ${String(error)}`);
      assert.ok(!error.message.includes(apiKey), 'the API key leaked into the error message');
      return error;
    }
    assert.fail('expected the call to fail');
  };

  beforeEach(async () => {
    server = await new FakeOpenAiServer({ models: ['gpt-4o-mini'] }).start();
    clock = new ManualClock(start, { autoAdvance: true });
  });
  afterEach(async () => {
    await server.close();
    assert.equal(server.openSockets, 0);
  });

  it('sends the model, messages, key and extra headers; returns text, usage and cost', async () => {
    server.enqueue({ kind: 'message', content: 'Hi there', usage: { prompt_tokens: 1000, completion_tokens: 500 } });
    const reply = await client({ headers: { 'x-title': 'Task Planner' } }).chat({ messages: [{ role: 'system', content: 'Be brief.' }, ...user], signal });
    assert.equal(reply.text, 'Hi there');
    assert.deepEqual(reply.usage, { promptTokens: 1000, completionTokens: 500 });
    assert.equal(reply.usageReported, true);
    assert.ok(Math.abs((reply.costUsd ?? 0) - (1000 * 0.15 + 500 * 0.6) / 1e6) < 1e-12);
    const [request] = server.chatRequests;
    assert.equal(request?.headers.authorization, `Bearer ${apiKey}`);
    assert.equal(request?.headers['x-title'], 'Task Planner');
    assert.equal(request?.body?.model, 'gpt-4o-mini');
    assert.deepEqual(request?.body?.messages?.map((message) => message.role), ['system', 'user']);
  });

  it('leaves no abort listener on the run signal after its calls, streamed or not', async () => {
    server.on(matchers.any(), { kind: 'message', content: 'ok' });
    const runSignal = new AbortController().signal;
    const llm = client();
    for (let call = 0; call < 12; call++) await llm.chat({ messages: user, signal: runSignal, stream: call % 2 === 0 });
    assert.equal(getEventListeners(runSignal, 'abort').length, 0);
  });

  it('counts tokens locally when the API reports no usage, and reports no cost for an unknown model', async () => {
    server.enqueue({ kind: 'message', content: 'one two three', usage: null, model: 'local-llama' });
    const reply = await client({ model: 'local-llama' }).chat({ messages: user, signal });
    assert.equal(reply.usageReported, false);
    assert.ok(reply.usage.promptTokens > 0 && reply.usage.completionTokens === 3, JSON.stringify(reply.usage));
    assert.equal(reply.costUsd, undefined);
    assert.equal(reply.model, 'local-llama');
  });

  it('streams text deltas and takes usage from the include_usage chunk', async () => {
    server.enqueue({ kind: 'message', content: 'streamed reply text', chunkSize: 4, usage: { prompt_tokens: 7, completion_tokens: 3 } });
    const deltas: LlmDelta[] = [];
    const reply = await client().chat({ messages: user, signal, stream: true, onDelta: (delta) => deltas.push(delta) });
    assert.equal(reply.text, 'streamed reply text');
    assert.deepEqual(reply.usage, { promptTokens: 7, completionTokens: 3 });
    assert.ok(deltas.length >= 5);
    assert.equal(deltas.map((delta) => (delta.kind === 'text' ? delta.text : '')).join(''), 'streamed reply text');
    assert.deepEqual(server.chatRequests[0]?.body?.stream_options, { include_usage: true });
  });

  it('reads the cached prompt tokens, streamed and not, bills them at the cached price and says what they saved', async () => {
    for (const stream of [false, true]) {
      server.enqueue({ kind: 'message', content: 'ok', usage: { prompt_tokens: 4_000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 3_072 } } });
      const reply = await client().chat({ messages: user, signal, stream });
      assert.deepEqual(reply.usage, { promptTokens: 4_000, completionTokens: 100, cachedPromptTokens: 3_072 }, `stream: ${stream}`);
      // gpt-4o-mini: $0.15 per million input tokens, $0.075 cached, $0.60 output.
      assert.ok(Math.abs((reply.costUsd ?? 0) - (928 * 0.15 + 3_072 * 0.075 + 100 * 0.6) / 1e6) < 1e-12, String(reply.costUsd));
      assert.ok(Math.abs((reply.savedUsd ?? 0) - (3_072 * 0.075) / 1e6) < 1e-12, String(reply.savedUsd));
    }
  });

  it('ignores a cached count that cannot be right, and reports no saving without cached tokens or a known price', async () => {
    for (const cached of [-5, 4_001, 1.5, 0]) {
      server.enqueue({ kind: 'message', content: 'ok', usage: { prompt_tokens: 4_000, completion_tokens: 1, prompt_tokens_details: { cached_tokens: cached } } });
      const reply = await client().chat({ messages: user, signal });
      assert.deepEqual(reply.usage, { promptTokens: 4_000, completionTokens: 1 }, String(cached));
      assert.ok(!('savedUsd' in reply));
    }
    server.enqueue({ kind: 'message', content: 'ok', model: 'local-llama', usage: { prompt_tokens: 4_000, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 2_048 } } });
    const unpriced = await client({ model: 'local-llama' }).chat({ messages: user, signal });
    assert.equal(unpriced.usage.cachedPromptTokens, 2_048);
    assert.ok(!('savedUsd' in unpriced) && !('costUsd' in unpriced));
  });

  it('sends tools and returns tool calls, streamed and not', async () => {
    const tools = [{ name: 'read_file', description: 'Reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
    const toolCalls = [{ id: 'call_a', name: 'read_file', arguments: { path: 'README.md' } }];
    server.enqueue({ kind: 'message', toolCalls }, { kind: 'message', toolCalls, chunkSize: 5 });
    for (const stream of [false, true]) {
      const reply = await client().chat({ messages: user, tools, signal, stream });
      assert.deepEqual(reply.toolCalls, [{ id: 'call_a', name: 'read_file', arguments: '{"path":"README.md"}' }]);
      assert.equal(reply.finishReason, 'tool_calls');
    }
    assert.equal(server.chatRequests[0]?.body?.tools?.[0]?.function.name, 'read_file');
    assert.ok(!('tool_choice' in (server.chatRequests[0]?.body ?? {})), 'the provider\'s default when not told');
    server.enqueue({ kind: 'message', content: 'notes' });
    await client().chat({ messages: user, tools, toolChoice: 'none', signal });
    assert.deepEqual([server.chatRequests[2]?.body?.tool_choice, server.chatRequests[2]?.body?.tools?.length], ['none', 1], 'tools sent, none callable');
  });

  it('passes tool results and images back in the wire format', async () => {
    server.enqueue({ kind: 'message', content: 'done' });
    await client().chat({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c1', content: 'file text' },
      ],
      signal,
    });
    const messages = server.chatRequests[0]?.body?.messages ?? [];
    assert.deepEqual(messages[0]?.content, [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }]);
    assert.deepEqual(messages[2], { role: 'tool', tool_call_id: 'c1', content: 'file text' });
  });

  it('sends response_format json_schema and json_object', async () => {
    server.enqueue({ kind: 'message', content: '{}' }, { kind: 'message', content: '{}' });
    await client().chat({ messages: user, signal, responseSchema: { type: 'json_schema', name: 'plan', schema: { type: 'object' }, strict: true } });
    await client().chat({ messages: user, signal, responseSchema: { type: 'json_object' } });
    assert.deepEqual(server.chatRequests[0]?.body?.response_format, { type: 'json_schema', json_schema: { name: 'plan', schema: { type: 'object' }, strict: true } });
    assert.deepEqual(server.chatRequests[1]?.body?.response_format, { type: 'json_object' });
  });

  it('honours Retry-After in seconds on 429, waiting through the clock', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '7' } }, { kind: 'message', content: 'ok' });
    const reply = await client().chat({ messages: user, signal });
    assert.equal(reply.text, 'ok');
    assert.deepEqual(clock.sleeps, [7000]);
    assert.equal(server.chatRequests.length, 2);
  });

  it('honours Retry-After as an HTTP date, relative to the clock', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': new Date(start + 12_000).toUTCString() } }, { kind: 'message', content: 'ok' });
    await client().chat({ messages: user, signal });
    assert.deepEqual(clock.sleeps, [12_000]);
  });

  it('gives up clearly when Retry-After asks for more than the client waits', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '3600' } });
    const error = await rejection(client().chat({ messages: user, signal }));
    assert.equal(error.kind, 'rate_limited');
    assert.match(error.message, /3600 s/);
    assert.equal(server.chatRequests.length, 1);
  });

  it('backs off exponentially on 500 and 503 and succeeds', async () => {
    server.enqueue({ kind: 'error', status: 500 }, { kind: 'error', status: 503 }, { kind: 'error', status: 500 }, { kind: 'message', content: 'finally' });
    const reply = await client({ initialBackoffMs: 100 }).chat({ messages: user, signal });
    assert.equal(reply.text, 'finally');
    assert.deepEqual(clock.sleeps, [100, 200, 400]);
  });

  it('stops after maxAttempts and says how many attempts were made', async () => {
    server.on(matchers.any(), { kind: 'error', status: 503, message: 'overloaded' });
    const error = await rejection(client({ maxAttempts: 3 }).chat({ messages: user, signal }));
    assert.equal(error.kind, 'server');
    assert.equal(error.status, 503);
    assert.equal(error.attempts, 3);
    assert.match(error.message, /after 3 attempts.*503.*overloaded/);
    assert.equal(server.chatRequests.length, 3);
  });

  it('does not retry a 400, and an auth failure names the key without showing it', async () => {
    server.enqueue({ kind: 'error', status: 400, message: 'bad schema' }, { kind: 'error', status: 401, message: `Incorrect API key provided: ${apiKey}` });
    const bad = await rejection(client().chat({ messages: user, signal }));
    assert.equal(bad.kind, 'bad_request');
    const auth = await rejection(client().chat({ messages: user, signal }));
    assert.equal(auth.kind, 'auth');
    assert.match(auth.message, /\[redacted\]/);
    assert.equal(server.chatRequests.length, 2);
  });

  it('redacts any 8+ character run of the key that the server echoes, such as a 13-character prefix', async () => {
    server.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${apiKey.slice(0, 13)}***. Key id ${apiKey.slice(5, 14)}.` });
    const auth = await rejection(client().chat({ messages: user, signal }));
    assert.ok(!auth.message.includes(apiKey.slice(0, 8)) && !auth.message.includes(apiKey.slice(5, 13)), auth.message);
    assert.match(auth.message, /provided: \[redacted\]\*\*\*/);
    assert.equal(server.chatRequests.length, 1, 'a 401 is not retried');
  });

  it('refuses a base URL with a user name and password before sending anything, without showing them', () => {
    const url = server.baseURL.replace('http://', 'http://alice:s3cretpassw0rd@');
    assert.throws(() => client({ baseURL: url }), (error: Error) => /user name or password/.test(error.message) && !error.message.includes('s3cretpassw0rd'));
    assert.equal(server.chatRequests.length, 0);
  });

  it('refuses to send the key over plain http to another machine unless allowed, and lets a keyless client go there', () => {
    assert.throws(() => client({ baseURL: 'http://192.0.2.10:8000/v1' }), /plain http:\/\/ to another machine.*allowInsecureKey: true/);
    assert.equal(client({ baseURL: 'http://192.0.2.10:8000/v1', allowInsecureKey: true }).model, 'gpt-4o-mini');
    assert.equal(createOpenAiClient({ baseURL: 'http://192.0.2.10:8000/v1', model: 'm', clock }).model, 'm');
  });

  it('refuses a reply longer than the reply cap, streamed or not, without retrying, and caps a huge error message', async () => {
    for (const stream of [false, true]) {
      server.enqueue({ kind: 'message', content: 'z'.repeat(textCaps.modelReply + 1), chunkSize: 100_000 });
      const error = await rejection(client().chat({ messages: user, signal, stream }));
      assert.match(error.message, /went past 2000000 characters/);
    }
    server.enqueue({ kind: 'error', status: 400, message: 'e'.repeat(3_000_000) });
    const huge = await rejection(client().chat({ messages: user, signal }));
    assert.ok(huge.message.length <= textCaps.message, `message of ${huge.message.length} characters`);
    assert.equal(server.chatRequests.length, 3);
  });

  it('retries a malformed JSON body and an empty choice list', async () => {
    server.enqueue({ kind: 'malformed' }, { kind: 'empty_choices' }, { kind: 'message', content: 'good' });
    const reply = await client({ initialBackoffMs: 10 }).chat({ messages: user, signal });
    assert.equal(reply.text, 'good');
    assert.equal(server.chatRequests.length, 3);
  });

  it('reports a malformed body clearly when it persists', async () => {
    server.on(matchers.any(), { kind: 'malformed' });
    const error = await rejection(client({ maxAttempts: 2 }).chat({ messages: user, signal }));
    assert.equal(error.kind, 'malformed');
    assert.match(error.message, /after 2 attempts/);
  });

  it('reports an empty choice list clearly, streamed too', async () => {
    server.on(matchers.any(), { kind: 'empty_choices' });
    const error = await rejection(client({ maxAttempts: 1 }).chat({ messages: user, signal, stream: true }));
    assert.match(error.message, /no choices/);
  });

  it('survives a stream cut in the middle: tells the consumer to restart, then retries', async () => {
    server.enqueue({ kind: 'cut', content: 'partial answer that never ends', afterChars: 12 }, { kind: 'message', content: 'complete answer' });
    const deltas: LlmDelta[] = [];
    const reply = await client({ initialBackoffMs: 10 }).chat({ messages: user, signal, stream: true, onDelta: (delta) => deltas.push(delta) });
    assert.equal(reply.text, 'complete answer');
    const retryAt = deltas.findIndex((delta) => delta.kind === 'retry');
    assert.ok(retryAt > 0, 'a retry delta follows the partial text');
    assert.equal(deltas.slice(retryAt + 1).map((delta) => (delta.kind === 'text' ? delta.text : '')).join(''), 'complete answer');
  });

  it('survives a non-streamed body cut in the middle', async () => {
    server.enqueue({ kind: 'cut', content: 'x'.repeat(50), afterChars: 30 }, { kind: 'message', content: 'whole' });
    const reply = await client({ initialBackoffMs: 10 }).chat({ messages: user, signal });
    assert.equal(reply.text, 'whole');
  });

  it('times out a slow first byte and retries', async () => {
    // The late reply would come long after the test (the server's close drops it); the time-out leaves a prompt reply two
    // seconds (a clean clone's loaded machine took over 150 ms to answer the retry, which then timed out too).
    server.enqueue({ kind: 'message', content: 'late', delayMs: 120_000 }, { kind: 'message', content: 'prompt' });
    const reply = await client({ timeoutMs: 2_000, initialBackoffMs: 10 }).chat({ messages: user, signal });
    // Without the time-out the late reply would be the answer, after one request.
    assert.equal(reply.text, 'prompt');
    assert.equal(server.chatRequests.length, 2);
  });

  it('waits for a slow first byte within the time-out', async () => {
    server.enqueue({ kind: 'message', content: 'slow but fine', delayMs: 150 });
    const reply = await client({ timeoutMs: 5_000 }).chat({ messages: user, signal, stream: true });
    assert.equal(reply.text, 'slow but fine');
  });

  it('ends an attempt whose server sent the headers and then nothing, streamed or not, at the time limit', async () => {
    for (const stream of [false, true]) {
      server.enqueue({ kind: 'stall' });
      // Without the limit the call never ends (the test's own time-out fails it).
      const error = await rejection(client({ timeoutMs: 300, maxAttempts: 1 }).chat({ messages: user, signal, stream }));
      assert.equal(error.kind, 'timeout', error.message);
      assert.match(error.message, /no complete reply within 300 ms/);
    }
  });

  it('ends a stream that goes silent between chunks at the silence limit, long before the time limit', async () => {
    server.enqueue({ kind: 'stall', sentChunks: 2 });
    const deltas: LlmDelta[] = [];
    const error = await rejection(client({ timeoutMs: 60_000, silenceTimeoutMs: 250, maxAttempts: 1 }).chat({ messages: user, signal, stream: true, onDelta: (delta) => deltas.push(delta) }));
    assert.equal(error.kind, 'timeout');
    assert.match(error.message, /nothing for 250 ms/);
    assert.equal(deltas.length, 2, 'the chunks before the silence arrived');
  });

  it('ends a reply that trickles in one byte at a time at the time limit, streamed or not, and retries it', async () => {
    for (const stream of [false, true]) {
      server.enqueue({ kind: 'drip', content: 'never finished in time', intervalMs: 40 }, { kind: 'message', content: 'whole' });
      // 'never finished in time' takes over 200 bytes at 40 ms each: about 8 s without the limit. The limit leaves the retry's
      // prompt reply two seconds, as a loaded machine needs.
      const reply = await client({ timeoutMs: 2_000, silenceTimeoutMs: 1_500, initialBackoffMs: 1 }).chat({ messages: user, signal, stream });
      assert.equal(reply.text, 'whole');
      assert.equal(server.chatRequests.length, stream ? 4 : 2);
    }
  });

  it('waits for a reply that trickles in within the time limit, never silent for long', async () => {
    server.enqueue({ kind: 'drip', content: 'ok', intervalMs: 2 });
    const reply = await client({ timeoutMs: 60_000, silenceTimeoutMs: 5_000 }).chat({ messages: user, signal, stream: true });
    assert.equal(reply.text, 'ok');
  });

  it('reports a refused connection as a network error after bounded attempts', async () => {
    const url = server.baseURL;
    await server.close();
    const error = await rejection(createOpenAiClient({ baseURL: url, apiKey, model: 'gpt-4o-mini', clock, maxAttempts: 2, initialBackoffMs: 5 }).chat({ messages: user, signal }));
    assert.equal(error.kind, 'network');
    assert.equal(error.attempts, 2);
  });

  it('aborts an in-flight request promptly', async () => {
    server.enqueue({ kind: 'message', content: 'never seen', delayMs: 5_000 });
    const controller = new AbortController();
    const pending = client().chat({ messages: user, signal: controller.signal, stream: true });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    // Without the abort the reply would arrive after 5 s and the call would not reject.
    const error = await rejection(pending);
    assert.equal(error.kind, 'aborted');
  });

  it('aborts while waiting to retry', async () => {
    const manual = new ManualClock(start);
    server.enqueue({ kind: 'error', status: 503 });
    const controller = new AbortController();
    const pending = client({ clock: manual }).chat({ messages: user, signal: controller.signal });
    while (manual.pendingCount === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await rejection(pending);
    assert.equal(error.kind, 'aborted');
  });

  it('serves /v1/models to the real client', async () => {
    const { OpenAI } = await import('openai');
    const sdk = new OpenAI({ baseURL: server.baseURL, apiKey, maxRetries: 0 });
    const models = [];
    for await (const model of sdk.models.list()) models.push(model.id);
    assert.deepEqual(models, ['gpt-4o-mini']);
  });
});
