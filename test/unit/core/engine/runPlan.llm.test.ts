import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { createBudgetTracker } from '../../../../src/core/llm/budget';
import { LlmError } from '../../../../src/core/llm/llmError';
import type { LlmClient } from '../../../../src/core/servicePorts';
import { textCaps } from '../../../../src/core/text/capText';
import { scriptedLlm } from '../../../fakes/scriptedLlm';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

const chain = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'], input: 'after {{results.A}}' }), makeStep('C', { dependsOn: ['B'], input: 'after {{results.B}}' })]);

describe('runPlan with a model: context compaction events', () => {
  it('journals a context_compacted event for each result folded into the summary agents get', async () => {
    const events: RunEvent[] = [];
    const handle = runPlan(chain, { llm: scriptedLlm(['ok']), clock: new ManualClock() });
    handle.events.subscribe((event) => events.push(event));
    const result = await handle.result;
    assert.equal(result.status, 'completed');
    const compactions = events.flatMap((event) => (event.type === 'context_compacted' ? [event] : []));
    // B's prompt folds A's result; C's prompt folds B's.
    assert.deepEqual(compactions.map((event) => event.stepId), ['A', 'B']);
    assert.ok(compactions.every((event) => event.afterTokens > 0 && event.afterTokens <= event.beforeTokens));
    assert.match(handle.state().contextSummary ?? '', /\[B\]/);
  });
});

describe('runPlan with an LLM budget', () => {
  it('pauses before the call that would exceed the budget, and continues after the limit is raised', async () => {
    const store = createMemoryRunStore();
    const llm = scriptedLlm([(request) => `done: ${String(request.messages.at(-1)?.content).slice(-12)}`]);
    const budget = createBudgetTracker({ maxRequests: 2 });
    const first = await runPlan(chain, { llm, budget, store, clock: new ManualClock(), idSource: () => 'run-budget' }).result;

    assert.equal(first.status, 'waiting');
    assert.deepEqual(first.pending?.map((request) => [request.stepId, request.kind]), [['C', 'budget']]);
    assert.match(first.pending?.[0]?.prompt ?? '', /requests budget is used up: 2 LLM requests of 2/);
    assert.equal(first.steps.C?.status, 'awaiting_budget');
    assert.deepEqual([first.steps.A?.status, first.steps.B?.status], ['completed', 'completed']);
    assert.equal(llm.requests.length, 2);

    budget.raise({ maxRequests: 5 });
    const resumed = await resumeRun('run-budget', { llm, budget, store, clock: new ManualClock() }).result;
    assert.equal(resumed.status, 'completed');
    assert.equal(llm.requests.length, 3, 'A and B are not run again');
    assert.equal(budget.usage().requests, 3);
  });

  it('seeds the usage recorded in the journal into a new tracker on resume', async () => {
    const store = createMemoryRunStore();
    const llm = scriptedLlm(['ok']);
    await runPlan(chain, { llm, budget: createBudgetTracker({ maxRequests: 1 }), store, clock: new ManualClock(), idSource: () => 'run-seed' }).result;

    // A new process: a fresh tracker with the same limit still counts the journaled call.
    const same = createBudgetTracker({ maxRequests: 1 });
    const again = await resumeRun('run-seed', { llm, budget: same, store, clock: new ManualClock() }).result;
    assert.equal(again.status, 'waiting');
    assert.equal(same.usage().requests, 1);
    assert.equal(llm.requests.length, 1);

    const raised = createBudgetTracker({ maxRequests: 3 });
    const done = await resumeRun('run-seed', { llm, budget: raised, store, clock: new ManualClock() }).result;
    assert.equal(done.status, 'completed');
    assert.equal(raised.usage().requests, 3);
  });

  it('counts tokens and cost limits too', async () => {
    const llm = scriptedLlm(['ok'], { tokensPerCall: 400, costPerCall: 0.01 });
    const byTokens = await runPlan(chain, { llm, budget: createBudgetTracker({ maxTokens: 1000 }), clock: new ManualClock() }).result;
    assert.deepEqual(Object.values(byTokens.steps).map((step) => step.status), ['completed', 'completed', 'awaiting_budget']);
    const byCost = await runPlan(chain, { llm, budget: createBudgetTracker({ maxCostUsd: 0.01 }), clock: new ManualClock() }).result;
    assert.match(byCost.pending?.[0]?.prompt ?? '', /cost budget is used up: \$0\.01 of \$0\.01/);
  });

  // An outside attack (2026-12-02): a trusted folder's settings chose a model without a known price, whose calls added
  // nothing to the cost, so the user's $1 limit let 50 calls of 2 M tokens through.
  it('attack: does not call a model whose cost is not known while a cost limit is set; says so, and what to do', async () => {
    const unpriced = scriptedLlm(['ok'], { model: 'o1-pro', tokensPerCall: 2_000_000 });
    const result = await runPlan(chain, { llm: unpriced, budget: createBudgetTracker({ maxCostUsd: 1 }), clock: new ManualClock() }).result;
    assert.equal(unpriced.requests.length, 0, 'a call was made');
    assert.equal(result.status, 'waiting');
    assert.match(result.pending?.[0]?.prompt ?? '', /cost limit of \$1\.00 cannot be kept with o1-pro: its price is not known.*Remove the cost limit to use it/);
    const withoutCostLimit = await runPlan(chain, { llm: unpriced, budget: createBudgetTracker({ maxTokens: 10_000_000 }), clock: new ManualClock() }).result;
    assert.equal(withoutCostLimit.status, 'completed');
  });
});

