import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { createPredicateThreads } from '../../../src/node/predicateThreads';
import { runPlan } from '../../../src/core/engine/runPlan';
import { ManualClock } from '../../fakes/manualClock';
import { makePlan, makeStep } from '../../support/randomPlans';

// Native operations QuickJS does not interrupt: its time limit is checked only between thousands of operations,
// and one string search is quadratic in its strings. On the caller's thread a 1 s predicate held the extension
// host or the command line for minutes (the first) to hours (the second, with longer strings).
const loopOfSearches = "(() => { const s = 'a'.repeat(1e7); let c = 0; for (;;) c += s.indexOf('b'); })()";
const quadraticSearch = "'a'.repeat(2e6).indexOf('a'.repeat(1e6) + 'b') === -1";

describe('predicates QuickJS does not stop (attack)', function () {
  this.timeout(60_000);

  it('ends a predicate on its thread at its time limit, with the time limit\'s error, and the next predicate still runs', async () => {
    const evaluate = createPredicateThreads();
    for (const expr of [loopOfSearches, quadraticSearch]) {
      const started = performance.now();
      const outcome = await evaluate(expr, { result: 1 }, { timeoutMs: 500 });
      const tookMs = performance.now() - started;
      assert.deepEqual(outcome, { kind: 'error', message: `Verification \`${expr}\` timed out after 500 ms; make the predicate cheaper or remove the loop.` });
      assert.ok(tookMs < 10_000, `took ${Math.round(tookMs)} ms`);
    }
    assert.deepEqual(await evaluate('result.n === 2 && checks.length === 0', { result: { n: 2 }, checks: [] }), { kind: 'pass' });
    assert.deepEqual(await evaluate('"not yet"', {}), { kind: 'fail', diagnosis: 'not yet', stated: true });
  });

  it("a run verifies its steps and conditions with the environment's evaluator, never on its own thread", async () => {
    const asked: string[] = [];
    const plan = makePlan([makeStep('a', { when: 'true', verification: quadraticSearch })]);
    const handle = runPlan(plan, {
      clock: new ManualClock(0, { autoAdvance: true }),
      stepRunner: () => Promise.resolve('done'),
      predicates: (expr) => {
        asked.push(expr);
        return Promise.resolve(expr === 'true' ? { kind: 'pass' } : { kind: 'error', message: 'stopped by the host' });
      },
    });
    const result = await handle.result;
    assert.deepEqual(asked, ['true', quadraticSearch]);
    assert.equal(result.status, 'failed');
  });
});
