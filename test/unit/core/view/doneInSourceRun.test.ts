import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import { skipCauseOf } from '../../../../src/core/engine/stepsNotDone';
import { chatEventMarkdown } from '../../../../src/core/view/chatMarkdown';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { planMarkdown } from '../../../../src/core/view/planMarkdown';
import { planTreeModel } from '../../../../src/core/view/planTreeModel';
import { runSummary } from '../../../../src/core/view/runSummary';
import { summaryText } from '../../../../src/cli/summaryText';
import { makePlan, makeStep } from '../../../support/randomPlans';

// A task file imported with two of its tasks ticked: those steps are skipped as done in the file. A newcomer's run of a
// Spec Kit tasks.md with most of its tasks ticked read "1 of 4 steps completed, 3 skipped", as if the run had left them out.
const plan = makePlan([
  makeStep('T001', { title: 'Create the project', skipped: true }),
  makeStep('T002', { title: 'Add the model', skipped: true, dependsOn: ['T001'] }),
  makeStep('T003', { title: 'Add the handler', dependsOn: ['T002'] }),
  makeStep('T004', { title: 'Write the docs', skipped: true }),
]);

function stateOf(bodies: RunEventBody[]): RunState {
  return foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-1', index + 1, 1_000_000 + index * 1000)));
}

const doneInFile = (stepId: string): RunEventBody => ({ type: 'step_skipped', stepId, reason: 'done in the source file', cause: 'source' });
const ran = stateOf([
  { type: 'run_started', plan },
  doneInFile('T001'),
  doneInFile('T002'),
  { type: 'step_skipped', stepId: 'T004', reason: 'skipped in the plan', cause: 'plan' },
  { type: 'step_started', stepId: 'T003', attempt: 1 },
  { type: 'step_completed', stepId: 'T003', result: 'done' },
  { type: 'run_completed' },
]);

describe('a run of a task file whose tasks were partly ticked, in every view', () => {
  it('the summary counts the ticked tasks as done in the source file, apart from the step skipped in the plan', () => {
    assert.equal(ran.status, 'completed');
    const summary = runSummary(ran);
    assert.equal(summary.headline, 'completed in 6.0 s: 1 of 4 steps completed, 1 skipped, 2 done in the source file.');
    assert.deepEqual(summary.progress, { total: 4, completed: 1, failed: 0, rejected: 0, skipped: 1, notNeeded: 0, doneInSource: 2 });
    assert.deepEqual(
      summary.steps.map((step) => [step.id, step.line]),
      [
        ['T001', 'done in the source file'],
        ['T002', 'done in the source file'],
        ['T003', 'done'],
        ['T004', 'skipped in the plan'],
      ],
    );
    assert.equal(summaryText(summary)[0], 'Run run-1 completed in 6.0 s: 1 of 4 steps completed, 1 skipped, 2 done in the source file.');
  });

  it('the Plan tree, the panel, the chat and the Markdown checklist say it too; the checklist ticks what the file had ticked', () => {
    const [first] = planTreeModel(plan, 'flat', ran);
    assert.equal(first?.icon, 'pass');
    assert.match(first?.description ?? '', /done in the source file/);
    const body = buildPanelViewModel(undefined, { state: ran, now: 2_000_000 });
    assert.ok(body.mode === 'run');
    assert.equal(body.run.progress.doneInSource, 2);
    assert.equal(chatEventMarkdown(stampEvent(doneInFile('T001'), 'run-1', 1, 0), (id) => id), '- ↷ T001 done in the source file\n');
    const markdown = planMarkdown(plan, ran);
    assert.match(markdown, /^- \[x\] \*\*T001\*\* Create the project/m);
    assert.match(markdown, /^- \[x\] \*\*T003\*\* Add the handler/m);
    assert.match(markdown, /^- \[ \] \*\*T004\*\* Write the docs.*skipped/m);
  });

  it('a journal written before the cause "source" (cause "plan", the same reason) reads the same', () => {
    const old = stateOf([
      { type: 'run_started', plan },
      { type: 'step_skipped', stepId: 'T001', reason: 'done in the source file', cause: 'plan' },
      { type: 'step_skipped', stepId: 'T004', reason: 'skipped in the plan', cause: 'plan' },
    ]);
    assert.equal(old.steps['T001']?.skipCause, 'source');
    assert.equal(old.steps['T004']?.skipCause, 'plan');
    assert.equal(skipCauseOf('done in the source file'), 'source');
    // A reason that only looks like one is no claim of a cause it does not give.
    const other = stateOf([{ type: 'run_started', plan }, { type: 'step_skipped', stepId: 'T001', reason: 'done in the source file', cause: 'dependency' }]);
    assert.equal(other.steps['T001']?.skipCause, 'dependency');
  });
});
