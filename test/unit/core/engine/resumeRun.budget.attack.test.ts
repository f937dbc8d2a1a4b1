import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunStore } from '../../../../src/core/runStorePorts';
import { createBudgetTracker } from '../../../../src/core/llm/budget';
import { LlmError } from '../../../../src/core/llm/llmError';
import type { LlmChatRequest, LlmChatResponse } from '../../../../src/core/llm/llmTypes';
import type { LlmClient } from '../../../../src/core/servicePorts';
import { executeWithReplanning, resumeWithReplanning } from '../../../../src/core/replan/executeWithReplanning';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { makePlan, makeStep } from '../../../support/randomPlans';

// Attacks on "a run never spends more than its limits" across a stop or a crash and a resume: what the first process
// spent must count in the resumed one, whatever cut its journal short.
describe('attack: a resumed run forgets what it spent before', () => {
  const chain = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'], maxAttempts: 2 }), makeStep('C', { dependsOn: ['B'] })]);
  const reply = (patch: Partial<LlmChatResponse> = {}): LlmChatResponse => ({
    text: 'done',
    toolCalls: [],
    usage: { promptTokens: 10, completionTokens: 10 },
    usageReported: true,
    model: 'm',
    ...patch,
  });
  /** Answers each call with the next of `script` (a reply, an error to throw, or `hold`: never answered until cancelled). */
  function scriptedClient(script: (LlmChatResponse | Error | 'hold')[], onHold: () => void = () => undefined): LlmClient & { calls: number } {
    const client = {
      model: 'm',
      calls: 0,
      chat(request: LlmChatRequest): Promise<LlmChatResponse> {
        const next = script[Math.min(client.calls, script.length - 1)] as LlmChatResponse | Error | 'hold';
        client.calls++;
        if (next instanceof Error) return Promise.reject(next);
        if (next !== 'hold') return Promise.resolve(next);
        onHold();
        return new Promise((_resolve, reject) => {
          const cancelled = (): void => reject(new LlmError('cancelled.', 'aborted', undefined, 1, { requests: 1, usage: { promptTokens: 10, completionTokens: 0 } }));
          if (request.signal.aborted) cancelled();
          else request.signal.addEventListener('abort', cancelled, { once: true });
        });
      },
    };
    return client;
  }

  it('a run stopped while a call was out: its replies, failed attempts and the call cut off all count after the resume', async () => {
    const store = createMemoryRunStore();
    const controller = new AbortController();
    // A: a call that failed after 2 attempts (the step tries again), then one answered after 1 failed attempt (4
    // requests); B: a call still out when the run is stopped (the 5th).
    const failed = new LlmError('server error', 'server', 500, 2, { requests: 2, usage: { promptTokens: 10, completionTokens: 0 } });
    const retried = reply({ retriedSpent: { requests: 1, usage: { promptTokens: 10, completionTokens: 0 } } });
    const first = scriptedClient([failed, retried, 'hold'], () => controller.abort(new Error('Interrupted (Ctrl+C).')));
    const plan = makePlan([makeStep('A', { maxAttempts: 2 }), makeStep('B', { dependsOn: ['A'] }), makeStep('C', { dependsOn: ['B'] })]);
    const stopped = await runPlan(plan, { llm: first, budget: createBudgetTracker({ maxRequests: 5 }), store, clock: new ManualClock(0, { autoAdvance: true }), idSource: () => 'r', signal: controller.signal }).result;
    assert.equal(stopped.status, 'cancelled');
    assert.equal(first.calls, 3);

    // The same limit in a new process: 5 requests were spent, so nothing more is.
    const again = scriptedClient([reply()]);
    const budget = createBudgetTracker({ maxRequests: 5 });
    const resumed = await resumeRun('r', { llm: again, budget, store, clock: new ManualClock(0, { autoAdvance: true }) }).result;
    // Seen before the fix: B and C called the model (7 requests under a limit of 5): the budget started at 0.
    assert.equal(again.calls, 0, 'calls made past the limit after the resume');
    assert.equal(resumed.status, 'waiting');
    assert.equal(resumed.steps.B?.status, 'awaiting_budget');
    assert.equal(budget.usage().requests, 5);
  });

  it('a crash right after a reply, before the store had its usage: the request still counts', async () => {
    // The store stops keeping anything once the reply of B's call is journaled: what a SIGKILL leaves.
    const kept = createMemoryRunStore();
    let dead = false;
    const dying: RunStore = {
      ...kept,
      async append(runId, entries) {
        const cut = entries.findIndex((entry) => entry.type === 'model_called' && (entry as { stepId?: string }).stepId === 'B');
        if (!dead && cut >= 0) dead = true;
        if (!dead) return kept.append(runId, entries);
        if (cut > 0) return kept.append(runId, entries.slice(0, cut));
      },
      async writeSnapshot(runId, snapshot) {
        if (!dead) await kept.writeSnapshot(runId, snapshot);
      },
    };
    await runPlan(chain, { llm: scriptedClient([reply()]), budget: createBudgetTracker({ maxRequests: 2 }), store: dying, clock: new ManualClock(), idSource: () => 'r' }).result;
    assert.ok(dead, 'the store died at B\'s reply');

    const again = scriptedClient([reply()]);
    const resumed = await resumeRun('r', { llm: again, budget: createBudgetTracker({ maxRequests: 2 }), store: kept, clock: new ManualClock() }).result;
    // Seen before the fix: B and C called the model again (4 requests under a limit of 2).
    assert.equal(again.calls, 0, 'calls made past the limit after the resume');
    assert.equal(resumed.status, 'waiting');
  });

  it('a resumed repair run counts what the run it repairs and its repair plan spent', async () => {
    const store = createMemoryRunStore();
    const clock = new ManualClock(Date.parse('2026-03-01T09:00:00Z'), { autoAdvance: true });
    const stepRunner: StepRunner = async (step) => {
      if (step.id.startsWith('bad')) throw new Error(`${step.id} broke`);
      return `${step.id} done`;
    };
    const repair = (...steps: Record<string, unknown>[]): string =>
      JSON.stringify({ objective: 'x', steps: steps.map((step) => ({ title: `repair ${String(step['id'])}`, kind: 'agent', dependsOn: [], ...step })) });
    // X's step fails, a repair plan (one request: the whole limit) makes X-replan-1, which waits on a question.
    const firstReplanner = scriptedLlm([repair({ id: 'ask', kind: 'clarification', input: 'Go on?' }, { id: 'bad2', dependsOn: ['ask'], onFailure: 'replan' })]);
    const waiting = await executeWithReplanning(makePlan([makeStep('bad1', { onFailure: 'replan' })]), 'objective', {
      replanner: firstReplanner,
      stepRunner,
      clock,
      store,
      idSource: () => 'X',
      budget: createBudgetTracker({ maxRequests: 1 }),
    });
    assert.deepEqual([waiting.status, waiting.runId, firstReplanner.requests.length], ['waiting', 'X-replan-1', 1]);

    // Resumed in a new process with the same limit: bad2 fails and asks for a repair, which the used-up budget refuses.
    const replanner = scriptedLlm([repair({ id: 'fine' })]);
    const budget = createBudgetTracker({ maxRequests: 1 });
    const resumed = await resumeWithReplanning('X-replan-1', { replanner, stepRunner, clock, store, answers: { ask: 'yes' }, budget });
    // Seen before the fix: a second repair plan was asked for (2 requests under a limit of 1) and the run completed.
    assert.equal(replanner.requests.length, 0, 'repair plans asked for past the limit');
    assert.equal(budget.usage().requests, 1);
    assert.equal(resumed.status, 'failed');
    assert.match(resumed.metadata.reason ?? '', /No repair plan could be made[\s\S]*requests budget is used up: 1 LLM requests of 1/);
  });
});
