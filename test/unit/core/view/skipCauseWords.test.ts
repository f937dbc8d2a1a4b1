import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import { chatEventMarkdown } from '../../../../src/core/view/chatMarkdown';
import { planMarkdown } from '../../../../src/core/view/planMarkdown';
import { runSummary } from '../../../../src/core/view/runSummary';
import { stepStateView } from '../../../../src/core/view/stepStatusView';
import { progressReporter } from '../../../../src/cli/progressReporter';
import { skipCauseWords, skippedStepWords } from '../../../../src/shared/stepStatusLabels';
import { skipCauses, type SkipCause } from '../../../../src/shared/vocabulary';
import { makePlan, makeStep } from '../../../support/randomPlans';

// How a skipped step is said was decided in six places, and they drifted: the chat wrote "skipped: skipped in the plan",
// the command line "skipped: …" for a step not needed, the Markdown checklist "skipped" for a change the user rejected.
const plan = makePlan([makeStep('S1', { title: 'Tidy the docs' })]);
const reasonOf: Record<SkipCause, string> = {
  failed: 'the linter is missing',
  rejected: 'Rejected by you: too long',
  dependency: 'dependency S0 failed',
  halted: 'run halted because critical step S0 failed',
  plan: 'skipped in the plan',
  source: 'done in the source file',
  condition: 'its condition is not met',
};

function skippedAs(cause: SkipCause): { event: RunEventBody; state: RunState } {
  const event: RunEventBody = { type: 'step_skipped', stepId: 'S1', reason: reasonOf[cause], cause };
  const bodies: RunEventBody[] = [{ type: 'run_started', plan }, event, { type: 'run_completed' }];
  return { event, state: foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-1', index + 1, 1_000 + index))) };
}

describe('a skipped step, said by why it was skipped, the same in every view', () => {
  for (const cause of skipCauses) {
    it(`cause "${cause}": the panel and tree, the summary, the chat, the command line and the checklist`, () => {
      const { label, detail } = skippedStepWords(cause, reasonOf[cause]);
      assert.equal(label, skipCauseWords[cause].label);
      const said = detail === '' ? label : `${label}: ${detail}`;
      const { event, state } = skippedAs(cause);
      const stepState = state.steps.S1;
      assert.ok(stepState);
      assert.equal(stepStateView(stepState).label, label);
      if (cause !== 'failed') assert.equal(runSummary(state).steps[0]?.line, said);
      assert.equal(chatEventMarkdown(stampEvent(event, 'run-1', 2, 0), () => 'Tidy the docs'), `- ↷ Tidy the docs ${said}\n`);
      const lines: string[] = [];
      progressReporter(plan, (line) => lines.push(line))(stampEvent(event, 'run-1', 2, 0));
      assert.equal(lines.length, 1);
      assert.ok(lines[0]?.endsWith(` ${said}`), lines[0]);
      const checklist = planMarkdown(plan, state);
      assert.match(checklist, cause === 'source' ? /^- \[x\] \*\*S1\*\*.*\)$/m : new RegExp(`^- \\[ \\] \\*\\*S1\\*\\*.* — ${label.replace(/[()]/g, '\\$&')}$`, 'm'));
    });
  }

  it('says no detail the label already says, and only what the user said of a rejection', () => {
    assert.deepEqual(skippedStepWords('plan', 'skipped in the plan'), { label: 'skipped in the plan', detail: '' });
    assert.deepEqual(skippedStepWords('rejected', 'Rejected by you'), { label: 'rejected by you', detail: '' });
    // The editor's dialogs named themselves: "rejected by you: rejected in the command dialog" (an editor trial).
    assert.deepEqual(skippedStepWords('rejected', 'Rejected by you: rejected in the command dialog'), { label: 'rejected by you', detail: '' });
    assert.deepEqual(skippedStepWords('condition', 'tests pass'), { label: 'not needed', detail: 'tests pass' });
    // A journal written before causes were recorded.
    assert.deepEqual(skippedStepWords(undefined, 'dependency S0 failed'), { label: 'skipped', detail: 'dependency S0 failed' });
  });
});
