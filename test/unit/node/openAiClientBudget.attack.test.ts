import assert from 'node:assert/strict';
import { runPlan } from '../../../src/core/engine/runPlan';
import { createBudgetTracker, isBudgetExceededError, type BudgetExceededError } from '../../../src/core/llm/budget';
import { isLlmError } from '../../../src/core/llm/llmError';
import { createOpenAiClient, type OpenAiClientOptions } from '../../../src/node/openAiClient';
import { timerClock } from '../../../src/node/timerClock';
import type { LlmClient } from '../../../src/core/servicePorts';
import { FakeOpenAiServer, matchers } from '../../fakes/fakeOpenAiServer';
import { ManualClock } from '../../fakes/manualClock';
import { makePlan, makeStep } from '../../support/randomPlans';

// Attacks on the run's budget through one call's own attempts: its retries, and attempts a cancellation ends.
describe('attack: one model call spends past the budget through its own attempts', function () {
  this.timeout(30_000);
  let server: FakeOpenAiServer;
  const user = [{ role: 'user' as const, content: 'Hello' }];
  const client = (patch: Partial<OpenAiClientOptions> = {}): LlmClient =>
    createOpenAiClient({ baseURL: server.baseURL, model: 'gpt-4o', clock: new ManualClock(0, { autoAdvance: true }), initialBackoffMs: 1, ...patch });
  const refusal = async (promise: Promise<unknown>): Promise<BudgetExceededError> => {
    try {
      await promise;
    } catch (error: unknown) {
      assert.ok(isBudgetExceededError(error), `expected a budget refusal, got ${String(error)}`);
      return error;
    }
    assert.fail('expected the call to be refused');
  };

  beforeEach(async () => {
    server = await new FakeOpenAiServer().start();
  });
  afterEach(() => server.close());

  it('--max-requests 1 and a failing server: one request is sent, not the client\'s 4 attempts, and the step can wait for more', async () => {
    server.on(matchers.any(), { kind: 'error', status: 500 });
    const budget = createBudgetTracker({ maxRequests: 1 });
    const error = await refusal(budget.wrap(client()).chat({ messages: user, signal: new AbortController().signal }));
    // Seen before the fix: 4 requests (every attempt of the client) under a limit of 1, and an LlmError.
    assert.equal(server.chatRequests.length, 1);
    assert.match(error.message, /requests budget is used up: 1 LLM requests of 1 LLM requests \(a model call failed, and trying it again would pass the limit\)/);
    assert.equal(error.spent?.requests, 1);
    assert.equal(budget.usage().requests, 1);
  });

  it('a limit of tokens: a reply cut off after hundreds of tokens is not asked for again', async () => {
    const partial = 'word '.repeat(4_000);
    server.on(matchers.any(), { kind: 'cut', content: `${partial}never ends`, afterChars: partial.length });
    const budget = createBudgetTracker({ maxTokens: 200 });
    await refusal(budget.wrap(client()).chat({ messages: user, signal: new AbortController().signal, stream: true }));
    assert.equal(server.chatRequests.length, 1);
    assert.ok(budget.usage().totalTokens >= 200, `${budget.usage().totalTokens} tokens counted`);
  });

  it('an attempt cancelled after the server had it is a request: cancelling cannot make calls free', async () => {
    for (const stream of [false, true]) {
      server.reset();
      const controller = new AbortController();
      server.on(matchers.any(), () => {
        controller.abort(new Error('the step timed out'));
        return { kind: 'stall' };
      });
      const budget = createBudgetTracker({ maxRequests: 5 });
      try {
        await budget.wrap(client()).chat({ messages: user, signal: controller.signal, stream });
        assert.fail('the call was cancelled');
      } catch (error: unknown) {
        assert.ok(isLlmError(error) && error.kind === 'aborted', String(error));
        assert.equal(error.spent?.requests, 1, `stream ${stream}`);
      }
      // Seen before the fix: 0 requests counted for a request the server had.
      assert.equal(budget.usage().requests, 1, `stream ${stream}`);
    }
  });

  it('a step whose time limit cuts off every call keeps to --max-requests 1 (its attempts were free)', async () => {
    server.on(matchers.any(), { kind: 'message', content: 'late', delayMs: 20_000 });
    const budget = createBudgetTracker({ maxRequests: 1 });
    const plan = makePlan([makeStep('A', { timeoutMs: 2_000, maxAttempts: 4 })]);
    const result = await runPlan(plan, { llm: client({ clock: timerClock }), budget, clock: timerClock, retryBaseDelayMs: 10, retryMaxDelayMs: 10 }).result;
    // Seen before the fix: 4 requests sent under a limit of 1, the budget at 0, and the step failed.
    assert.equal(server.chatRequests.length, 1);
    assert.equal(result.status, 'waiting');
    assert.equal(result.steps.A?.status, 'awaiting_budget');
  });
});
