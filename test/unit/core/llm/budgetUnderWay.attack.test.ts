import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { createBudgetTracker, isBudgetExceededError } from '../../../../src/core/llm/budget';
import { LlmError } from '../../../../src/core/llm/llmError';
import type { LlmChatRequest, LlmChatResponse } from '../../../../src/core/llm/llmTypes';
import type { LlmClient } from '../../../../src/core/servicePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { deferred } from '../../../support/deferred';
import { makePlan, makeStep } from '../../../support/randomPlans';

// Attacks on the budget by calls made at once: parallel steps racing for the last request of --max-requests.
describe('attack: calls made at once race for the last unit of the budget', () => {
  const request = (): LlmChatRequest => ({ messages: [{ role: 'user', content: 'go' }], signal: new AbortController().signal });
  const answer: LlmChatResponse = { text: 'ok', toolCalls: [], usage: { promptTokens: 10, completionTokens: 10 }, usageReported: true, model: 'm' };

  /** A client whose calls are held until `release`; `sent` counts the calls it was given. */
  function heldClient(): LlmClient & { sent: number; release: () => void } {
    const gate = deferred<void>();
    const client = {
      model: 'm',
      sent: 0,
      release: () => gate.resolve(),
      async chat(): Promise<LlmChatResponse> {
        client.sent++;
        await gate.promise;
        return answer;
      },
    };
    return client;
  }

  it('two calls made while one request is left: one is sent, the other is refused, saying the calls under way hold it', async () => {
    const tracker = createBudgetTracker({ maxRequests: 1 });
    const client = heldClient();
    const llm = tracker.wrap(client);
    const first = llm.chat(request());
    const second = llm.chat(request()).then(
      () => undefined,
      (error: unknown) => error,
    );
    client.release();
    await first;
    const refusal = await second;
    // Seen before the fix: both were sent (2 requests under --max-requests 1), the second never refused.
    assert.equal(client.sent, 1, 'requests sent under a limit of 1');
    assert.ok(isBudgetExceededError(refusal), String(refusal));
    assert.match(refusal.message, /requests budget is used up: 1 LLM requests of 1 LLM requests \(with the model calls still under way\)/);
    assert.equal(tracker.usage().requests, 1);
  });

  it('parallel steps with one request left: one step calls the model, the other waits for more budget', async () => {
    const client = heldClient();
    const budget = createBudgetTracker({ maxRequests: 1 });
    const handle = runPlan(makePlan([makeStep('A'), makeStep('B')]), { llm: client, budget, clock: new ManualClock(), maxConcurrency: 2 });
    // Both steps have started their call (or been refused) before the one out is answered.
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.release();
    const result = await handle.result;
    assert.equal(client.sent, 1, 'requests sent under --max-requests 1');
    assert.equal(result.status, 'waiting');
    assert.deepEqual(
      Object.values(result.steps)
        .map((step) => step.status)
        .sort(),
      ['awaiting_budget', 'completed'],
    );
  });

  it('a call that never reached the server gives its request back to the next one', async () => {
    const tracker = createBudgetTracker({ maxRequests: 1 });
    let calls = 0;
    const llm = tracker.wrap({
      model: 'm',
      chat: () => {
        calls++;
        return calls === 1 ? Promise.reject(new LlmError('could not reach the server', 'network', undefined, 1)) : Promise.resolve(answer);
      },
    });
    await assert.rejects(llm.chat(request()), /could not reach/);
    assert.equal((await llm.chat(request())).text, 'ok');
    assert.equal(tracker.usage().requests, 1);
  });
});
