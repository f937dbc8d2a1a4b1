import assert from 'node:assert/strict';
import type { StepRunner, StepRunnerContext } from '../../../../../src/core/engine/runOptions';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import type { Plan } from '../../../../../src/core/plan/planSchema';
import { ManualClock } from '../../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../../fakes/scriptedInteraction';
import { makePlan, makeStep } from '../../../../support/randomPlans';

/** Runs `plan` with `stepRunner` (when given) and no model; the contexts the runner got, by step id. */
async function run(plan: Plan, stepRunner?: StepRunner) {
  const seen: Record<string, StepRunnerContext[]> = {};
  const recording: StepRunner | undefined = stepRunner && ((step, ctx) => ((seen[step.id] ??= []).push(ctx), stepRunner(step, ctx)));
  const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), interaction: new ScriptedInteraction(), retryBaseDelayMs: 1, ...(recording ? { stepRunner: recording } : {}) }).result;
  return { result, seen };
}

const echoId: StepRunner = async (step) => step.id;

describe('agent and synthesis gate steps', () => {
  it('give an agent step its title when its input is empty or blank', async () => {
    const { seen } = await run(makePlan([makeStep('a', { title: 'Summarise the log', input: '   ' }), makeStep('b', { title: 'T', input: 'do b' })]), echoId);
    assert.equal(seen['a']?.[0]?.input, 'Summarise the log');
    assert.equal(seen['b']?.[0]?.input, 'do b');
  });

  it('ask a gate without an input to condense its dependencies\' results, or those of the previous steps when it has none', async () => {
    const { seen } = await run(makePlan([
      makeStep('a'),
      makeStep('b'),
      makeStep('gate', { kind: 'synthesis_gate', title: 'Sum up', input: undefined, dependsOn: ['a', 'b'] }),
      makeStep('alone', { kind: 'synthesis_gate', title: 'Begin', input: '' }),
    ]), echoId);
    assert.equal(seen['gate']?.[0]?.input, 'Sum up\n\nCondense the results of a, b into what the next steps need.');
    assert.equal(seen['alone']?.[0]?.input, 'Begin\n\nCondense the results of the previous steps into what the next steps need.');
  });

  it('pass the runner the failed verification\'s diagnosis on the retry after it, and no diagnosis before', async () => {
    const plan = makePlan([makeStep('v', { verification: 'result === "good" || "result must be good"', onVerificationFailure: 'retry', maxAttempts: 2 })]);
    const { result, seen } = await run(plan, async (_step, ctx) => (ctx.attempt === 1 ? 'bad' : 'good'));
    assert.equal(result.status, 'completed');
    assert.equal(seen['v']?.length, 2);
    assert.equal('diagnosis' in (seen['v']?.[0] ?? {}), false, 'a first attempt has nothing to correct');
    assert.equal(seen['v']?.[1]?.diagnosis, 'result must be good');
  });

  it('fail at once, without retrying, when there is neither a runner nor a model', async () => {
    const { result } = await run(makePlan([makeStep('a', { onFailure: 'retry', maxAttempts: 3 })]));
    assert.match(result.steps['a']?.error ?? '', /^Step a needs a language model and none is set up\./);
    assert.equal(result.steps['a']?.attempts, 1);
  });
});
