import assert from 'node:assert/strict';
import { runPlan } from '../../../../../src/core/engine/runPlan';
import type { Step } from '../../../../../src/core/plan/planSchema';
import { ManualClock } from '../../../../fakes/manualClock';
import type { InteractionScript } from '../../../../fakes/scriptedInteraction';
import { ScriptedInteraction } from '../../../../fakes/scriptedInteraction';
import { makePlan, makeStep } from '../../../../support/randomPlans';

/** Runs step A then the review step R with `patch` (retried up to twice on a retryable failure), answering from `reviews`. */
async function review(patch: Partial<Step>, reviews: InteractionScript['reviews']) {
  const plan = makePlan([makeStep('A'), makeStep('R', { kind: 'human_review', agent: undefined, title: 'the new README', dependsOn: ['A'], onFailure: 'retry', maxAttempts: 2, ...patch })]);
  const interaction = new ScriptedInteraction({ reviews });
  const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), interaction, stepRunner: async () => 'a usage section' }).result;
  const asked = interaction.requests.flatMap((entry) => (entry.kind === 'review' ? [entry.request] : [])).map(({ requestId: _id, ...shown }) => shown);
  return { result, asked };
}

describe('human review steps', () => {
  it('show the step\'s input, templates resolved, else "Review: <title>"', async () => {
    const withInput = await review({ input: 'Check {{results.A}}' }, [{ approved: true }]);
    assert.deepEqual(withInput.asked, [{ stepId: 'R', title: 'the new README', prompt: 'Check a usage section' }]);
    const withoutInput = await review({ input: undefined }, [{ approved: true }]);
    assert.equal(withoutInput.asked[0]?.prompt, 'Review: the new README');
  });

  it('make the approval the result, with the notes exactly when some were given', async () => {
    assert.deepEqual((await review({}, [{ approved: true }])).result.results['R'], { approved: true });
    assert.deepEqual((await review({}, [{ approved: true, notes: ' fine ' }])).result.results['R'], { approved: true, notes: ' fine ' });
  });

  it('fail the step on a rejection, with the notes or saying there were none, without asking again', async () => {
    const withNotes = await review({}, [{ approved: false, notes: '  wrong file  ' }]);
    assert.equal(withNotes.result.steps['R']?.error, 'Rejected in review: wrong file.');
    assert.equal(withNotes.asked.length, 1, 'a rejection is not retried');
    for (const notes of [undefined, '   ']) {
      const bare = await review({}, [notes === undefined ? { approved: false } : { approved: false, notes }]);
      assert.equal(bare.result.steps['R']?.error, 'Rejected in review (no notes given).');
    }
  });

  it('leave the run waiting on the review when the user decides later', async () => {
    const { result } = await review({ input: 'Check it' }, ['defer']);
    assert.equal(result.status, 'waiting');
    assert.deepEqual(result.pending?.map(({ stepId, kind, prompt }) => ({ stepId, kind, prompt })), [{ stepId: 'R', kind: 'review', prompt: 'Check it' }]);
  });
});
