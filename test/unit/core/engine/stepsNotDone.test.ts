import assert from 'node:assert/strict';
import { z } from 'zod';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { replayJournal } from '../../../../src/core/engine/replayJournal';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { stampEvent, type RunEventBody } from '../../../../src/core/engine/runEvents';
import { describeStepsNotDone, skipCauseOf, stepsNotDone } from '../../../../src/core/engine/stepsNotDone';
import type { StepRunner } from '../../../../src/core/engine/runOptions';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { Tool } from '../../../../src/core/tools/tool';
import type { JournalEntry } from '../../../../src/core/runStorePorts';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

async function run(plan: Plan, stepRunner: StepRunner, tools: Tool[] = []) {
  const store = createMemoryRunStore();
  const handle = runPlan(plan, { idSource: () => 'honest', clock: new ManualClock(0, { autoAdvance: true }), stepRunner, store, tools });
  return { result: await handle.result, store };
}

const failing =
  (...ids: string[]): StepRunner =>
  async (step) => {
    if (ids.includes(step.id)) throw new Error(`${step.id} broke`);
    return step.id;
  };

describe('honest outcomes: a run ends completed only when every step is done', () => {
  it('run the tests (onFailure skip) then fix what fails: both left undone is partial, never completed', async () => {
    const redSuite: Tool<{ argv: string[] }> = {
      name: 'run_tests',
      description: 'runs the tests',
      inputSchema: z.object({ argv: z.array(z.string()) }),
      effects: 'read',
      run: async () => Promise.reject(new Error('Command pytest -q exited with code 1.\n1 failed, 179 passed')),
    };
    const plan = makePlan([
      makeStep('test', { kind: 'tool', tool: 'run_tests', args: { argv: ['pytest', '-q'] }, onFailure: 'skip', critical: false }),
      makeStep('fix', { dependsOn: ['test'], input: 'fix {{results.test}}' }),
    ]);
    const { result } = await run(plan, async (step) => step.id, [redSuite]);
    assert.notEqual(result.status, 'completed');
    assert.equal(result.status, 'partial');
    assert.equal(result.steps['test']?.skipCause, 'failed');
    assert.equal(result.steps['fix']?.skipCause, 'dependency');
    assert.equal(result.metadata.reason, 'Step test failed; step fix was skipped.');
  });

  it('a step the plan skips (the review\'s Skip) or whose condition is not met, and what waited only on those, leave the run completed', async () => {
    const plan = makePlan([
      makeStep('a'),
      makeStep('left', { skipped: true }),
      makeStep('afterLeft', { dependsOn: ['left'] }),
      makeStep('maybe', { dependsOn: ['a'], when: 'depends.a === "nope"' }),
      makeStep('afterMaybe', { dependsOn: ['maybe', 'a'] }),
    ]);
    const { result } = await run(plan, async (step) => step.id);
    assert.deepEqual(
      ['left', 'afterLeft', 'maybe', 'afterMaybe'].map((id) => [result.steps[id]?.status, result.steps[id]?.skipCause]),
      [
        ['skipped', 'plan'],
        ['skipped', 'dependency'],
        ['skipped', 'condition'],
        ['skipped', 'dependency'],
      ],
    );
    assert.equal(result.status, 'completed');
    assert.equal(result.metadata.reason, undefined);
  });

  it('a step skipped after a failure and after a planned skip is still not done', async () => {
    const plan = makePlan([
      makeStep('left', { skipped: true }),
      makeStep('broken', { onFailure: 'skip' }),
      makeStep('both', { dependsOn: ['left', 'broken'] }),
    ]);
    const { result } = await run(plan, failing('broken'));
    assert.equal(result.status, 'partial');
    assert.deepEqual(stepsNotDone({ plan, steps: result.steps }), { failed: ['broken'], rejected: [], skipped: ['both'] });
  });

  it('a run with no step done at all is partial when nothing halted it, and says which failed', async () => {
    const plan = makePlan([makeStep('one', { onFailure: 'stop', critical: false }), makeStep('two', { onFailure: 'retry', maxAttempts: 2, critical: false })]);
    const { result } = await run(plan, failing('one', 'two'));
    assert.equal(result.status, 'partial');
    assert.equal(result.metadata.reason, 'Steps one, two failed.');
  });

  it('folds the same from the journal, and a resumed partial run returns its result without running anything', async () => {
    const plan = makePlan([makeStep('a', { onFailure: 'skip' }), makeStep('b', { dependsOn: ['a'] })]);
    const { result, store } = await run(plan, failing('a'));
    const journal = await store.load('honest');
    assert.ok(journal);
    assert.equal(replayJournal('honest', journal).status, 'partial');
    let ran = 0;
    const resumed = await resumeRun('honest', {
      store,
      clock: new ManualClock(0, { autoAdvance: true }),
      stepRunner: async () => {
        ran++;
        return 'x';
      },
    }).result;
    assert.equal(resumed.status, 'partial');
    assert.equal(ran, 0);
    assert.deepEqual(resumed.steps, result.steps);
  });

  it('reads a journal written before skips carried their cause by the reason, so an old dishonest "completed" now reads partial', () => {
    const plan = makePlan([
      makeStep('t', { onFailure: 'skip' }),
      makeStep('f', { dependsOn: ['t'] }),
      makeStep('c', { when: 'false' }),
      makeStep('p', { skipped: true }),
    ]);
    const bodies: RunEventBody[] = [
      { type: 'run_started', plan },
      { type: 'step_skipped', stepId: 'p', reason: 'skipped in the plan' },
      { type: 'step_started', stepId: 't', attempt: 1 },
      { type: 'step_failed', stepId: 't', attempt: 1, error: 'exit 1', disposition: 'skip' },
      { type: 'step_skipped', stepId: 'f', reason: 'dependency t was skipped' },
      { type: 'step_skipped', stepId: 'c', reason: 'its condition `false` is not met' },
      { type: 'run_completed' },
    ];
    const events = bodies.map((body, index) => stampEvent(body, 'old', index + 1, index));
    const state = foldRunEvents(events);
    assert.equal(state.status, 'partial');
    assert.deepEqual(stepsNotDone(state), { failed: ['t'], rejected: [], skipped: ['f'] });
    const onlyPlanned = makePlan([makeStep('c', { when: 'false' }), makeStep('p', { skipped: true }), makeStep('after', { dependsOn: ['p'] })]);
    const planned: RunEventBody[] = [
      { type: 'run_started', plan: onlyPlanned },
      { type: 'step_skipped', stepId: 'p', reason: 'skipped in the plan' },
      { type: 'step_skipped', stepId: 'after', reason: 'dependency p was skipped' },
      { type: 'step_skipped', stepId: 'c', reason: 'its condition `false` is not met' },
      { type: 'run_completed' },
    ];
    assert.equal(foldRunEvents(planned.map((body, index) => stampEvent(body, 'old2', index + 1, index))).status, 'completed');
    const replayed = replayJournal('old', { entries: events as unknown as JournalEntry[] });
    assert.equal(replayed.status, 'partial');
  });

  it('reads each reason the engine gives as its cause', () => {
    assert.equal(skipCauseOf('skipped in the plan'), 'plan');
    assert.equal(skipCauseOf('its condition `x` is not met'), 'condition');
    assert.equal(skipCauseOf('Rejected by the user: no'), 'rejected');
    assert.equal(skipCauseOf('Rejected by the user'), 'rejected');
    assert.equal(skipCauseOf('run halted because critical step a failed'), 'halted');
    assert.equal(skipCauseOf('failed: boom'), 'failed');
    assert.equal(skipCauseOf('dependency a was skipped'), 'dependency');
  });

  it('says what is not done in one sentence', () => {
    assert.equal(describeStepsNotDone({ failed: ['a'], rejected: [], skipped: [] }), 'Step a failed.');
    assert.equal(describeStepsNotDone({ failed: [], rejected: [], skipped: ['b', 'c'] }), 'Steps b, c were skipped.');
    assert.equal(describeStepsNotDone({ failed: ['a', 'd'], rejected: [], skipped: ['b'] }), 'Steps a, d failed; step b was skipped.');
    assert.equal(describeStepsNotDone({ failed: [], rejected: ['r', 's'], skipped: ['b'] }), 'Steps r, s were rejected by you; step b was skipped.');
  });
});
