import assert from 'node:assert/strict';
import { BudgetExceededError, createBudgetTracker, isBudgetExceededError } from '../../../../src/core/llm/budget';
import type { LlmChatRequest } from '../../../../src/core/llm/llmTypes';
import type { LlmClient } from '../../../../src/core/servicePorts';

const reply = (promptTokens: number, completionTokens: number, costUsd?: number) => ({ usage: { promptTokens, completionTokens }, ...(costUsd === undefined ? {} : { costUsd }) });

describe('createBudgetTracker', () => {
  it('sums usage and reports no limit while under every limit', () => {
    const tracker = createBudgetTracker({ maxRequests: 3, maxTokens: 1_000, maxCostUsd: 1 });
    tracker.record(reply(100, 50, 0.01));
    tracker.record(reply(10, 5));
    assert.deepEqual(tracker.usage(), { requests: 2, promptTokens: 110, completionTokens: 55, totalTokens: 165, cachedTokens: 0, costUsd: 0.01, savedUsd: 0, unpricedRequests: 1 });
    assert.equal(tracker.exhausted(), undefined);
    tracker.record({ usage: { promptTokens: 2_000, completionTokens: 5, cachedPromptTokens: 1_536 }, costUsd: 0.002, savedUsd: 0.0007 });
    assert.deepEqual([tracker.usage().cachedTokens, tracker.usage().savedUsd, tracker.usage().promptTokens], [1_536, 0.0007, 2_110]);
  });

  it('reports which limit was reached, with a message', () => {
    const requests = createBudgetTracker({ maxRequests: 1 });
    requests.record(reply(1, 1));
    assert.equal(requests.exhausted()?.limit, 'requests');
    const tokens = createBudgetTracker({ maxTokens: 100 });
    tokens.record(reply(80, 30));
    assert.deepEqual({ ...tokens.exhausted(), message: undefined }, { limit: 'tokens', used: 110, max: 100, message: undefined });
    assert.match(tokens.exhausted()!.message, /tokens budget is used up: 110 tokens of 100 tokens/);
    const cost = createBudgetTracker({ maxCostUsd: 0.05 });
    cost.record(reply(1, 1, 0.06));
    assert.equal(cost.exhausted()?.limit, 'cost');
    assert.match(cost.exhausted()!.message, /\$0\.06 of \$0\.05/);
  });

  it('continues after the limit is raised', () => {
    const tracker = createBudgetTracker({ maxRequests: 1 });
    tracker.record(reply(1, 1));
    tracker.raise({ maxRequests: 5 });
    assert.equal(tracker.exhausted(), undefined);
    assert.deepEqual(tracker.limits(), { maxRequests: 5 });
  });

  it('seeds usage recorded elsewhere without double-counting', () => {
    const tracker = createBudgetTracker({ maxRequests: 3 });
    tracker.record(reply(5, 5));
    const journaled = { requests: 2, promptTokens: 20, completionTokens: 20, totalTokens: 40, costUsd: 0.5, unpricedRequests: 0 };
    tracker.seed(journaled);
    tracker.seed(journaled);
    assert.deepEqual({ ...tracker.usage() }, { ...journaled, cachedTokens: 0, savedUsd: 0, unpricedRequests: 1 }, 'a journal from before cached tokens were counted seeds zero');
    tracker.seed({ ...journaled, cachedTokens: 1_024, savedUsd: 0.25 });
    assert.deepEqual([tracker.usage().cachedTokens, tracker.usage().savedUsd], [1_024, 0.25]);
    tracker.record(reply(1, 1));
    assert.equal(tracker.exhausted()?.limit, 'requests');
  });

  it('wraps a client: records each call and refuses calls once a limit is reached', async () => {
    let calls = 0;
    const inner: LlmClient = { model: 'm', chat: async (_: LlmChatRequest) => ({ ...reply(40, 10, 0.001), text: `call ${++calls}`, toolCalls: [], usageReported: true, model: 'm' }) };
    const tracker = createBudgetTracker({ maxTokens: 100 });
    const client = tracker.wrap(inner);
    const request = { messages: [], signal: new AbortController().signal };
    await client.chat(request);
    await client.chat(request);
    await assert.rejects(client.chat(request), (error: unknown) => error instanceof BudgetExceededError && error.exhaustion.limit === 'tokens' && error.usage.totalTokens === 100);
    assert.equal(calls, 2);
    assert.equal(tracker.usage().requests, 2);
  });
});

describe('budget: what the user is told', () => {
  it('says how many requests were used of how many', () => {
    const tracker = createBudgetTracker({ maxRequests: 2 });
    tracker.record(reply(1, 1));
    tracker.record(reply(1, 1));
    assert.equal(tracker.exhausted()?.message, "The run's requests budget is used up: 2 LLM requests of 2 LLM requests. Continue with a higher limit, or stop.");
  });

  it('recognises a refusal as it is and as a copy from another bundle', () => {
    const tracker = createBudgetTracker({ maxRequests: 0 });
    const error = new BudgetExceededError(tracker.exhausted()!, tracker.usage());
    assert.deepEqual([error.name, error.message, isBudgetExceededError(error)], ['BudgetExceededError', tracker.exhausted()!.message, true]);
    assert.ok(isBudgetExceededError(Object.assign(new Error('x'), { name: 'BudgetExceededError', exhaustion: {} })));
    assert.ok(!isBudgetExceededError(Object.assign(new Error('x'), { name: 'BudgetExceededError' })), 'no exhaustion');
    assert.ok(!isBudgetExceededError(Object.assign(new Error('x'), { exhaustion: {} })), 'another error');
    assert.ok(!isBudgetExceededError({ name: 'BudgetExceededError', exhaustion: {} }), 'not an Error');
  });
});
