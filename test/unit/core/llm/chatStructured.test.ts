import assert from 'node:assert/strict';
import { z } from 'zod';
import { chatStructured, chatWithJsonSchema, StructuredOutputError } from '../../../../src/core/llm/chatStructured';
import type { LlmDelta } from '../../../../src/core/llm/llmTypes';
import { createOpenAiClient } from '../../../../src/node/openAiClient';
import type { LlmClient } from '../../../../src/core/servicePorts';
import { FakeOpenAiServer, matchers } from '../../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { LlmError } from '../../../../src/core/llm/llmError';

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

  // A newcomer's trial (2026-12-06): a model that declined in words was reported as "expected object, received string".
  it('says what a model that answers in words said, on one line with its controls shown, and what to do', async () => {
    const declined = 'I cannot do this:\nbooking a meeting room is not\u001b[31m a task on files.';
    for (const reply of [declined, JSON.stringify(declined)]) {
      server.enqueue({ kind: 'message', content: reply }, { kind: 'message', content: reply });
      await assert.rejects(chatStructured(client, { messages, signal }, answerSchema), (error: unknown) => {
        assert.ok(error instanceof StructuredOutputError);
        assert.equal(
          error.message,
          'The model answered in words instead of the structured reply it was asked for, even after a repair round: "I cannot do this: booking a meeting room is not\\u001b[31m a task on files.". Rephrase the request, or try another model.',
        );
        return true;
      });
    }
    server.enqueue({ kind: 'message', content: 'no json here' }, { kind: 'message', content: '{"answer": 4}' });
    await assert.rejects(chatStructured(client, { messages, signal }, answerSchema), /did not match the expected structure/);
  });

  it('a sentence before fenced JSON of the wrong shape is JSON of the wrong shape, not words: the message lists what is wrong', async () => {
    const reply = 'Here is the answer:\n```json\n{"answer": 4}\n```';
    server.enqueue({ kind: 'message', content: reply }, { kind: 'message', content: reply });
    await assert.rejects(chatStructured(client, { messages, signal }, answerSchema), (error: unknown) => {
      assert.ok(error instanceof StructuredOutputError);
      assert.match(error.message, /did not match the expected structure, even after a repair round: \n- answer: /);
      return true;
    });
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

describe('chatStructured: what the caller gets back', () => {
  const signal = new AbortController().signal;
  const messages = [{ role: 'user' as const, content: 'What is 2+2?' }];
  const small = z.object({ answer: z.string() });

  it('asks for the schema named "response", not strict, unless told otherwise', async () => {
    const llm = scriptedLlm(['{"answer":"4"}']);
    await chatStructured(llm, { messages, signal }, small);
    const format = llm.requests[0]?.responseSchema;
    assert.ok(format?.type === 'json_schema');
    assert.deepEqual([format.name, format.strict], ['response', false]);
  });

  it('passes on a refused request once even plain text is refused', async () => {
    let calls = 0;
    const refusing: LlmClient = { model: 'r', chat: async () => { calls++; throw new LlmError('HTTP 400', 'bad_request', 400, 1); } };
    await assert.rejects(chatStructured(refusing, { messages, signal }, small), (error: unknown) => error instanceof LlmError && error.kind === 'bad_request');
    assert.equal(calls, 3, 'schema, JSON mode, then plain text');
  });

  it('sums the cost of every call when each is known, and gives none when one is not', async () => {
    const priced = scriptedLlm(['{"answer":4}', '{"answer":"4"}'], { costPerCall: 0.01 });
    const result = await chatStructured(priced, { messages, signal }, small);
    assert.ok(Math.abs((result.costUsd ?? 0) - 0.02) < 1e-12, String(result.costUsd));
    assert.equal(result.responses.length, 2);
    const unpriced = await chatStructured(scriptedLlm(['{"answer":4}', { text: '{"answer":"4"}', costUsd: 0.01 }]), { messages, signal }, small);
    assert.ok(!('costUsd' in unpriced));
  });

  it('keeps the first reply and its check problems when the repair round breaks its structure', async () => {
    const deltas: LlmDelta[] = [];
    const llm = scriptedLlm(['{"answer":"five"}', 'not json at all']);
    const result = await chatStructured(llm, { messages, signal, onDelta: (delta) => deltas.push(delta), check: (value) => (value.answer === '4' ? [] : ['answer: should be 4']) }, small);
    assert.deepEqual([result.value, result.remainingProblems, result.repaired], [{ answer: 'five' }, ['answer: should be 4'], true]);
    assert.deepEqual(deltas, [{ kind: 'retry', attempt: 2, reason: 'the reply did not match the schema; asking for a repair' }]);
    assert.match(String(llm.requests[1]?.messages.at(-1)?.content), /^Your reply could not be used: \n- answer: should be 4\nReply again with the complete corrected JSON only/);
  });

  it('names every problem of the last reply, the whole value as "(root)", and no more than 20 of them', async () => {
    await assert.rejects(chatStructured(scriptedLlm(['[1]']), { messages, signal }, small), (error: unknown) => {
      assert.ok(error instanceof StructuredOutputError);
      assert.equal(error.name, 'StructuredOutputError');
      assert.match(error.problems[0] ?? '', /^\(root\): /);
      assert.equal(error.lastText, '[1]');
      return true;
    });
    await assert.rejects(chatStructured(scriptedLlm(['no json here at all']), { messages, signal }, small), (error: unknown) => error instanceof StructuredOutputError && error.problems.length === 1);
    const wide = z.object(Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`f${index}`, z.string()])));
    await assert.rejects(chatStructured(scriptedLlm(['{}']), { messages, signal }, wide), (error: unknown) => {
      assert.ok(error instanceof StructuredOutputError);
      assert.equal(error.problems.length, 25);
      assert.match(error.message, /\n- f19: [^\n]*\n- … and 5 more$/);
      assert.doesNotMatch(error.message, /f20:/);
      return true;
    });
    const twenty = z.object(Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`f${index}`, z.string()])));
    await assert.rejects(chatStructured(scriptedLlm(['{}']), { messages, signal }, twenty), (error: unknown) => error instanceof StructuredOutputError && /\n- f19: [^\n]*$/.test(error.message));
  });
});

