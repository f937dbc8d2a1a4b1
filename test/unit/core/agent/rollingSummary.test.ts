import assert from 'node:assert/strict';
import { rollingSummary } from '../../../../src/core/agent/rollingSummary';
import type { ContextCompaction } from '../../../../src/core/engine/executors/stepExecutor';
import { initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import type { RunState } from '../../../../src/core/engine/runEvents';
import { countTokens } from '../../../../src/core/llm/tokenCount';
import { makePlan, makeStep } from '../../../support/randomPlans';

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
});
