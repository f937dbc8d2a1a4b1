import assert from 'node:assert/strict';
import { rollingSummary } from '../../../../../src/core/engine/executors/rollingSummary';
import type { ContextCompaction } from '../../../../../src/core/engine/executors/stepExecutor';
import { initialRunState } from '../../../../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../../../../src/core/engine/runEvents';
import { countTokens } from '../../../../../src/core/llm/tokenCount';
import { countCompactionRun } from '../../../../support/compactionRun';
import { makePlan, makeStep } from '../../../../support/randomPlans';
import { scriptedLlm } from '../../../../fakes/scriptedLlm';

function stateWith(results: Record<string, unknown>): RunState {
  const plan = makePlan(Object.keys(results).map((id) => makeStep(id, { title: `Title ${id}` })));
  return { ...initialRunState('run-1'), plan, results: { ...results } };
}

describe('rollingSummary', () => {
  const signal = new AbortController().signal;

  it('folds each completed step once, in completion order, and reports each fold', async () => {
    const state = stateWith({ A: 'alpha result', B: { files: 2 } });
    const reports: ContextCompaction[] = [];
    const first = await rollingSummary(state, { budgetTokens: 500, signal, onCompacted: (report) => reports.push(report) });
    assert.match(first, /\[A\] Title A: alpha result/);
    assert.match(first, /\[B\] Title B: .*files/);
    assert.deepEqual(reports.map((report) => [report.stepId, report.method]), [['A', 'append'], ['B', 'append']]);
    assert.ok(reports.every((report) => report.afterTokens <= 500 && report.beforeTokens > 0));

    state.results.C = 'gamma';
    const second = await rollingSummary(state, { budgetTokens: 500, signal, onCompacted: (report) => reports.push(report) });
    assert.ok(second.startsWith(first));
    assert.deepEqual(reports.map((report) => report.stepId), ['A', 'B', 'C']);
  });

  it('stays within its token budget without a model (deterministic fallback)', async () => {
    const results = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`S${index}`, `result number ${index} `.repeat(30)]));
    const reports: ContextCompaction[] = [];
    const summary = await rollingSummary(stateWith(results), { budgetTokens: 200, signal, onCompacted: (report) => reports.push(report) });
    assert.ok(countTokens(summary) <= 200, `summary has ${countTokens(summary)} tokens`);
    assert.ok(reports.some((report) => report.method === 'fallback' && report.beforeTokens > report.afterTokens));
  });

  it('keeps one summary per run state', async () => {
    const one = await rollingSummary(stateWith({ A: 'one' }), { budgetTokens: 500, signal });
    const two = await rollingSummary(stateWith({ B: 'two' }), { budgetTokens: 500, signal });
    assert.doesNotMatch(two, /one/);
    assert.match(one, /one/);
  });

  it('pays for few compaction requests over a 2,000-step run, and uses every summary it paid for', async function () {
    // Counts only (no timers), but 2,000 steps of token counting take a few seconds on a busy machine.
    this.timeout(120_000);
    const run = await countCompactionRun(2_000, 1_000, 'honest');
    const requestsPerStep = (run.agentRequests + run.compactionRequests) / run.steps;
    assert.ok(requestsPerStep <= 1.2, `${requestsPerStep} requests per step`);
    assert.ok(run.compactionRequests > 100, 'the summary overflowed often, so compaction was tested');
    assert.equal(run.usedSummaries, run.compactionRequests, 'every compaction request\'s summary used');
    assert.deepEqual([run.droppedWithReason, run.fallbacks], [0, 0]);
    assert.ok(run.largestCompactedTokens <= 500 && run.largestSummaryTokens <= 1_000, 'headroom: compacted to half the budget');
  });

  it('after an unusable model summary, says why and does not ask the model again at once', async () => {
    const run = await countCompactionRun(300, 1_000, 'rambling');
    assert.equal(run.usedSummaries, 0);
    assert.equal(run.droppedWithReason, run.compactionRequests, 'every dropped summary explained');
    const asked = run.askedModel.flatMap((wasAsked, index) => (wasAsked ? [index] : []));
    assert.deepEqual(asked, [0, 2, 5, 10, 19, 36, 53, 70, 87].filter((index) => index < run.askedModel.length), 'pauses of 1, 2, 4, 8, then 16 compactions');
    assert.ok(asked.length >= 6);
    assert.ok(run.fallbacks > run.compactionRequests, 'the paused compactions ran without the model');
    assert.ok(run.largestCompactedTokens <= 500);
  });

  it('asks the model again after a pause, and a usable summary ends the pausing', async () => {
    let calls = 0;
    const llm = scriptedLlm([() => (++calls === 1 ? 'word '.repeat(5_000) : 'condensed')]);
    const state = stateWith({});
    const reports: ContextCompaction[] = [];
    for (let index = 0; index < 60; index++) {
      state.results[`S${index}`] = `result number ${index} `.repeat(40);
      await rollingSummary(state, { budgetTokens: 200, signal, llm, onCompacted: (report) => reports.push(report) });
    }
    const compactions = reports.filter((report) => report.method !== 'append').map((report) => report.fallbackReason ? 'dropped' : report.method);
    assert.deepEqual(compactions.slice(0, 4), ['dropped', 'fallback', 'llm', 'llm'], 'one compaction without the model, then the model again');
    assert.equal(llm.requests.length, compactions.length - 1);
  });
});
