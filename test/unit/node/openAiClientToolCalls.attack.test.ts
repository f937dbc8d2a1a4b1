import assert from 'node:assert/strict';
import { isLlmError, type LlmError } from '../../../src/core/llm/llmError';
import { maxReplyToolCalls } from '../../../src/core/llm/llmTypes';
import { createOpenAiClient } from '../../../src/node/openAiClient';
import { textCaps } from '../../../src/core/text/capText';
import type { LlmClient } from '../../../src/core/servicePorts';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../fakes/manualClock';

// Attacks as a hostile OpenAI-compatible server on the tool calls of a streamed reply: the `index` of each call's delta
// is the server's word (the SDK passes the JSON through), and so is how many calls and how long their names are.
describe('attack: a hostile server streams tool calls to createOpenAiClient', function () {
  this.timeout(20_000);
  let server: FakeOpenAiServer;
  const signal = new AbortController().signal;
  const user = [{ role: 'user' as const, content: 'Hello' }];
  const client = (): LlmClient =>
    createOpenAiClient({ baseURL: server.baseURL, model: 'gpt-4o', clock: new ManualClock(0, { autoAdvance: true }), initialBackoffMs: 1, maxAttempts: 1 });
  const rejection = async (promise: Promise<unknown>): Promise<LlmError> => {
    try {
      await promise;
    } catch (error: unknown) {
      assert.ok(isLlmError(error), `expected an LlmError, got ${String(error)}`);
      return error;
    }
    assert.fail('expected the call to fail');
  };
  const chunk = (toolCalls: unknown[]): unknown => ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta: { tool_calls: toolCalls } }],
  });

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('an index of "__proto__" does not write the call onto Array.prototype (every array of the process had an `id`)', async () => {
    server.on(matchers.any(), {
      kind: 'events',
      events: [chunk([{ index: '__proto__', id: 'pwned', type: 'function', function: { name: 'read_file', arguments: '{}' } }])],
    });
    try {
      const failure = await rejection(client().chat({ messages: user, signal, stream: true }));
      assert.match(failure.message, /tool call index/);
      assert.equal(([] as unknown as { id?: unknown }).id, undefined, 'Array.prototype.id was set');
      assert.equal(([] as unknown as { arguments?: unknown }).arguments, undefined, 'Array.prototype.arguments was set');
    } finally {
      for (const name of ['id', 'name', 'arguments']) delete (Array.prototype as unknown as Record<string, unknown>)[name];
    }
  });

  it('an index of 4294967294 is refused at once (the sparse list took 3 minutes of the thread to filter, no timer could fire)', async () => {
    server.on(matchers.any(), {
      kind: 'events',
      events: [chunk([{ index: 4_294_967_294, id: 'far', type: 'function', function: { name: 'read_file', arguments: '{}' } }])],
    });
    const failure = await rejection(client().chat({ messages: user, signal, stream: true }));
    assert.match(failure.message, /tool call index/);
  });

  it('negative and fractional indices are refused, not silently dropped', async () => {
    for (const index of [-1, 1.5]) {
      server.enqueue({ kind: 'events', events: [chunk([{ index, id: 'odd', type: 'function', function: { name: 'read_file', arguments: '{}' } }])] });
      const failure = await rejection(client().chat({ messages: user, signal, stream: true }));
      assert.match(failure.message, /tool call index/, String(index));
    }
  });

  it(`more than ${maxReplyToolCalls} tool calls with empty arguments in one reply are refused (they counted as 0 characters)`, async () => {
    const calls = Array.from({ length: 10_000 }, (_, index) => ({ index, id: `c${index}`, type: 'function', function: { name: 'x', arguments: '' } }));
    const events = [];
    for (let at = 0; at < calls.length; at += 500) events.push(chunk(calls.slice(at, at + 500)));
    server.on(matchers.any(), { kind: 'events', events });
    const failure = await rejection(client().chat({ messages: user, signal, stream: true }));
    assert.match(failure.message, new RegExp(`a reply may hold at most ${maxReplyToolCalls}`));
  });

  it('the same, not streamed', async () => {
    const calls = Array.from({ length: 10_000 }, (_, index) => ({ id: `c${index}`, type: 'function', function: { name: 'x', arguments: '' } }));
    server.on(matchers.any(), {
      kind: 'json',
      body: { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' }] },
    });
    const failure = await rejection(client().chat({ messages: user, signal }));
    assert.match(failure.message, new RegExp(`a reply may hold at most ${maxReplyToolCalls}`));
  });

  it('a tool call name streamed without end counts toward the reply\'s bound (names were not counted: it grew until the time limit)', async function () {
    this.timeout(60_000);
    const piece = 'n'.repeat(100_000);
    const events = Array.from({ length: Math.ceil(textCaps.modelReply / piece.length) + 2 }, () => chunk([{ index: 0, function: { name: piece } }]));
    server.on(matchers.any(), { kind: 'events', events });
    const failure = await rejection(client().chat({ messages: user, signal, stream: true }));
    assert.match(failure.message, new RegExp(`went past ${textCaps.modelReply} characters`));
  });
});
