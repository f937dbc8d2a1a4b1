import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { createBudgetTracker } from '../../../../src/core/llm/budget';
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
    assert.equal(first.steps.C?.status, 'awaiting_approval');
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
    assert.deepEqual(Object.values(byTokens.steps).map((step) => step.status), ['completed', 'completed', 'awaiting_approval']);
    const byCost = await runPlan(chain, { llm, budget: createBudgetTracker({ maxCostUsd: 0.01 }), clock: new ManualClock() }).result;
    assert.match(byCost.pending?.[0]?.prompt ?? '', /cost budget is used up: \$0\.0100 of \$0\.0100/);
  });
});
