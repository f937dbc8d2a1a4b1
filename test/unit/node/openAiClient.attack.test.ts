import assert from 'node:assert/strict';
import { isLlmError, type LlmError } from '../../../src/core/llm/llmError';
import { createOpenAiClient, type OpenAiClientOptions } from '../../../src/node/openAiClient';
import { maxReplyBodyBytes, maxReplyEventBytes } from '../../../src/node/boundedReplyFetch';
import { maxCharsPerToken } from '../../../src/node/replyUsage';
import type { LlmClient } from '../../../src/core/servicePorts';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../fakes/manualClock';

// Attacks as a hostile OpenAI-compatible server on what a call reports it used: a lie must not lower a budget.
describe('attack: a hostile server lies to createOpenAiClient about what a call used', function () {
  this.timeout(20_000);
  let server: FakeOpenAiServer;
  const signal = new AbortController().signal;
  const user = [{ role: 'user' as const, content: 'Hello' }];
  const client = (patch: Partial<OpenAiClientOptions> = {}): LlmClient =>
    createOpenAiClient({ baseURL: server.baseURL, model: 'gpt-4o', clock: new ManualClock(0, { autoAdvance: true }), initialBackoffMs: 1, ...patch });
  const rejection = async (promise: Promise<unknown>): Promise<LlmError> => {
    try {
      await promise;
    } catch (error: unknown) {
      assert.ok(isLlmError(error), `expected an LlmError, got ${String(error)}`);
      return error;
    }
    assert.fail('expected the call to fail');
  };
  const completion = (usage: unknown, content = 'ok') => ({
    kind: 'json' as const,
    body: { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage },
  });

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('a usage that is negative, missing, not a number or past 2^53 is counted locally, never believed', async () => {
    const lies: unknown[] = [
      { prompt_tokens: -1_000_000, completion_tokens: -5 },
      { completion_tokens: 5 },
      { prompt_tokens: '1000', completion_tokens: '5' },
      { prompt_tokens: 1.5, completion_tokens: null },
      { prompt_tokens: 1e300, completion_tokens: 2 ** 60 },
    ];
    for (const usage of lies) {
      server.enqueue(completion(usage, 'one two three'));
      const reply = await client().chat({ messages: user, signal });
      const { promptTokens, completionTokens } = reply.usage;
      for (const count of [promptTokens, completionTokens]) assert.ok(Number.isSafeInteger(count) && count > 0, `${JSON.stringify(usage)} gave ${JSON.stringify(reply.usage)}`);
      assert.equal(reply.usageReported, false, JSON.stringify(usage));
      assert.ok(Number.isFinite(reply.costUsd) && (reply.costUsd ?? 0) > 0, `${JSON.stringify(usage)}: cost ${String(reply.costUsd)}`);
    }
  });

  it('a usage of 0 tokens for a long prompt and a long answer counts at least one token per 32 characters, streamed or not', async () => {
    const prompt = 'word '.repeat(20_000);
    const answer = 'answer '.repeat(20_000);
    for (const stream of [false, true]) {
      server.enqueue({ kind: 'message', content: answer, chunkSize: 10_000, usage: { prompt_tokens: 0, completion_tokens: 0 } });
      const reply = await client().chat({ messages: [{ role: 'user', content: prompt }], signal, stream });
      assert.ok(reply.usage.promptTokens >= prompt.length / maxCharsPerToken, `stream ${stream}: ${JSON.stringify(reply.usage)}`);
      assert.ok(reply.usage.completionTokens >= answer.length / maxCharsPerToken, `stream ${stream}: ${JSON.stringify(reply.usage)}`);
    }
  });

  it('reasoning streamed beside the answer counts, though the answer is one word', async () => {
    const reasoning = 'think '.repeat(50_000);
    server.on(matchers.any(), {
      kind: 'events',
      events: [
        ...Array.from({ length: 10 }, () => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { reasoning_content: reasoning } }] })),
        { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] },
        { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } },
      ],
    });
    const reply = await client().chat({ messages: user, signal, stream: true });
    assert.ok(reply.usage.completionTokens >= (10 * reasoning.length) / maxCharsPerToken, JSON.stringify(reply.usage));
  });

  it('a server naming a cheaper model than the one asked for is priced as the one asked for', async () => {
    server.enqueue({ kind: 'message', content: 'ok', model: 'gpt-4o-mini', usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } });
    const reply = await client().chat({ messages: user, signal });
    assert.equal(reply.model, 'gpt-4o-mini');
    assert.ok(Math.abs((reply.costUsd ?? 0) - 2.5) < 1e-3, `priced at $${String(reply.costUsd)}, not gpt-4o's $2.50`);
  });

  it('attempts that fail still say what they spent: each a request, a reply cut off part-way its tokens', async () => {
    const partial = 'z '.repeat(100_000);
    server.on(matchers.any(), { kind: 'cut', content: `${partial}never ends`, afterChars: partial.length });
    const error = await rejection(client({ maxAttempts: 3 }).chat({ messages: user, signal, stream: true }));
    assert.equal(server.chatRequests.length, 3);
    assert.equal(error.spent?.requests, 3, JSON.stringify(error.spent));
    // What arrived before each cut (the socket's last writes may be lost) was billed: it counts.
    assert.ok((error.spent?.usage.completionTokens ?? 0) > 3 * 16, JSON.stringify(error.spent));
    assert.ok((error.spent?.usage.promptTokens ?? 0) > 0, JSON.stringify(error.spent));
    assert.ok((error.spent?.costUsd ?? 0) > 0, JSON.stringify(error.spent));

    server.reset();
    server.enqueue({ kind: 'error', status: 500 }, { kind: 'cut', content: `${partial}x`, afterChars: partial.length }, { kind: 'message', content: 'ok' });
    const reply = await client().chat({ messages: user, signal, stream: true });
    assert.equal(reply.retriedSpent?.requests, 2, JSON.stringify(reply.retriedSpent));
    assert.ok((reply.retriedSpent?.usage.completionTokens ?? 0) > 0, JSON.stringify(reply.retriedSpent));
  });

  it('a body past the bound is refused as it arrives, not read whole into memory, and not retried', async function () {
    this.timeout(60_000);
    server.enqueue(completion({ prompt_tokens: 1, completion_tokens: 1 }, 'x'.repeat(maxReplyBodyBytes + 1_000)));
    const body = await rejection(client().chat({ messages: user, signal }));
    assert.match(body.message, new RegExp(`went past ${maxReplyBodyBytes} bytes`));
    assert.equal(server.chatRequests.length, 1, 'not retried');
  });

  it('a stream event past its own, smaller bound is refused (the SDK\'s cost grows with its square: 16 MiB held the thread 10 s)', async function () {
    this.timeout(60_000);
    const event = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { reasoning_content: 'x'.repeat(maxReplyEventBytes + 1_000) } }] };
    server.on(matchers.any(), { kind: 'events', events: [event] });
    const stream = await rejection(client().chat({ messages: user, signal, stream: true }));
    assert.match(stream.message, new RegExp(`went past ${maxReplyEventBytes} bytes in one event`));
    assert.equal(server.chatRequests.length, 1, 'not retried');
  });
});
