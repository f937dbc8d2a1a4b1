import assert from 'node:assert/strict';
import { summaryText } from '../../../src/cli/summaryText';
import { foldRunEvents } from '../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody } from '../../../src/core/engine/runEvents';
import { runSummary, summaryLimits } from '../../../src/core/view/runSummary';
import { makePlan, makeStep } from '../../support/randomPlans';

const summaryOf = (bodies: RunEventBody[]) => runSummary(foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-7', index + 1, index * 500))));

describe('the command line\'s closing summary', () => {
  it('lists each step with what it produced, the failures with their diagnoses and the changed files', () => {
    const lines = summaryText(
      summaryOf([
        { type: 'run_started', plan: makePlan([makeStep('read', { title: 'Read' }), makeStep('check', { title: 'Check', dependsOn: ['read'] })]) },
        { type: 'step_completed', stepId: 'read', result: 'three lines\nof text' },
        { type: 'file_changed', stepId: 'read', path: 'out.txt', operation: 'write' },
        { type: 'verification_failed', stepId: 'check', attempt: 1, diagnosis: 'Expected 3 items,\ngot 0' },
        { type: 'step_failed', stepId: 'check', attempt: 1, error: 'Verification failed', disposition: 'fail' },
        { type: 'run_failed', reason: 'Critical step check failed.' },
      ]),
    );
    assert.deepEqual(lines, [
      'Run run-7 failed in 2.5 s: 1 of 2 steps completed, 1 failed; 1 file changed.',
      '  Reason: Critical step check failed.',
      'Steps:',
      '  ✔ read Read: three lines of text · changed out.txt',
      '  ✘ check Check: failed (see Failures)',
      'Failures:',
      '  check: Verification failed',
      '    diagnosis: Expected 3 items,\n      got 0',
      'Changed files:',
      '  out.txt',
    ]);
  });

  it('says how many steps, failures and files it left out', () => {
    const plan = makePlan(Array.from({ length: summaryLimits.steps + 5 }, (_, index) => makeStep(`s${index}`)));
    const bodies: RunEventBody[] = [{ type: 'run_started', plan }];
    for (const step of plan.steps) {
      bodies.push({ type: 'step_failed', stepId: step.id, attempt: 1, error: 'no', disposition: 'fail' });
      bodies.push({ type: 'file_changed', stepId: step.id, path: `${step.id}.txt`, operation: 'write' });
    }
    const lines = summaryText(summaryOf(bodies));
    assert.ok(lines.includes('  … and 5 more steps (see them all with --json)'));
    assert.ok(lines.includes(`  … and ${summaryLimits.steps + 5 - summaryLimits.failures} more failed steps (see them all with --json)`));
    assert.ok(lines.includes(`  … and ${summaryLimits.steps + 5 - summaryLimits.files} more`));
  });
});
