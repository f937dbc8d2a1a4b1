import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { isLlmError, type LlmError } from '../../../../src/core/llm/llmError';
import type { LlmDelta } from '../../../../src/core/llm/llmTypes';
import { createOpenAiClient, type OpenAiClientOptions } from '../../../../src/core/llm/openAiClient';
import type { LlmClient } from '../../../../src/core/ports';
import { FakeOpenAiServer, matchers } from '../../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../../fakes/manualClock';

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
    server.enqueue({ kind: 'message', content: 'late', delayMs: 2_000 }, { kind: 'message', content: 'prompt' });
    const began = Date.now();
    const reply = await client({ timeoutMs: 150, initialBackoffMs: 10 }).chat({ messages: user, signal });
    assert.equal(reply.text, 'prompt');
    assert.ok(Date.now() - began < 1_500);
  });

  it('waits for a slow first byte within the time-out', async () => {
    server.enqueue({ kind: 'message', content: 'slow but fine', delayMs: 150 });
    const reply = await client({ timeoutMs: 5_000 }).chat({ messages: user, signal, stream: true });
    assert.equal(reply.text, 'slow but fine');
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
    const began = Date.now();
    const pending = client().chat({ messages: user, signal: controller.signal, stream: true });
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    const error = await rejection(pending);
    assert.equal(error.kind, 'aborted');
    assert.ok(Date.now() - began < 1_000);
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
