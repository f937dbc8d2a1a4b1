import assert from 'node:assert/strict';
import { journaledSpending } from '../../../../src/core/engine/journaledSpending';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import type { ReplanRecord } from '../../../../src/core/engine/replanRecord';
import { noBudgetUsage } from '../../../../src/core/llm/budget';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('a'), makeStep('b')]);
const fold = (bodies: RunEventBody[]): RunState =>
  foldRunEvents(bodies.map((body, index): RunEvent => stampEvent(body, 'r', index + 1, 10 * (index + 1))));
const aRunning: RunEventBody[] = [{ type: 'run_started', plan }, { type: 'step_ready', stepId: 'a' }, { type: 'step_started', stepId: 'a', attempt: 1 }];
const requested: RunEventBody = { type: 'model_requested', stepId: 'a' };

describe('what a journal says the run spent on the model', () => {
  it('counts each attempt as a request when it is sent, and each call\'s end corrects it by what reached the server', () => {
    const state = fold([
      ...aRunning,
      // A call answered after a failed attempt (2 attempts, both reached the server).
      requested,
      requested,
      {
        type: 'model_called',
        stepId: 'a',
        model: 'm',
        promptTokens: 100,
        completionTokens: 20,
        costUsd: 0.5,
        attempts: 2,
        retried: { requests: 1, promptTokens: 100, completionTokens: 5, costUsd: 0.25 },
      },
      // A call refused by the budget before it was sent, and one whose 2 attempts failed, one of them unreached.
      requested,
      { type: 'model_failed', stepId: 'a', model: 'm', attempts: 1, requests: 0, promptTokens: 0, completionTokens: 0 },
      requested,
      requested,
      { type: 'model_failed', stepId: 'a', model: 'x', attempts: 2, requests: 1, promptTokens: 40, completionTokens: 3 },
      // A call cut off by a crash: only its attempt is known.
      requested,
    ]);
    assert.deepEqual(state.modelUsage, {
      requests: 4,
      promptTokens: 240,
      completionTokens: 28,
      totalTokens: 268,
      cachedTokens: 0,
      costUsd: 0.75,
      savedUsd: 0,
      unpricedRequests: 1,
    });
    assert.deepEqual(journaledSpending(state), state.modelUsage);
  });

  it('counts a call of a journal written before attempts were as one request, its failed attempts on top', () => {
    const state = fold([
      ...aRunning,
      { type: 'model_called', stepId: 'a', model: 'm', promptTokens: 1, completionTokens: 1 },
      { type: 'model_called', stepId: 'a', model: 'm', promptTokens: 1, completionTokens: 1, retried: { requests: 2, promptTokens: 0, completionTokens: 0 } },
    ]);
    assert.equal(state.modelUsage?.requests, 4);
    assert.equal(state.modelUsage?.unpricedRequests, 4);
  });

  it('adds what the runs and repair plans before a repair run spent, and never gives back what a budget pause counted', () => {
    const usage = (requests: number, totalTokens: number) => ({ ...noBudgetUsage, requests, promptTokens: totalTokens, totalTokens });
    const repairRun = { modelUsage: usage(2, 50), replanHistory: [{ usage: usage(1, 10) }, { usage: usage(3, 100) }] as ReplanRecord[] };
    assert.deepEqual(journaledSpending(repairRun), usage(5, 150));
    assert.deepEqual(journaledSpending({ ...repairRun, budgetUsage: usage(9, 20) }), { ...usage(9, 150), promptTokens: 150 });
    assert.deepEqual(journaledSpending({}), noBudgetUsage);
  });

  it('counts a field of a damaged journal that is no count as 0, and a usage that is no object as nothing', () => {
    const damaged = { requests: -7, promptTokens: 'many', totalTokens: Number.NaN, costUsd: 2 } as unknown as RunState['modelUsage'];
    assert.deepEqual(journaledSpending({ modelUsage: damaged }), { ...noBudgetUsage, costUsd: 2 });
    assert.deepEqual(journaledSpending({ replanHistory: [{ usage: 'lots' }, null] as unknown as ReplanRecord[] }), noBudgetUsage);
  });
});
