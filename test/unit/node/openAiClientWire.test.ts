import assert from 'node:assert/strict';
import { isLlmError } from '../../../src/core/llm/llmError';
import type { LlmDelta } from '../../../src/core/llm/llmTypes';
import { countTokens } from '../../../src/core/llm/tokenCount';
import { textCaps } from '../../../src/core/text/capText';
import { createOpenAiClient } from '../../../src/node/openAiClient';
import { rejection, useOpenAiHarness } from './openAiClientHarness';

const user = [{ role: 'user' as const, content: 'Hello' }];
const signal = new AbortController().signal;
const tools = [{ name: 'read_file', description: 'Reads a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];

/** A streamed chunk as OpenAI sends it, with one choice carrying `choice`. */
function chunk(choice: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, finish_reason: null, ...choice }], ...extra };
}

describe('createOpenAiClient: what it sends and how it reads replies', function () {
  this.timeout(10_000);
  const harness = useOpenAiHarness();

  it('refuses a base URL that is not a URL as a bad request, before any attempt', () => {
    assert.throws(
      () => harness.client({ baseURL: 'not a url' }),
      (error: unknown) => isLlmError(error) && error.kind === 'bad_request' && error.attempts === 0 && /not a valid URL/.test(error.message),
    );
  });

  it('sends a placeholder, not a made-up key, when the client has none', async () => {
    harness.server.enqueue({ kind: 'message', content: 'ok' });
    await createOpenAiClient({ baseURL: harness.server.baseURL, model: 'local', clock: harness.clock }).chat({ messages: user, signal });
    assert.equal(harness.server.chatRequests[0]?.headers.authorization, 'Bearer not-needed');
  });

  it('sends temperature and max_tokens only when the call sets them', async () => {
    harness.server.on(() => true, { kind: 'message', content: 'ok' });
    await harness.client().chat({ messages: user, signal, temperature: 0, maxTokens: 256 });
    await harness.client().chat({ messages: user, signal });
    const [set, unset] = harness.server.chatRequests.map((request) => request.body ?? {});
    assert.equal(set?.temperature, 0);
    assert.equal(set?.max_tokens, 256);
    assert.ok(unset !== undefined && !('temperature' in unset) && !('max_tokens' in unset), JSON.stringify(unset));
  });

  it('asks for no stream unless the call streams, and then gives no deltas', async () => {
    harness.server.enqueue({ kind: 'message', content: 'whole reply' });
    const deltas: LlmDelta[] = [];
    const reply = await harness.client().chat({ messages: user, signal, onDelta: (delta) => deltas.push(delta) });
    assert.equal(reply.text, 'whole reply');
    assert.equal(harness.server.chatRequests[0]?.body?.stream, false);
    assert.deepEqual(deltas, []);
  });

  it('sends assistant messages with and without tool calls in the wire format', async () => {
    harness.server.enqueue({ kind: 'message', content: 'done' });
    await harness.client().chat({
      messages: [
        { role: 'assistant', content: 'Let me look.', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a"}' }] },
        { role: 'tool', toolCallId: 'c1', content: 'text' },
        { role: 'assistant', content: 'Done.' },
        { role: 'assistant', content: 'Again.', toolCalls: [] },
      ],
      signal,
    });
    assert.deepEqual(harness.server.chatRequests[0]?.body?.messages, [
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'text' },
      { role: 'assistant', content: 'Done.' },
      { role: 'assistant', content: 'Again.' },
    ]);
  });

  it('asks for a non-strict json_schema unless strict is set', async () => {
    harness.server.enqueue({ kind: 'message', content: '{}' });
    await harness.client().chat({ messages: user, signal, responseSchema: { type: 'json_schema', name: 'plan', schema: { type: 'object' } } });
    assert.deepEqual(harness.server.chatRequests[0]?.body?.response_format, { type: 'json_schema', json_schema: { name: 'plan', schema: { type: 'object' }, strict: false } });
  });

  it('returns exactly text, tool calls, usage, its origin, model and finish reason; no cost key for an unpriced model', async () => {
    harness.server.enqueue({ kind: 'message', content: 'hi', usage: { prompt_tokens: 3, completion_tokens: 1 }, model: 'local-llama' });
    const reply = await harness.client({ model: 'local-llama' }).chat({ messages: user, signal });
    assert.deepEqual(reply, { text: 'hi', toolCalls: [], usage: { promptTokens: 3, completionTokens: 1 }, usageReported: true, model: 'local-llama', finishReason: 'stop' });
  });

  it('leaves out the finish reason when the server gives none, and keeps one a later chunk does not repeat', async () => {
    harness.server.enqueue(
      { kind: 'json', body: { id: 'x', model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'a' } }] } },
      { kind: 'events', events: [chunk({ delta: { content: 'b' } })] },
      { kind: 'events', events: [chunk({ delta: { content: 'c' }, finish_reason: 'length' }), chunk({ delta: {}, finish_reason: null })] },
    );
    const plain = await harness.client().chat({ messages: user, signal });
    const streamed = await harness.client().chat({ messages: user, signal, stream: true });
    const later = await harness.client().chat({ messages: user, signal, stream: true });
    assert.ok(!('finishReason' in plain) && !('finishReason' in streamed), JSON.stringify([plain, streamed]));
    assert.equal(later.finishReason, 'length');
  });

  it('names the model that answered and prices it by the configured model when the answer names an unpriced one', async () => {
    harness.server.enqueue(
      { kind: 'message', content: 'a', model: 'azure-deployment-7', usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } },
      { kind: 'message', content: 'b', model: 'azure-deployment-7', usage: { prompt_tokens: 1_000_000, completion_tokens: 0 } },
    );
    for (const stream of [false, true]) {
      const reply = await harness.client().chat({ messages: user, signal, stream });
      assert.equal(reply.model, 'azure-deployment-7');
      assert.equal(reply.costUsd, 0.15, 'gpt-4o-mini costs 0.15 USD per million prompt tokens');
    }
  });

  it('keeps the model a stream named first when later chunks leave it out', async () => {
    harness.server.enqueue({ kind: 'events', events: [chunk({ delta: { content: 'a' } }, { model: 'named-once' }), chunk({ delta: { content: 'b' } }, { model: '' })] });
    const reply = await harness.client().chat({ messages: user, signal, stream: true });
    assert.equal(reply.model, 'named-once');
    assert.equal(reply.text, 'ab');
  });

  it('prices a model the table does not know with the prices it was given', async () => {
    harness.server.enqueue({ kind: 'message', content: 'a', model: 'local-llama', usage: { prompt_tokens: 2_000_000, completion_tokens: 1_000_000 } });
    const reply = await harness.client({ model: 'local-llama', prices: { 'local-llama': { inputPerMillion: 1, outputPerMillion: 3 } } }).chat({ messages: user, signal });
    assert.equal(reply.costUsd, 5);
  });

  it('counts the tool calls in the completion tokens it counts itself, streamed or not', async () => {
    const args = '{"path":"README.md"}';
    const expected = countTokens('read_file') + countTokens(args);
    for (const stream of [false, true]) {
      harness.server.enqueue({ kind: 'message', toolCalls: [{ id: 'c1', name: 'read_file', arguments: args }], usage: null });
      const reply = await harness.client().chat({ messages: user, tools, signal, stream });
      assert.equal(reply.usageReported, false);
      assert.equal(reply.text, '');
      assert.equal(reply.usage.completionTokens, expected);
    }
  });

  it('keeps only function tool calls from a reply', async () => {
    harness.server.enqueue({
      kind: 'json',
      body: {
        id: 'x',
        model: 'gpt-4o-mini',
        choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [
          { id: 'c0', type: 'custom', custom: { name: 'grammar', input: 'x' } },
          { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } },
        ] } }],
      },
    });
    const reply = await harness.client().chat({ messages: user, tools, signal });
    assert.deepEqual(reply.toolCalls, [{ id: 'c1', name: 'read_file', arguments: '{}' }]);
  });

  it('streams tool calls to the consumer piece by piece', async () => {
    harness.server.enqueue({ kind: 'message', toolCalls: [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' }], chunkSize: 6 });
    const deltas: LlmDelta[] = [];
    const reply = await harness.client().chat({ messages: user, tools, signal, stream: true, onDelta: (delta) => deltas.push(delta) });
    assert.deepEqual(deltas, [
      { kind: 'tool_call', index: 0, id: 'call_a', name: 'read_file', argumentsDelta: '' },
      { kind: 'tool_call', index: 0, argumentsDelta: '{"path' },
      { kind: 'tool_call', index: 0, argumentsDelta: '":"a"}' },
    ]);
    assert.deepEqual(reply.toolCalls, [{ id: 'call_a', name: 'read_file', arguments: '{"path":"a"}' }]);
  });

  it('reads the stream shapes other servers send: no choices key, no delta, tool-call parts without id, function or arguments', async () => {
    harness.server.enqueue({
      kind: 'events',
      events: [
        { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini' },
        chunk({ delta: { content: 'Reading.' } }),
        chunk({ delta: { tool_calls: [{ index: 1, function: { name: 'read_' } }] } }),
        chunk({ delta: { tool_calls: [{ index: 1 }] } }),
        chunk({ delta: { tool_calls: [{ index: 1, function: { name: 'file', arguments: '{}' } }] } }),
        chunk({ finish_reason: 'tool_calls' }),
        { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', usage: { prompt_tokens: 4, completion_tokens: 2 } },
      ],
    });
    const deltas: LlmDelta[] = [];
    const reply = await harness.client().chat({ messages: user, tools, signal, stream: true, onDelta: (delta) => deltas.push(delta) });
    assert.deepEqual(deltas, [
      { kind: 'text', text: 'Reading.' },
      { kind: 'tool_call', index: 1, name: 'read_', argumentsDelta: '' },
      { kind: 'tool_call', index: 1, argumentsDelta: '' },
      { kind: 'tool_call', index: 1, name: 'file', argumentsDelta: '{}' },
    ]);
    assert.deepEqual(reply, {
      text: 'Reading.',
      toolCalls: [{ id: 'call_0', name: 'read_file', arguments: '{}' }],
      usage: { promptTokens: 4, completionTokens: 2 },
      usageReported: true,
      costUsd: (4 * 0.15 + 2 * 0.6) / 1e6,
      model: 'gpt-4o-mini',
      finishReason: 'tool_calls',
    });
  });

  it('accepts a reply of exactly the reply cap, streamed or not', async () => {
    for (const stream of [false, true]) {
      harness.server.enqueue({ kind: 'message', content: 'z'.repeat(textCaps.modelReply), chunkSize: 500_000 });
      const reply = await harness.client().chat({ messages: user, signal, stream });
      assert.equal(reply.text.length, textCaps.modelReply);
    }
  });

  it('refuses tool-call arguments that take the reply past the cap, streamed or not, without retrying', async () => {
    for (const stream of [false, true]) {
      harness.server.enqueue({ kind: 'message', content: 'ab', toolCalls: [{ id: 'c1', name: 'write_file', arguments: 'y'.repeat(textCaps.modelReply - 1) }], chunkSize: 500_000 });
      const error = await rejection(harness.client().chat({ messages: user, tools, signal, stream }));
      assert.equal(error.kind, 'other');
      assert.equal(error.attempts, 1);
      assert.match(error.message, /went past 2000000 characters/);
    }
    assert.equal(harness.server.chatRequests.length, 2);
  });
});