describe('chatWithJsonSchema', () => {
  const signal = new AbortController().signal;
  const messages = [{ role: 'user' as const, content: 'The city?' }];
  const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

  it('sends the JSON Schema as it is (without $schema) and leaves matching it to check: problems get the repair round, then stay with the value', async () => {
    const llm = scriptedLlm(['{"town": "Oslo"}', '{"town": "Oslo"}']);
    const result = await chatWithJsonSchema(llm, { messages, signal, schemaName: 'step_result', check: (value) => (Object.hasOwn(value as object, 'city') ? [] : ['city is missing']) }, schema);
    assert.deepEqual(llm.requests[0]?.responseSchema, { type: 'json_schema', name: 'step_result', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false });
    assert.deepEqual(result.value, { town: 'Oslo' });
    assert.deepEqual(result.remainingProblems, ['city is missing']);
    assert.equal(result.repaired, true);
    assert.match(String(llm.requests[1]?.messages.at(-1)?.content), /city is missing/);
  });

  it('does not parse a reply longer than maxReplyChars, and says how long it was', async () => {
    const long = `{"city": "${'x'.repeat(200)}"}`;
    const llm = scriptedLlm([long]);
    await assert.rejects(chatWithJsonSchema(llm, { messages, signal, maxReplyChars: 100 }, schema), (error: unknown) => {
      assert.ok(error instanceof StructuredOutputError);
      assert.deepEqual(error.problems, [`The reply is ${long.length} characters long; at most 100 are read. Reply with the JSON value alone, shorter.`]);
      return true;
    });
    assert.equal(llm.requests.length, 2, 'one repair round');
  });
});

describe('chatStructured: a first reply already received', () => {
  const schema = z.object({ n: z.number() });
  const signal = new AbortController().signal;
  it('is taken without a request when it matches, and otherwise only the repair round is asked for', async () => {
    const silent = scriptedLlm(['{"n": 9}']);
    const taken = await chatStructured(silent, { messages: [{ role: 'user', content: 'x' }], signal, firstReply: '{"n": 1}' }, schema);
    assert.deepEqual(taken.value, { n: 1 });
    assert.equal(silent.requests.length, 0);
    assert.equal(taken.usage.promptTokens, 0);
    const repairing = scriptedLlm(['{"n": 2}']);
    const repaired = await chatStructured(repairing, { messages: [{ role: 'user', content: 'x' }], signal, firstReply: '{"n": "one"}' }, schema);
    assert.deepEqual(repaired.value, { n: 2 });
    assert.equal(repaired.repaired, true);
    assert.equal(repairing.requests.length, 1);
    assert.deepEqual(repairing.requests[0]!.messages[1], { role: 'assistant', content: '{"n": "one"}' });
  });
});
