import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import type { Plan } from '../../../../src/core/plan/planSchema';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';
import type { ReplanRecord } from '../../../../src/core/engine/replanRecord';

async function run(plan: Plan, options: Partial<RunOptions> = {}) {
  const events: RunEvent[] = [];
  const handle = runPlan(plan, { idSource: () => 'run-1', clock: new ManualClock(0, { autoAdvance: true }), stepRunner: async (step) => step.id, ...options });
  handle.events.subscribe((event) => events.push(event));
  return { result: await handle.result, events };
}

describe('runPlan: the check before a run', () => {
  it('refuses tool steps whose tools the run does not have, naming every one, before running anything', async () => {
    const plan = makePlan([makeStep('a', { kind: 'tool', tool: 'teleport', args: {} }), makeStep('b', { kind: 'tool', tool: 'levitate', args: {} })]);
    const store = createMemoryRunStore();
    const { result, events } = await run(plan, { tools: builtinTools(), store });
    assert.equal(result.status, 'failed');
    assert.match(result.metadata.reason ?? '', /^The plan is invalid: a: [^]*teleport[^]* b: [^]*levitate/);
    assert.ok(!events.some((event) => event.type === 'step_started'));
    assert.deepEqual(await store.list(), []);
  });

  it('runs a plan whose only findings are warnings', async () => {
    const plan = makePlan([makeStep('a')], { agents: { helper: { prompt: 'Help.', tools: ['teleport'] } } });
    const { result } = await run(plan, { tools: builtinTools() });
    assert.equal(result.status, 'completed', result.metadata.reason);
  });

  it('journals the replan history it is given with the start of the run, and none when it has none', async () => {
    const history: ReplanRecord[] = [
      {
        replan: 1,
        failedRunId: 'run-0',
        stepIds: ['a'],
        reason: 'step a failed',
        startedAt: 1,
        endedAt: 2,
        keptStepIds: [],
        newStepIds: ['a'],
        repaired: false,
        planVersion: 2,
        trials: [],
      },
    ];
    const { events } = await run(makePlan([makeStep('a')]), { replanHistory: history });
    const opening = events.find((event) => event.type === 'run_started');
    assert.deepEqual(opening && 'replanHistory' in opening ? opening.replanHistory : undefined, history);
    const { events: plain } = await run(makePlan([makeStep('a')]));
    assert.ok(!('replanHistory' in (plain.find((event) => event.type === 'run_started') ?? {})));
  });
});
