import assert from 'node:assert/strict';
import { structuredAnswerRequest } from '../../../../src/core/agent/structuredAnswer';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { LlmChatRequest } from '../../../../src/core/llm/llmTypes';
import type { Plan, Step } from '../../../../src/core/plan/planSchema';
import { textCaps } from '../../../../src/core/text/capText';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm, type ScriptedReply } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

const citySchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const itemsSchema = { type: 'object', properties: { items: { type: 'array' } }, required: ['items'] };

async function run(plan: Plan, replies: ScriptedReply[], options: Partial<RunOptions> = {}) {
  const llm = scriptedLlm(replies);
  const store = createMemoryRunStore();
  const events: RunEvent[] = [];
  const handle = runPlan(plan, { idSource: () => 'run-1', llm, store, clock: new ManualClock(0, { autoAdvance: true }), agentLimits: { timeoutMs: Infinity }, retryBaseDelayMs: 0, ...options });
  handle.events.subscribe((event) => events.push(event));
  const result = await handle.result;
  return { result, events, llm, journal: (await store.load('run-1'))?.entries ?? [] };
}

const diagnosesOf = (events: RunEvent[], stepId: string): string[] =>
  events.flatMap((event) => (event.type === 'verification_failed' && event.stepId === stepId ? [event.diagnosis] : []));
const userText = (request: LlmChatRequest | undefined): string =>
  (request?.messages ?? []).filter((message) => message.role === 'user').map((message) => String(message.content)).join('\n');

/** Two agent steps with output schemas: `first` answers `firstJson`, `second` (checked by `verification`) answers `secondJson`. */
function chained(first: string, firstSchema: Record<string, unknown>, verification: string, secondSchema: Record<string, unknown>): Plan {
  return makePlan([
    makeStep(first, { outputSchema: firstSchema }),
    makeStep('check', { dependsOn: [first], outputSchema: secondSchema, verification }),
  ]);
}

