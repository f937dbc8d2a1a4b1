import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { StepEpilogue } from '../../../../src/core/engine/runOptions';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

async function run(epilogue: StepEpilogue, verification?: string, events: RunEvent[] = []): Promise<{ events: RunEvent[]; status: string }> {
  const plan = makePlan([makeStep('A', verification === undefined ? {} : { verification }), makeStep('B', { dependsOn: ['A'] })]);
  const handle = runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), stepRunner: async (step) => `did ${step.id}`, stepEpilogue: epilogue });
  handle.events.subscribe((event) => events.push(event));
  return { events, status: (await handle.result).status };
}

describe('RunOptions.stepEpilogue', () => {
  it('runs once per completed step, with that step and its tool context, before the step completes', async () => {
    const seen: string[] = [];
    const events: RunEvent[] = [];
    const outcome = await run(
      async (step, tools) => {
        const completed = events.some((event) => event.type === 'step_completed' && event.stepId === step.id);
        seen.push(`${step.id} ${tools.stepId} ${tools.runId === events[0]?.runId ? 'this run' : 'another run'} ${completed ? 'after' : 'before'} completing`);
      },
      undefined,
      events,
    );
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(seen, ['A A this run before completing', 'B B this run before completing']);
  });

  it('never runs for a step whose verification failed', async () => {
    const seen: string[] = [];
    const { status } = await run(async (step) => void seen.push(step.id), 'false');
    assert.equal(status, 'failed');
    assert.deepEqual(seen, []);
  });

  it('a step it has nothing to do for completes in the same turn as its verification, so a halt meanwhile cannot drop it', async () => {
    const plan = makePlan([makeStep('A'), makeStep('B', { onFailure: 'stop' })]);
    const handle = runPlan(plan, {
      clock: new ManualClock(0, { autoAdvance: true }),
      stepRunner: async (step) => {
        if (step.id === 'B') throw new Error('B broke');
        return 'did A';
      },
      stepEpilogue: () => undefined,
    });
    const result = await handle.result;
    assert.equal(result.steps['A']?.status, 'completed');
    assert.equal(result.results['A'], 'did A');
  });

  it('a step asked for a warning synchronously still completes', async () => {
    const { events, status } = await run((step) => {
      if (step.id === 'A') throw new Error('not a promise');
      return undefined;
    });
    assert.equal(status, 'completed');
    assert.ok(events.some((event) => event.type === 'step_warning' && event.message === 'not a promise'));
  });

  it('a failing epilogue is a warning of the step, which completes all the same', async () => {
    const { events, status } = await run(async (step) => {
      if (step.id === 'A') throw new Error('could not tick');
    });
    assert.equal(status, 'completed');
    assert.deepEqual(
      events.flatMap((event) => (event.type === 'step_warning' ? [`${event.stepId}: ${event.message}`] : [])),
      ['A: could not tick'],
    );
  });
});
