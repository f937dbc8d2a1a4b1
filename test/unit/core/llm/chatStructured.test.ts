import assert from 'node:assert/strict';
import { z } from 'zod';
import { chatStructured, StructuredOutputError } from '../../../../src/core/llm/chatStructured';
import type { LlmDelta } from '../../../../src/core/llm/llmTypes';
import { createOpenAiClient } from '../../../../src/core/llm/openAiClient';
import type { LlmClient } from '../../../../src/core/ports';
import { FakeOpenAiServer, matchers } from '../../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../../fakes/manualClock';

const answerSchema = z.object({ answer: z.string(), confidence: z.number().min(0).max(1) });

describe('chatStructured', function () {
  this.timeout(10_000);
  let server: FakeOpenAiServer;
  let client: LlmClient;
  const signal = new AbortController().signal;
  const messages = [{ role: 'user' as const, content: 'What is 2+2?' }];

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
    client = createOpenAiClient({ baseURL: server.baseURL, apiKey: 'sk-x', model: 'gpt-4o-mini', clock: new ManualClock(0, { autoAdvance: true }) });
  });
  afterEach(() => server.close());

  it('sends the zod schema as response_format json_schema and returns the parsed value', async () => {
    server.enqueue({ kind: 'message', content: '{"answer":"4","confidence":0.9}', usage: { prompt_tokens: 10, completion_tokens: 5 } });
    const result = await chatStructured(client, { messages, signal, schemaName: 'answer', strict: true }, answerSchema);
    assert.deepEqual(result.value, { answer: '4', confidence: 0.9 });
    assert.equal(result.mode, 'json_schema');
    assert.equal(result.repaired, false);
    assert.deepEqual(result.usage, { promptTokens: 10, completionTokens: 5 });
    const format = server.chatRequests[0]?.body?.response_format;
    assert.equal(format?.type, 'json_schema');
    assert.equal(format?.json_schema?.name, 'answer');
    assert.equal(format?.json_schema?.strict, true);
    assert.deepEqual((format?.json_schema?.schema as { required?: string[] }).required, ['answer', 'confidence']);
  });

  it('falls back to json_object, then to text, when the server rejects the format with 400; remembers what worked', async () => {
    server.on(matchers.responseFormat('json_schema'), { kind: 'error', status: 400, message: 'response_format json_schema is not supported' });
    server.on(matchers.responseFormat('json_object'), { kind: 'error', status: 400, message: 'json mode is not supported' });
    server.on(matchers.any(), { kind: 'message', content: 'Sure! ```json\n{"answer": "4", "confidence": 1,}\n```' });
    const result = await chatStructured(client, { messages, signal }, answerSchema);
    assert.deepEqual(result.value, { answer: '4', confidence: 1 });
    assert.equal(result.mode, 'text');
    assert.deepEqual(server.chatRequests.map((request) => request.body?.response_format?.type ?? 'none'), ['json_schema', 'json_object', 'none']);
    const lastMessages = server.chatRequests[2]?.body?.messages ?? [];
    assert.match(String(lastMessages.at(-1)?.content), /JSON Schema/);
    await chatStructured(client, { messages, signal }, answerSchema);
    assert.equal(server.chatRequests[3]?.body?.response_format, undefined, 'the working mode is remembered');
  });

  it('gives one repair round with the validation errors and succeeds', async () => {
    server.enqueue({ kind: 'message', content: '{"answer": 4, "confidence": 3}' }, { kind: 'message', content: '{"answer": "4", "confidence": 0.5}' });
    const result = await chatStructured(client, { messages, signal }, answerSchema);
    assert.equal(result.repaired, true);
    assert.deepEqual(result.value, { answer: '4', confidence: 0.5 });
    const repairMessages = server.chatRequests[1]?.body?.messages ?? [];
    assert.equal(repairMessages.at(-2)?.role, 'assistant');
    assert.match(String(repairMessages.at(-1)?.content), /answer: .*expected string/i);
    assert.match(String(repairMessages.at(-1)?.content), /confidence/);
  });

  it('fails clearly when the repaired reply is still invalid', async () => {
    server.enqueue({ kind: 'message', content: 'no json here' }, { kind: 'message', content: '{"answer": 4}' });
    await assert.rejects(chatStructured(client, { messages, signal }, answerSchema), (error: unknown) => {
      assert.ok(error instanceof StructuredOutputError);
      assert.match(error.message, /even after a repair round/);
      assert.equal(error.responses.length, 2);
      return true;
    });
    assert.equal(server.chatRequests.length, 2, 'exactly one repair round');
  });

  it('repairs check problems and returns those left after the round', async () => {
    server.enqueue({ kind: 'message', content: '{"answer": "5", "confidence": 0.2}' }, { kind: 'message', content: '{"answer": "five", "confidence": 0.2}' });
    const result = await chatStructured(client, { messages, signal, check: (value) => (value.answer === '4' ? [] : [`answer "${value.answer}" is wrong`]) }, answerSchema);
    assert.equal(result.repaired, true);
    assert.deepEqual(result.remainingProblems, ['answer "five" is wrong']);
    assert.match(String(server.chatRequests[1]?.body?.messages?.at(-1)?.content), /answer "5" is wrong/);
  });

  it('tells a streaming consumer to restart before the repair round', async () => {
    server.enqueue({ kind: 'message', content: '{"answer": 1}' }, { kind: 'message', content: '{"answer": "4", "confidence": 1}' });
    const deltas: LlmDelta[] = [];
    await chatStructured(client, { messages, signal, stream: true, onDelta: (delta) => deltas.push(delta) }, answerSchema);
    assert.ok(deltas.some((delta) => delta.kind === 'retry'));
  });

  it('passes non-format errors through without falling back', async () => {
    server.enqueue({ kind: 'error', status: 401, message: 'bad key' });
    await assert.rejects(chatStructured(client, { messages, signal }, answerSchema), /credentials/);
    assert.equal(server.chatRequests.length, 1);
  });
});