describe('output schemas: an agent\'s final answer as structured output, validated, as the result', () => {
  it('asks for the result as json_schema structured output after the agent\'s answer, and the parsed object is the result', async () => {
    const { result, llm, events } = await run(makePlan([makeStep('lookup', { outputSchema: citySchema })]), ['I looked it up: Oslo.', '{"city": "Oslo"}']);
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(result.results['lookup'], { city: 'Oslo' });
    assert.equal(llm.requests.length, 2);
    assert.equal(llm.requests[0]?.responseSchema, undefined, 'the working turns are not constrained, so tools stay callable');
    const final = llm.requests[1];
    assert.deepEqual(final?.responseSchema, { type: 'json_schema', name: 'step_result', schema: citySchema, strict: false });
    assert.equal(final?.tools, undefined, 'no tools are offered for the final answer');
    const messages = final?.messages ?? [];
    assert.deepEqual(messages.at(-2), { role: 'assistant', content: 'I looked it up: Oslo.' });
    assert.deepEqual(messages.at(-1), { role: 'user', content: structuredAnswerRequest });
    assert.deepEqual(result.steps['lookup']?.changes, { applied: [], rejected: [], failed: [] }, 'the changes stay in the step state');
    const completed = events.find((event) => event.type === 'step_completed');
    assert.deepEqual(completed?.type === 'step_completed' ? completed.changes : undefined, { applied: [], rejected: [], failed: [] });
  });

  it('a synthesis gate with an output schema asks its one call for the JSON result', async () => {
    const plan = makePlan([makeStep('a'), makeStep('g', { kind: 'synthesis_gate', dependsOn: ['a'], outputSchema: itemsSchema })]);
    const { result, llm } = await run(plan, ['found x and y', '```json\n{"items": ["x", "y"]}\n```']);
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(result.results['g'], { items: ['x', 'y'] });
    assert.equal(llm.requests[1]?.responseSchema?.type, 'json_schema');
    assert.match(String(llm.requests[1]?.messages[0]?.content), /one JSON value matching the JSON Schema/);
  });

  it('validates what a step runner returns too: JSON text is parsed, a mismatch fails verification', async () => {
    const plan = makePlan([makeStep('A', { outputSchema: citySchema }), makeStep('B', { outputSchema: citySchema, onFailure: 'skip' })]);
    const { result } = await run(plan, ['unused'], { stepRunner: async (step) => (step.id === 'A' ? '{"city": "Rome"}' : { town: 'Rome' }) });
    assert.deepEqual(result.results['A'], { city: 'Rome' });
    assert.equal(result.steps['B']?.status, 'failed');
    assert.equal(result.steps['B']?.error, 'The result does not match the output schema: result.city: missing (required).');
  });

  describe('the three predicates over fields', () => {
    const predicateOne = 'result.city === depends.lookup.city';
    const predicateTwo = 'result.items.length >= depends.fetch_products.items.length';
    const predicateThree = 'result.items.length > 0 ? true : "Expected items, got " + result.items.length';

    it(`${predicateOne}: passes for the same city, fails with its diagnosis for another`, async () => {
      const plan = chained('lookup', citySchema, predicateOne, citySchema);
      const passed = await run(plan, ['Oslo.', '{"city": "Oslo"}', 'Checked.', '{"city": "Oslo"}']);
      assert.equal(passed.result.status, 'completed', passed.result.metadata.reason);
      assert.deepEqual(passed.result.results['check'], { city: 'Oslo' });
      const failed = await run(plan, ['Oslo.', '{"city": "Oslo"}', 'Checked.', '{"city": "Bergen"}']);
      assert.equal(failed.result.steps['check']?.status, 'failed');
      assert.deepEqual(diagnosesOf(failed.events, 'check'), ['Verification `result.city === depends.lookup.city` was false for result {"city":"Bergen"}']);
    });

    it(`${predicateTwo}: passes with as many items, fails with fewer`, async () => {
      const plan = chained('fetch_products', itemsSchema, predicateTwo, itemsSchema);
      const passed = await run(plan, ['Three.', '{"items": [1, 2, 3]}', 'Kept.', '{"items": ["a", "b", "c"]}']);
      assert.equal(passed.result.status, 'completed', passed.result.metadata.reason);
      const failed = await run(plan, ['Three.', '{"items": [1, 2, 3]}', 'Kept.', '{"items": ["a"]}']);
      assert.equal(failed.result.steps['check']?.status, 'failed');
      assert.deepEqual(diagnosesOf(failed.events, 'check'), [`Verification \`${predicateTwo}\` was false for result {"items":["a"]}`]);
    });

    it(`${predicateThree}: passes with items, fails with "Expected items, got 0"`, async () => {
      const plan = makePlan([makeStep('list', { outputSchema: itemsSchema, verification: predicateThree })]);
      const passed = await run(plan, ['Listed.', '{"items": ["a"]}']);
      assert.equal(passed.result.status, 'completed', passed.result.metadata.reason);
      const failed = await run(plan, ['Listed.', '{"items": []}']);
      assert.equal(failed.result.steps['list']?.status, 'failed');
      assert.deepEqual(diagnosesOf(failed.events, 'list'), ['Expected items, got 0']);
      assert.equal(failed.result.steps['list']?.error, 'Expected items, got 0');
    });
  });

  it('a result that does not match the schema is a verification failure whose diagnosis the retry gets', async () => {
    const step: Step = makeStep('list', { outputSchema: itemsSchema, maxAttempts: 2, onVerificationFailure: 'retry' });
    const { result, llm, events } = await run(makePlan([step]), ['Listed.', '{"items": "three"}', '{"items": "three"}', 'Listed again.', '{"items": [1, 2, 3]}']);
    assert.equal(result.status, 'completed', result.metadata.reason);
    assert.deepEqual(result.results['list'], { items: [1, 2, 3] });
    const diagnosis = 'The result does not match the output schema: result.items: expected array, got string.';
    assert.deepEqual(diagnosesOf(events, 'list'), [diagnosis]);
    assert.match(userText(llm.requests[2]), /Your reply could not be used:\s+- The result does not match the output schema: result\.items: expected array, got string\./, 'the repair round names the mismatch');
    assert.ok(userText(llm.requests[3]).includes(`Your previous attempt failed verification: ${diagnosis}`), 'the retry gets the diagnosis');
  });

  it('an answer that is never JSON fails verification saying so; prose that repairs into JSON fails on the schema', async () => {
    const empty = await run(makePlan([makeStep('lookup', { outputSchema: citySchema })]), ['Oslo.', ' ', ' ']);
    assert.equal(empty.result.steps['lookup']?.status, 'failed');
    assert.deepEqual(diagnosesOf(empty.events, 'lookup'), ["The step's result is not JSON: The reply was empty; expected a JSON value."]);
    const prose = await run(makePlan([makeStep('lookup', { outputSchema: citySchema })]), ['Oslo.', 'It is Oslo.', 'Still Oslo, I promise.']);
    assert.equal(prose.result.steps['lookup']?.status, 'failed');
    assert.match(diagnosesOf(prose.events, 'lookup')[0] ?? '', /^The result does not match the output schema: result: expected object, got /);
  });

  describe('hostile answers', () => {
    it('a 5 MB answer is not parsed, the step fails verification with a short diagnosis and the journal stays small', async () => {
      const huge = `{"city": "${'x'.repeat(5_000_000)}"}`;
      const { result, events, journal } = await run(makePlan([makeStep('lookup', { outputSchema: citySchema })]), ['Oslo.', huge]);
      assert.equal(result.steps['lookup']?.status, 'failed');
      const [diagnosis] = diagnosesOf(events, 'lookup');
      assert.match(diagnosis ?? '', new RegExp(`The reply is ${huge.length} characters long; at most ${textCaps.result} are read`));
      assert.ok((diagnosis ?? '').length < 1_000);
      assert.ok(JSON.stringify(journal).length < 1_000_000, 'the journal holds no copy of the answer');
    });

    it('control characters in an answer stay data: the diagnosis shows them escaped', async () => {
      const strict = { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false };
      const { result, events } = await run(makePlan([makeStep('lookup', { outputSchema: strict })]), ['Oslo.', '{"city": "Os\\u0007lo", "\\u001b[2Jevil": 1}']);
      assert.equal(result.steps['lookup']?.status, 'failed');
      const [diagnosis] = diagnosesOf(events, 'lookup');
      assert.equal(diagnosis, 'The result does not match the output schema: result: unexpected field "\\u001b[2Jevil".');
      assert.doesNotMatch(diagnosis ?? '', /[\u0000-\u0008\u000b-\u001f]/);
    });

    it('"__proto__" keys in a JSON answer stay fields and pollute no prototype', async () => {
      const plan = makePlan([makeStep('list', { outputSchema: itemsSchema, verification: 'result.items.length === 0 && result.__proto__.polluted === true' })]);
      const { result } = await run(plan, ['Listed.', '{"items": [], "__proto__": {"polluted": true}}']);
      assert.equal(result.status, 'completed', result.metadata.reason);
      const value = result.results['list'] as Record<string, unknown>;
      assert.ok(Object.hasOwn(value, '__proto__'), 'kept as an own field');
      assert.equal(Object.getPrototypeOf(value), Object.prototype);
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    });
  });
});

