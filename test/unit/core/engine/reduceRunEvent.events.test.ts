import assert from 'node:assert/strict';
import { foldRunEvents, initialRunState } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

const plan = makePlan([makeStep('a'), makeStep('b', { dependsOn: ['a'] }), makeStep('c')]);
const request = { id: 'a@1', fingerprint: 'f', stepId: 'a', kind: 'approval', prompt: 'Write x?' } as const;

/** Folds the bodies as run "r", seq from 1 and time 10 × seq. */
const fold = (bodies: RunEventBody[], initial?: RunState): RunState =>
  foldRunEvents(
    bodies.map((body, index): RunEvent => stampEvent(body, 'r', index + 1, 10 * (index + 1))),
    initial,
  );
const start: RunEventBody = { type: 'run_started', plan };
const aRunning: RunEventBody[] = [start, { type: 'step_ready', stepId: 'a' }, { type: 'step_started', stepId: 'a', attempt: 1 }];

describe('reduceRunEvent, event by event', () => {
  it('starts steps without dependencies pending and the others blocked', () => {
    const state = fold([start]);
    assert.deepEqual(
      Object.values(state.steps).map((step) => [step.id, step.status, step.attempts]),
      [
        ['a', 'pending', 0],
        ['b', 'blocked', 0],
        ['c', 'pending', 0],
      ],
    );
    assert.equal(state.startedAt, 10);
    assert.equal(state.plan, plan);
  });

  it('folds no events into a fresh state, and never changes the state it starts from', () => {
    assert.deepEqual(foldRunEvents([]), initialRunState(''));
    const initial = fold([start]);
    const before = structuredClone(initial);
    fold([{ type: 'step_warning', stepId: 'a', message: 'w' }], initial);
    assert.deepEqual(initial, before);
  });

  it('times a step from its last start, and a restored result has no duration', () => {
    const state = fold([
      ...aRunning,
      { type: 'step_completed', stepId: 'a', result: 'A' },
      { type: 'step_completed', stepId: 'c', result: 'C', restored: true },
    ]);
    assert.deepEqual([state.steps['a']?.startedAt, state.steps['a']?.endedAt, state.steps['a']?.durationMs], [30, 40, 10]);
    assert.equal(state.steps['c']?.durationMs, undefined);
    assert.equal(state.steps['c']?.endedAt, 50);
    assert.deepEqual(state.results, { a: 'A', c: 'C' });
  });

  it('tracks a request: waiting on it, deferred, answered, and a new attempt clears the deferral', () => {
    const asked = fold([...aRunning, { type: 'approval_requested', stepId: 'a', request }]);
    assert.equal(asked.steps['a']?.status, 'awaiting_approval');
    assert.deepEqual(asked.steps['a']?.pending, request);
    const deferred = fold([...aRunning, { type: 'approval_requested', stepId: 'a', request }, { type: 'step_deferred', stepId: 'a' }]);
    assert.equal(deferred.steps['a']?.deferred, true);
    const answered = fold([...aRunning, { type: 'approval_requested', stepId: 'a', request }, { type: 'request_answered', stepId: 'a', kind: 'approval' }]);
    assert.equal(answered.steps['a']?.status, 'running');
    assert.equal('pending' in (answered.steps['a'] ?? {}), false, 'no pending request is left behind');
    const again = fold([
      ...aRunning,
      { type: 'manual_requested', stepId: 'a', request: { ...request, kind: 'manual' } },
      { type: 'step_deferred', stepId: 'a' },
      { type: 'step_started', stepId: 'a', attempt: 2 },
    ]);
    assert.deepEqual(
      [again.steps['a']?.status, again.steps['a']?.attempts, again.steps['a']?.deferred, again.steps['a']?.pending],
      ['running', 2, false, undefined],
    );
  });

  it('waits on a budget with the usage so far', () => {
    const state = fold([...aRunning, { type: 'budget_exhausted', stepId: 'a', request: { ...request, kind: 'budget' }, usage: { requests: 3 } as never }]);
    assert.equal(state.steps['a']?.status, 'awaiting_budget');
    assert.deepEqual(state.budgetUsage, { requests: 3 });
  });

  it('keeps a retried step running with its error, skips or fails it otherwise', () => {
    const retry = fold([
      ...aRunning,
      { type: 'verification_failed', stepId: 'a', attempt: 1, diagnosis: 'no file' },
      { type: 'step_failed', stepId: 'a', attempt: 1, error: 'boom', disposition: 'retry', retryInMs: 5 },
    ]);
    assert.deepEqual(
      [retry.steps['a']?.status, retry.steps['a']?.error, retry.steps['a']?.diagnosis, retry.steps['a']?.endedAt],
      ['running', 'boom', 'no file', undefined],
    );
    const checked = fold([...aRunning, { type: 'checks_evaluated', stepId: 'a', attempt: 1, checks: [{ kind: 'file_exists', passed: false, detail: 'x does not exist' }] }]);
    assert.deepEqual(checked.steps['a']?.checks, [{ kind: 'file_exists', passed: false, detail: 'x does not exist' }], 'the last outcomes of its checks, for the views and resume');
    const skipped = fold([...aRunning, { type: 'step_failed', stepId: 'a', attempt: 1, error: 'boom', disposition: 'skip' }]);
    assert.deepEqual([skipped.steps['a']?.status, skipped.steps['a']?.reason, skipped.steps['a']?.endedAt], ['skipped', 'failed: boom', 40]);
    const failed = fold([...aRunning, { type: 'step_failed', stepId: 'a', attempt: 1, error: 'boom', disposition: 'fail', replan: true }]);
    assert.deepEqual([failed.steps['a']?.status, failed.steps['a']?.error, failed.steps['a']?.replanRequested], ['failed', 'boom', true]);
    const plain = fold([...aRunning, { type: 'step_failed', stepId: 'a', attempt: 1, error: 'boom', disposition: 'fail' }]);
    assert.equal('replanRequested' in (plain.steps['a'] ?? {}), false);
  });

  it('collects warnings by step, the context summary, changed files once each in first-change order', () => {
    const state = fold([
      ...aRunning,
      { type: 'step_warning', stepId: 'a', message: 'slow' },
      { type: 'context_compacted', stepId: 'a', summary: 'so far', beforeTokens: 9, afterTokens: 3, method: 'llm' },
      { type: 'file_changed', stepId: 'a', path: 'b.ts', operation: 'write' },
      { type: 'file_changed', stepId: 'a', path: 'a.ts', operation: 'edit' },
      { type: 'file_changed', stepId: 'a', path: 'b.ts', operation: 'delete' },
      { type: 'step_progress', stepId: 'a', message: 'half' },
      { type: 'step_output', stepId: 'a', text: 'out' },
      { type: 'replan_started', stepId: 'a', reason: 'r' },
    ]);
    assert.deepEqual(state.warnings, ['a: slow']);
    assert.equal(state.contextSummary, 'so far');
    assert.deepEqual(state.changedFiles, ['b.ts', 'a.ts']);
    assert.equal(state.steps['a']?.status, 'running');
  });

  it('sums the model calls, counting the unpriced ones', () => {
    const state = fold([
      ...aRunning,
      { type: 'model_called', stepId: 'a', model: 'm', promptTokens: 100, completionTokens: 20, costUsd: 0.5 },
      { type: 'model_called', stepId: 'a', model: 'm', promptTokens: 7, completionTokens: 3 },
      { type: 'model_called', stepId: 'a', model: 'm', promptTokens: 2_000, completionTokens: 10, cachedTokens: 1_536, costUsd: 0.25, savedUsd: 0.125 },
    ]);
    assert.deepEqual(state.modelUsage, { requests: 3, promptTokens: 2_107, completionTokens: 33, totalTokens: 2_140, cachedTokens: 1_536, costUsd: 0.75, savedUsd: 0.125, unpricedRequests: 1 });
  });

  it('goes on counting from a snapshot written before cached tokens were counted', () => {
    const older = fold(aRunning);
    const snapshot = { ...older, modelUsage: { requests: 1, promptTokens: 10, completionTokens: 2, totalTokens: 12, costUsd: 0.1, unpricedRequests: 0 } } as unknown as RunState;
    const state = fold([{ type: 'model_called', stepId: 'a', model: 'm', promptTokens: 2_000, completionTokens: 10, cachedTokens: 1_024, costUsd: 0.2, savedUsd: 0.05 }], snapshot);
    assert.deepEqual(state.modelUsage, { requests: 2, promptTokens: 2_010, completionTokens: 12, totalTokens: 2_022, cachedTokens: 1_024, costUsd: 0.30000000000000004, savedUsd: 0.05, unpricedRequests: 0 });
  });

  it('on resume clears the end, counts the resume, adds its warnings and sends unfinished steps back with their attempts and last error', () => {
    const state = fold([
      ...aRunning,
      { type: 'verification_failed', stepId: 'a', attempt: 1, diagnosis: 'no file' },
      { type: 'step_failed', stepId: 'a', attempt: 1, error: 'boom', disposition: 'retry' },
      { type: 'step_skipped', stepId: 'c', reason: 'not needed' },
      { type: 'run_cancelled', reason: 'stopped' },
      { type: 'run_resumed', supplied: {}, journalWarning: 'a torn line', warnings: ['w1', 'w2'] },
    ]);
    assert.equal(state.status, 'running');
    assert.equal(state.resumeCount, 1);
    assert.equal(state.endedAt, undefined);
    assert.equal(state.reason, undefined);
    assert.deepEqual(state.warnings, ['a torn line', 'w1', 'w2']);
    // Its attempt keeps its start and ends at the cancel (70): its bar stays in the timeline.
    assert.deepEqual(state.steps['a'], { id: 'a', status: 'pending', attempts: 1, error: 'boom', diagnosis: 'no file', startedAt: 30, endedAt: 70, durationMs: 40 });
    assert.deepEqual(state.steps['b'], { id: 'b', status: 'blocked', attempts: 0 });
    assert.equal(state.steps['c']?.status, 'skipped', 'a finished step stays finished');
  });

  it('a step a stop cut short keeps the times of its attempt, not stretched by a later stop, and a new attempt has no end', () => {
    const cut = [...aRunning, { type: 'run_cancelled', reason: 'stopped' }] satisfies RunEventBody[];
    assert.deepEqual(fold(cut).steps['a'], { id: 'a', status: 'pending', attempts: 1, startedAt: 30, endedAt: 40, durationMs: 10 });
    // Killed, with no cancel: its attempt ends at the run's last event before the resume.
    const killed = fold([...aRunning, { type: 'step_progress', stepId: 'a', message: 'half' }, { type: 'run_resumed', supplied: {} }]);
    assert.deepEqual([killed.steps['a']?.startedAt, killed.steps['a']?.endedAt], [30, 40]);
    const twice = fold([...cut, { type: 'run_resumed', supplied: {} }, { type: 'run_cancelled', reason: 'again' }]);
    assert.deepEqual([twice.steps['a']?.startedAt, twice.steps['a']?.endedAt], [30, 40]);
    const again = fold([...cut, { type: 'run_resumed', supplied: {} }, { type: 'step_started', stepId: 'a', attempt: 2 }]);
    assert.deepEqual([again.steps['a']?.status, again.steps['a']?.startedAt, again.steps['a']?.endedAt], ['running', 60, undefined]);
  });

  it('keeps a step blocked after a resume when a dependency was skipped, and pending when it completed', () => {
    const skippedDep = fold([
      start,
      { type: 'step_skipped', stepId: 'a', reason: 'x' },
      { type: 'run_waiting', pending: [] },
      { type: 'run_resumed', supplied: {} },
    ]);
    assert.equal(skippedDep.steps['b']?.status, 'blocked');
    const doneDep = fold([
      ...aRunning,
      { type: 'step_completed', stepId: 'a', result: 'A' },
      { type: 'step_ready', stepId: 'b' },
      { type: 'run_cancelled', reason: 'reload', interrupted: true },
    ]);
    assert.equal(doneDep.status, 'interrupted');
    assert.deepEqual(doneDep.steps['b'], { id: 'b', status: 'pending', attempts: 0 });
  });

  it("keeps only answers bound to a request on resume, and forgets a step's answers when it ends", () => {
    const bound = { stepId: 'a', fingerprint: 'f', kind: 'approval', decision: { approved: true } } as const;
    const forC = { ...bound, stepId: 'c' };
    const supplied = {
      'a@1': bound,
      'c@1': forC,
      'x@1': { stepId: 'a', kind: 'approval' },
      'y@1': { fingerprint: 'f', kind: 'approval' },
      'z@1': { stepId: 'a', fingerprint: 'f' },
    } as never;
    const resumed = fold([...aRunning, { type: 'run_waiting', pending: [] }, { type: 'run_resumed', supplied }]);
    assert.deepEqual(resumed.supplied, { 'a@1': bound, 'c@1': forC });
    const ended = fold([
      ...aRunning,
      { type: 'run_waiting', pending: [] },
      { type: 'run_resumed', supplied },
      { type: 'step_started', stepId: 'a', attempt: 2 },
      { type: 'step_completed', stepId: 'a', result: 'A' },
    ]);
    assert.deepEqual(ended.supplied, { 'c@1': forC });
    const again = fold([
      ...aRunning,
      { type: 'run_waiting', pending: [] },
      { type: 'run_resumed', supplied },
      { type: 'run_waiting', pending: [] },
      { type: 'run_resumed', supplied: {} },
    ]);
    assert.deepEqual(again.supplied, { 'a@1': bound, 'c@1': forC }, 'answers stay until their step ends');
  });

  it('on a repair plan keeps completed steps and their results, starts the rest over and drops results of removed steps', () => {
    const repair = makePlan([makeStep('a'), makeStep('b2', { dependsOn: ['a'] }), makeStep('d', { dependsOn: ['b2'] })], { version: 2 });
    const state = fold([
      ...aRunning,
      { type: 'step_completed', stepId: 'a', result: 'A' },
      { type: 'step_completed', stepId: 'c', result: 'C', restored: true },
      { type: 'step_ready', stepId: 'b' },
      { type: 'step_started', stepId: 'b', attempt: 1 },
      { type: 'step_failed', stepId: 'b', attempt: 1, error: 'boom', disposition: 'fail', replan: true },
      { type: 'replan_completed', plan: repair },
    ]);
    assert.equal(state.plan, repair);
    assert.deepEqual(Object.keys(state.steps), ['a', 'b2', 'd']);
    assert.equal(state.steps['a']?.status, 'completed');
    assert.equal(state.steps['a']?.durationMs, 10, 'the completed step is kept as it was');
    assert.deepEqual(state.steps['b2'], { id: 'b2', status: 'pending', attempts: 0 });
    assert.deepEqual(state.steps['d'], { id: 'd', status: 'blocked', attempts: 0 });
    assert.deepEqual(state.results, { a: 'A' });
  });

  it('keeps the latest progress of a started step, and forgets it when the step starts again or ends', () => {
    const started = fold([start, { type: 'step_started', stepId: 'a', attempt: 1 }, { type: 'step_progress', stepId: 'a', message: 'turn 1 of 12' }, { type: 'step_progress', stepId: 'a', message: 'turn 2 of 12: write_file' }]);
    assert.equal(started.steps['a']?.progress, 'turn 2 of 12: write_file');
    const retried = fold([{ type: 'step_started', stepId: 'a', attempt: 2 }], started);
    assert.equal('progress' in (retried.steps['a'] ?? {}), false);
    const ended = fold([{ type: 'step_completed', stepId: 'a', result: 'A' }], started);
    assert.equal('progress' in (ended.steps['a'] ?? {}), false);
    const late = fold([{ type: 'step_progress', stepId: 'a', message: 'turn 3 of 12' }], ended);
    assert.equal('progress' in (late.steps['a'] ?? {}), false, 'a progress after the end changes nothing');
  });

  it('ends the run: completed, failed or cancelled with its reason, waiting', () => {
    assert.deepEqual(pick(fold([start, { type: 'run_completed' }])), ['completed', 20, undefined]);
    assert.deepEqual(pick(fold([start, { type: 'run_failed', reason: 'no' }])), ['failed', 20, 'no']);
    assert.deepEqual(pick(fold([start, { type: 'run_waiting', pending: [] }])), ['waiting', 20, undefined]);
    assert.deepEqual(pick(fold([start, { type: 'run_cancelled', reason: 'stop' }])), ['cancelled', 20, 'stop']);
  });
});

function pick(state: RunState): unknown[] {
  return [state.status, state.endedAt, state.reason];
}
