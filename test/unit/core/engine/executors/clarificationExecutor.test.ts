import assert from 'node:assert/strict';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import type { Step } from '../../../../../src/core/plan/planSchema';
import { ManualClock } from '../../../../fakes/manualClock';
import type { InteractionScript } from '../../../../fakes/scriptedInteraction';
import { ScriptedInteraction } from '../../../../fakes/scriptedInteraction';
import { makePlan, makeStep } from '../../../../support/randomPlans';

/** Runs step A (result "the README") then the clarification step C with `patch`, answering from `clarifications`. */
async function ask(patch: Partial<Step>, clarifications: InteractionScript['clarifications']) {
  const plan = makePlan([makeStep('A'), makeStep('C', { kind: 'clarification', agent: undefined, title: 'Which file?', dependsOn: ['A'], ...patch })]);
  const interaction = new ScriptedInteraction({ clarifications });
  const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), interaction, stepRunner: async () => 'the README' }).result;
  const asked = interaction.clarifications().map(({ requestId: _id, ...shown }) => shown);
  return { result, asked };
}

describe('clarification steps', () => {
  it('ask the step\'s input, templates resolved, and make the answer the result', async () => {
    const { result, asked } = await ask({ input: 'Change {{results.A}} or the guide?' }, ['the guide']);
    assert.deepEqual(asked, [{ stepId: 'C', title: 'Which file?', question: 'Change the README or the guide?' }]);
    assert.equal(result.results['C'], 'the guide');
  });

  it('ask the title when the step has no input', async () => {
    const { asked } = await ask({ input: undefined }, ['x']);
    assert.equal(asked[0]?.question, 'Which file?');
  });

  it('offer the text suggestions of args.suggestions as quick answers, and none when there are none', async () => {
    const offered = await ask({ input: 'Which?', args: { suggestions: ['README.md', 3, 'guide.md'] } }, ['README.md']);
    assert.deepEqual(offered.asked[0]?.suggestions, ['README.md', 'guide.md']);
    for (const args of [{ suggestions: [] }, { suggestions: 'README.md' }, {}]) {
      const { asked } = await ask({ input: 'Which?', args }, ['README.md']);
      assert.equal(asked[0] !== undefined && 'suggestions' in asked[0], false, `no suggestions for ${JSON.stringify(args)}`);
    }
  });

  it('refuse an empty answer, asking again when the step may be retried', async () => {
    const once = await ask({ input: 'Which?' }, ['  ']);
    assert.equal(once.result.status, 'failed');
    assert.equal(once.result.steps['C']?.error, 'Step C got an empty answer; answer the question to continue.');
    const retried = await ask({ input: 'Which?', onFailure: 'retry', maxAttempts: 2 }, ['', 'guide.md']);
    assert.equal(retried.result.results['C'], 'guide.md');
    assert.equal(retried.asked.length, 2);
  });

  it('leave the run waiting on the question when the user answers later', async () => {
    const { result } = await ask({ input: 'Which?' }, ['defer']);
    assert.equal(result.status, 'waiting');
    assert.deepEqual(result.pending?.map(({ stepId, kind, prompt }) => ({ stepId, kind, prompt })), [{ stepId: 'C', kind: 'clarification', prompt: 'Which?' }]);
  });
});