describe('runPlan with a model that refuses the credentials', () => {
  it('does not retry the step on a 401: another attempt would be refused the same way', async () => {
    let calls = 0;
    const llm: LlmClient = {
      model: 'refusing',
      async chat() {
        calls++;
        throw new LlmError('LLM request to https://api.example.com (model m) failed after 1 attempt: the server refused the credentials (HTTP 401). Check the API key.', 'auth', 401, 1);
      },
    };
    const plan = makePlan([makeStep('A', { onFailure: 'retry', maxAttempts: 4 })]);
    const result = await runPlan(plan, { llm, clock: new ManualClock(0, { autoAdvance: true }) }).result;
    assert.equal(result.status, 'failed');
    assert.match(result.steps.A?.error ?? '', /refused the credentials/);
    assert.equal(calls, 1);
  });
});

describe('runPlan caps what enters the journal', () => {
  it('cuts a huge step result, a huge error and endless output, each with a visible marker', async () => {
    const store = createMemoryRunStore();
    const huge = 'r'.repeat(textCaps.result * 3);
    const plan = makePlan([makeStep('A'), makeStep('B', { dependsOn: ['A'] })]);
    const llm = scriptedLlm([
      (request) => {
        for (let chunk = 0; chunk < 30; chunk++) request.onDelta?.({ kind: 'text', text: 'o'.repeat(100_000) });
        return huge;
      },
      () => {
        throw new Error(`boom ${'e'.repeat(textCaps.message * 10)}`);
      },
    ]);
    const result = await runPlan(plan, { llm, store, clock: new ManualClock(), idSource: () => 'run-caps' }).result;
    const completed = (result.steps.A?.result as { answer: string }).answer;
    assert.ok(completed.length <= textCaps.result, `result of ${completed.length} characters`);
    assert.match(completed, /more characters cut\)$/);
    const error = result.steps.B?.error ?? '';
    assert.ok(error.length <= textCaps.message, `error of ${error.length} characters`);
    assert.match(error, /^boom e+… \(\d+ more characters cut\)$/);
    const events = ((await store.load('run-caps'))?.entries ?? []) as RunEvent[];
    const output = events.flatMap((event) => (event.type === 'step_output' && event.stepId === 'A' ? [event.text] : [])).join('');
    assert.ok(output.length <= textCaps.output + 200, `output of ${output.length} characters`);
    assert.match(output, /output cut/);
    assert.ok(JSON.stringify(events).length < 3 * textCaps.result, 'the journal stays small');
  });
});
