import assert from 'node:assert/strict';
import { createBudgetTracker, isBudgetExceededError } from '../../../../src/core/llm/budget';
import { LlmError } from '../../../../src/core/llm/llmError';
import type { LlmChatRequest, LlmChatResponse } from '../../../../src/core/llm/llmTypes';
import type { LlmClient } from '../../../../src/core/servicePorts';

// Attacks on the run's budget by a client (any provider, the editor's too) whose counts lie or whose calls fail.
describe('attack: a model lies to the budget about what it used', () => {
  const request = (): LlmChatRequest => ({ messages: [{ role: 'user', content: 'go' }], signal: new AbortController().signal });
  const answer = (usage: LlmChatResponse['usage'], costUsd?: number): LlmChatResponse => ({
    text: 'ok',
    toolCalls: [],
    usage,
    usageReported: true,
    model: 'm',
    ...(costUsd === undefined ? {} : { costUsd }),
  });

  it('a negative, NaN or infinite count or cost lowers nothing and lifts no limit', async () => {
    const lies: [LlmChatResponse['usage'], number | undefined][] = [
      [{ promptTokens: -1_000_000, completionTokens: 10 }, -5],
      [{ promptTokens: Number.NaN, completionTokens: 10 }, Number.NaN],
      [{ promptTokens: 10, completionTokens: Number.NEGATIVE_INFINITY, cachedPromptTokens: -7 }, Number.POSITIVE_INFINITY],
    ];
    for (const [usage, cost] of lies) {
      const tracker = createBudgetTracker({ maxTokens: 100, maxCostUsd: 1 });
      let calls = 0;
      const client = tracker.wrap({ model: 'm', costKnown: () => true, chat: () => Promise.resolve(answer(usage, cost)) });
      for (let call = 0; call < 50; call++) {
        try {
          await client.chat(request());
          calls++;
        } catch (error: unknown) {
          assert.ok(isBudgetExceededError(error), String(error));
          break;
        }
      }
      const used = tracker.usage();
      for (const [name, value] of Object.entries(used)) assert.ok(Number.isFinite(value) && value >= 0, `${JSON.stringify(usage)}: ${name} is ${value}`);
      assert.ok(calls <= 10, `${JSON.stringify(usage)}: ${calls} calls made under a 100-token limit`);
    }
  });

  it('a usage that is not a number, seeded from a journal, reaches the limit instead of lifting it', () => {
    const tracker = createBudgetTracker({ maxTokens: 100 });
    tracker.seed({ totalTokens: Number.NaN, promptTokens: Number.NaN });
    assert.deepEqual([tracker.usage().totalTokens, tracker.usage().promptTokens], [0, 0]);
    tracker.record({ usage: { promptTokens: 200, completionTokens: 0 } });
    assert.equal(tracker.exhausted()?.limit, 'tokens');
  });

  it('calls that fail count the requests and tokens their attempts spent, so failing calls stop at the limit', async () => {
    const tracker = createBudgetTracker({ maxRequests: 6, maxTokens: 1_000_000 });
    let sent = 0;
    const failing: LlmClient = {
      model: 'm',
      chat: () => {
        sent += 4;
        return Promise.reject(
          new LlmError('cut off', 'network', undefined, 4, { requests: 4, usage: { promptTokens: 100, completionTokens: 50_000 } }),
        );
      },
    };
    const client = tracker.wrap(failing);
    let refused = false;
    for (let call = 0; call < 20 && !refused; call++) {
      try {
        await client.chat(request());
      } catch (error: unknown) {
        refused = isBudgetExceededError(error);
      }
    }
    assert.ok(refused, 'the budget never refused a call');
    assert.equal(sent, 8, `${sent} requests sent under a limit of 6`);
    assert.deepEqual([tracker.usage().requests, tracker.usage().totalTokens], [8, 100_200]);
  });

  it("a call that succeeds after failed attempts counts them too", () => {
    const tracker = createBudgetTracker({});
    tracker.record({ ...answer({ promptTokens: 10, completionTokens: 5 }, 0.01), retriedSpent: { requests: 3, usage: { promptTokens: 30, completionTokens: 900 }, costUsd: 0.02 } });
    assert.deepEqual([tracker.usage().requests, tracker.usage().totalTokens, tracker.usage().costUsd], [4, 945, 0.03]);
  });
});
