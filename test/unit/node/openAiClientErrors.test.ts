import assert from 'node:assert/strict';
import type { LlmErrorKind } from '../../../src/core/llm/llmError';
import type { LlmDelta } from '../../../src/core/llm/llmTypes';
import type { Clock } from '../../../src/core/servicePorts';
import { matchers } from '../../fakes/fakeOpenAiServer';
import { apiKey, recordingLogger, rejection, start, useOpenAiHarness } from './openAiClientHarness';

const user = [{ role: 'user' as const, content: 'Hello' }];
const signal = new AbortController().signal;

describe('createOpenAiClient: failures, retries and cancellation', function () {
  this.timeout(10_000);
  const harness = useOpenAiHarness();
  const origin = (): string => harness.server.baseURL.replace(/\/v1$/, '');

  it('says which endpoint and model failed, after how many attempts (singular for one), and what the server said', async () => {
    harness.server.enqueue({ kind: 'error', status: 400, message: 'bad schema' });
    const error = await rejection(harness.client().chat({ messages: user, signal }));
    assert.equal(error.message, `LLM request to ${origin()} (model gpt-4o-mini) failed after 1 attempt: the server rejected the request (HTTP 400: bad schema).`);
    assert.equal(error.status, 400);
    assert.equal(error.attempts, 1);
  });

  const statuses: { status: number; kind: LlmErrorKind; retried: boolean; message: RegExp }[] = [
    { status: 408, kind: 'timeout', retried: true, message: /after 2 attempts: HTTP 408: too slow\.$/ },
    { status: 409, kind: 'server', retried: true, message: /after 2 attempts: server error \(HTTP 409: too slow\)\.$/ },
    { status: 503, kind: 'server', retried: true, message: /after 2 attempts: server error \(HTTP 503: too slow\)\.$/ },
    { status: 429, kind: 'rate_limited', retried: true, message: /after 2 attempts: rate limited \(HTTP 429: too slow\)\.$/ },
    { status: 401, kind: 'auth', retried: false, message: /after 1 attempt: the server refused the credentials \(HTTP 401: too slow\)\. Check the API key\.$/ },
    { status: 403, kind: 'auth', retried: false, message: /after 1 attempt: the server refused the credentials \(HTTP 403: too slow\)\. Check the API key\.$/ },
    { status: 404, kind: 'not_found', retried: false, message: /after 1 attempt: not found \(HTTP 404: too slow\)\. Check the base URL and the model name\.$/ },
    { status: 422, kind: 'bad_request', retried: false, message: /after 1 attempt: the server rejected the request \(HTTP 422: too slow\)\.$/ },
    { status: 402, kind: 'other', retried: false, message: /after 1 attempt: HTTP 402: too slow\.$/ },
  ];
  for (const { status, kind, retried, message } of statuses) {
    it(`classifies HTTP ${status} as ${kind}, ${retried ? 'retried' : 'not retried'}`, async () => {
      harness.server.on(matchers.any(), { kind: 'error', status, message: 'too slow' });
      const error = await rejection(harness.client({ maxAttempts: 2, initialBackoffMs: 100 }).chat({ messages: user, signal }));
      assert.equal(error.kind, kind);
      assert.equal(error.status, status);
      assert.match(error.message, message);
      assert.equal(harness.server.chatRequests.length, retried ? 2 : 1);
      assert.deepEqual(harness.clock.sleeps, retried ? [100] : []);
    });
  }

  it('backs off exponentially on a 429 without Retry-After, as on a server error', async () => {
    harness.server.enqueue({ kind: 'error', status: 429 }, { kind: 'error', status: 429 }, { kind: 'message', content: 'ok' });
    const reply = await harness.client({ initialBackoffMs: 100 }).chat({ messages: user, signal });
    assert.equal(reply.text, 'ok');
    assert.deepEqual(harness.clock.sleeps, [100, 200]);
  });

  it('reads retry-after-ms first (zero included, negative ignored) and Retry-After seconds with a fraction', async () => {
    const cases: { headers: Record<string, string>; waitMs: number }[] = [
      { headers: { 'retry-after-ms': '1500', 'retry-after': '7' }, waitMs: 1500 },
      { headers: { 'retry-after-ms': '0' }, waitMs: 0 },
      { headers: { 'retry-after-ms': '-5', 'retry-after': '2' }, waitMs: 2000 },
      { headers: { 'retry-after': '1.25' }, waitMs: 1250 },
      { headers: { 'retry-after': new Date(start - 5_000).toUTCString() }, waitMs: 0 },
    ];
    for (const { headers } of cases) harness.server.enqueue({ kind: 'error', status: 429, headers }, { kind: 'message', content: 'ok' });
    const llm = harness.client({ initialBackoffMs: 100 });
    for (const _ of cases) await llm.chat({ messages: user, signal });
    assert.deepEqual(harness.clock.sleeps, cases.map((entry) => entry.waitMs));
  });

  it('waits exactly the longest Retry-After it honours, and refuses one second more, naming both waits', async () => {
    harness.server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '60' } }, { kind: 'message', content: 'ok' });
    await harness.client().chat({ messages: user, signal });
    assert.deepEqual(harness.clock.sleeps, [60_000]);
    harness.server.enqueue({ kind: 'error', status: 429, message: 'slow down', headers: { 'retry-after': '61' } });
    const error = await rejection(harness.client().chat({ messages: user, signal }));
    assert.equal(error.kind, 'rate_limited');
    assert.match(error.message, /after 1 attempt: rate limited \(HTTP 429: slow down\)\. The server asks to wait 61 s, more than the 60 s this client waits\.$/);
    assert.equal(harness.server.chatRequests.length, 3);
  });

  it('logs each retry as a warning with the attempt, kind, status and wait, without the key', async () => {
    const logger = recordingLogger();
    harness.server.enqueue({ kind: 'error', status: 503, message: `key ${apiKey} overloaded` }, { kind: 'message', content: 'ok' });
    await harness.client({ logger, initialBackoffMs: 100 }).chat({ messages: user, signal });
    assert.equal(logger.entries.length, 1);
    const [entry] = logger.entries;
    assert.equal(entry?.level, 'warn');
    assert.equal(entry?.message, 'LLM request failed; retrying');
    assert.deepEqual({ ...entry?.data, detail: undefined }, { attempt: 1, kind: 'server', status: 503, waitMs: 100, detail: undefined });
    assert.equal(entry?.data?.detail, 'server error (HTTP 503: key [redacted] overloaded).');
  });

  it('sends nothing when the signal is already aborted, and says no attempt was made', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(harness.client().chat({ messages: user, signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
    assert.equal(error.attempts, 0);
    assert.match(error.message, /after 0 attempts: cancelled\.$/);
    assert.equal(harness.server.chatRequests.length, 0);
  });

  it('ends a request cancelled in flight at once: no retry, no wait, no warning', async () => {
    for (const stream of [false, true]) {
      const controller = new AbortController();
      const logger = recordingLogger();
      harness.server.reset();
      harness.server.on(matchers.any(), () => {
        controller.abort(new Error('user cancelled'));
        return { kind: 'stall' };
      });
      const error = await rejection(harness.client({ logger }).chat({ messages: user, signal: controller.signal, stream }));
      assert.equal(error.kind, 'aborted');
      assert.equal(error.attempts, 1);
      assert.match(error.message, /after 1 attempt: cancelled\.$/);
      assert.deepEqual(harness.clock.sleeps, []);
      assert.deepEqual(logger.entries, []);
      assert.equal(harness.server.chatRequests.length, 1);
    }
  });

  it('ends a call cancelled while it waits to retry, saying so', async () => {
    const controller = new AbortController();
    const cancellingClock: Clock = {
      now: () => start,
      sleep: (_ms, sleepSignal) => {
        controller.abort();
        return Promise.reject(sleepSignal?.reason ?? new Error('aborted'));
      },
    };
    harness.server.on(matchers.any(), { kind: 'error', status: 503 });
    const error = await rejection(harness.client({ clock: cancellingClock }).chat({ messages: user, signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
    assert.equal(error.attempts, 1);
    assert.match(error.message, /after 1 attempt: cancelled while waiting to retry\.$/);
    assert.equal(harness.server.chatRequests.length, 1);
  });

  it('reports a connection cut in the middle of the body as a network failure, with its cause', async () => {
    harness.server.on(matchers.any(), { kind: 'cut', content: 'x'.repeat(50), afterChars: 30 });
    const error = await rejection(harness.client({ maxAttempts: 2, initialBackoffMs: 10 }).chat({ messages: user, signal }));
    assert.equal(error.kind, 'network');
    assert.equal(error.attempts, 2);
    assert.match(error.message, /after 2 attempts: the connection failed \(terminated: other side closed\)\.$/);
  });

  it('reports a refused connection with the reason the system gave', async () => {
    const baseURL = harness.server.baseURL;
    await harness.server.close();
    const error = await rejection(harness.client({ baseURL, maxAttempts: 1 }).chat({ messages: user, signal }));
    assert.equal(error.kind, 'network');
    assert.match(error.message, /after 1 attempt: could not reach the server \(fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\)\.$/);
  });

  it('retries an error the server sends inside a stream, and reports it when it persists', async () => {
    harness.server.enqueue({ kind: 'events', events: [{ error: { message: 'overloaded mid-stream' } }] }, { kind: 'message', content: 'recovered' });
    const reply = await harness.client({ initialBackoffMs: 10 }).chat({ messages: user, signal, stream: true });
    assert.equal(reply.text, 'recovered');
    harness.server.on(matchers.any(), { kind: 'events', events: [{ error: { message: 'overloaded mid-stream' } }] });
    const error = await rejection(harness.client({ maxAttempts: 2, initialBackoffMs: 10 }).chat({ messages: user, signal, stream: true }));
    assert.equal(error.kind, 'malformed');
    assert.equal(error.status, undefined);
    assert.match(error.message, /after 2 attempts: the response could not be read \(overloaded mid-stream\)\.$/);
  });

  it('says a body that is not JSON was not valid JSON', async () => {
    harness.server.on(matchers.any(), { kind: 'malformed' });
    const error = await rejection(harness.client({ maxAttempts: 1 }).chat({ messages: user, signal }));
    assert.equal(error.kind, 'malformed');
    assert.match(error.message, /after 1 attempt: the response was not valid JSON \(.+\)\.$/);
  });

  it('retries a reply without choices or whose choice has no message, and names the problem when it persists', async () => {
    harness.server.enqueue({ kind: 'json', body: { id: 'x', model: 'gpt-4o-mini' } }, { kind: 'json', body: { id: 'x', choices: [{ index: 0 }] } }, { kind: 'message', content: 'good' });
    const reply = await harness.client({ initialBackoffMs: 10 }).chat({ messages: user, signal });
    assert.equal(reply.text, 'good');
    assert.equal(harness.server.chatRequests.length, 3);
    harness.server.enqueue({ kind: 'empty_choices' }, { kind: 'json', body: { id: 'x' } }, { kind: 'json', body: { id: 'x', choices: [{ index: 0, finish_reason: 'stop' }] } });
    for (const _ of ['choices: []', 'no choices key']) {
      const empty = await rejection(harness.client({ maxAttempts: 1 }).chat({ messages: user, signal }));
      assert.equal(empty.kind, 'malformed');
      assert.match(empty.message, /after 1 attempt: the server answered, but the response had no choices\.$/);
    }
    const noMessage = await rejection(harness.client({ maxAttempts: 1 }).chat({ messages: user, signal }));
    assert.equal(noMessage.kind, 'malformed');
    assert.match(noMessage.message, /after 1 attempt: the server answered, but its choice had no message\.$/);
  });

  it('tells a stream consumer to restart only when deltas of the failed attempt reached it', async () => {
    harness.server.enqueue(
      { kind: 'error', status: 503 },
      { kind: 'cut', content: `partial ${apiKey} answer`, afterChars: 12 },
      { kind: 'message', content: 'complete' },
    );
    const deltas: LlmDelta[] = [];
    const reply = await harness.client({ initialBackoffMs: 10 }).chat({ messages: user, signal, stream: true, onDelta: (delta) => deltas.push(delta) });
    assert.equal(reply.text, 'complete');
    const retries = deltas.filter((delta) => delta.kind === 'retry');
    assert.deepEqual(retries, [{ kind: 'retry', attempt: 3, reason: 'the connection failed (terminated: other side closed).' }]);
    assert.equal(deltas[0]?.kind, 'text', 'the failed first attempt sent nothing, so no retry delta precedes the text');
  });

  it('tells a stream consumer to restart after tool-call deltas too', async () => {
    const toolChunk = { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"pa' } }] }, finish_reason: null }] };
    harness.server.enqueue({ kind: 'events', events: [toolChunk], cut: true }, { kind: 'message', content: 'done' });
    const deltas: LlmDelta[] = [];
    await harness.client({ initialBackoffMs: 10 }).chat({ messages: user, signal, stream: true, onDelta: (delta) => deltas.push(delta) });
    assert.deepEqual(deltas.slice(0, 2).map((delta) => delta.kind), ['tool_call', 'retry']);
  });

  it('retries a cut stream for a caller that takes no deltas', async () => {
    harness.server.enqueue({ kind: 'cut', content: 'partial answer', afterChars: 10 }, { kind: 'message', content: 'complete' });
    const reply = await harness.client({ initialBackoffMs: 10 }).chat({ messages: user, signal, stream: true });
    assert.equal(reply.text, 'complete');
  });
});
