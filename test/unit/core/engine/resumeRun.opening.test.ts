import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import { createBudgetTracker } from '../../../../src/core/llm/budget';
import type { JournalEntry } from '../../../../src/core/runStorePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('a')]);
const usage = { requests: 3, promptTokens: 30, completionTokens: 9, totalTokens: 39, costUsd: 0.25, unpricedRequests: 0 };
const budgetRequest = { id: 'a@000000000001', fingerprint: 'f', stepId: 'a', kind: 'budget', prompt: 'Raise the budget?' } as const;
const entries = (bodies: Record<string, unknown>[]): JournalEntry[] =>
  bodies.map((body, index) => ({ runId: 'r', seq: index + 1, time: index + 1, ...body }) as JournalEntry);
const waitingOnBudget = entries([
  { type: 'run_started', plan },
  { type: 'step_ready', stepId: 'a' },
  { type: 'step_started', stepId: 'a', attempt: 1 },
  { type: 'budget_exhausted', stepId: 'a', request: budgetRequest, usage },
  { type: 'step_deferred', stepId: 'a' },
  { type: 'run_waiting', pending: [budgetRequest] },
]);

describe('resumeRun, its opening', () => {
  it('refuses a journal without the start of the run', async () => {
    const store = createMemoryRunStore();
    await store.append('r', []);
    await assert.rejects(resumeRun('r', { store, clock: new ManualClock() }).result, {
      message: 'The journal of run "r" has no run_started event; it cannot be resumed.',
    });
  });

  it('counts the usage the journal recorded in the budget before anything runs', async () => {
    const store = createMemoryRunStore();
    await store.append('r', waitingOnBudget);
    const budget = createBudgetTracker({ maxRequests: 100 });
    await resumeRun('r', { store, clock: new ManualClock(), budget, stepRunner: async () => 'ok' }).result;
    assert.deepEqual(budget.usage(), { ...usage, cachedTokens: 0, savedUsd: 0 }, 'a journal from before cached tokens were counted');
  });

  it('records the unused answers as warnings of the resume, and no warnings field when every answer was used', async () => {
    const store = createMemoryRunStore();
    await store.append('r', waitingOnBudget);
    const result = await resumeRun('r', { store, clock: new ManualClock(), stepRunner: async () => 'ok', answers: { nobody: 'x' } }).result;
    assert.deepEqual(result.metadata.warnings, ['The answer given for "nobody" matches no pending request and was not used (pending: a@000000000001).']);
    const resumed = (await store.load('r'))?.entries.find((entry) => entry.type === 'run_resumed') as Extract<RunEvent, { type: 'run_resumed' }> | undefined;
    assert.deepEqual(resumed?.warnings, ['The answer given for "nobody" matches no pending request and was not used (pending: a@000000000001).']);

    const quiet = createMemoryRunStore();
    await quiet.append('r', waitingOnBudget);
    await resumeRun('r', { store: quiet, clock: new ManualClock(), stepRunner: async () => 'ok' }).result;
    const opening = (await quiet.load('r'))?.entries.find((entry) => entry.type === 'run_resumed');
    assert.ok(opening);
    assert.equal('warnings' in opening, false);
    assert.equal('journalWarning' in opening, false);
  });

  it('shows the recorded state of a finished run while it resolves', async () => {
    const store = createMemoryRunStore();
    await store.append(
      'r',
      entries([
        { type: 'run_started', plan },
        { type: 'run_failed', reason: 'no key' },
      ]),
    );
    const handle = resumeRun('r', { store, clock: new ManualClock() });
    const result = await handle.result;
    assert.equal(result.status, 'failed');
    assert.equal(handle.state().status, 'failed');
    assert.equal(handle.state().reason, 'no key');
  });
});
