import assert from 'node:assert/strict';
import { exitCodeOf } from '../../../src/cli/executeCliRun';
import { helpText } from '../../../src/cli/helpText';
import { progressReporter } from '../../../src/cli/progressReporter';
import { foldRunEvents } from '../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody } from '../../../src/core/engine/runEvents';
import type { RunResult } from '../../../src/core/engine/runOptions';
import { runStatuses } from '../../../src/shared/vocabulary';
import { makePlan, makeStep } from '../../support/randomPlans';

const resultWith = (status: RunResult['status']) => ({ status }) as RunResult;

describe('the command line\'s exit codes tell "every step done" from "finished with steps not done"', () => {
  it('exits 0 only when every step is done, 5 when the run went to its end with steps failed or skipped', () => {
    const codes = Object.fromEntries(runStatuses.filter((status) => status !== 'running').map((status) => [status, exitCodeOf(resultWith(status))]));
    assert.deepEqual(codes, { waiting: 3, completed: 0, partial: 5, failed: 1, cancelled: 4, interrupted: 4 });
  });

  it('documents every exit code in the help', () => {
    for (const code of [0, 1, 2, 3, 4, 5, 70]) assert.match(helpText, new RegExp(`^ {2}${code} `, 'm'), `exit code ${code}`);
    assert.match(helpText, /5 partial: the run went to its end, but steps failed/);
  });

  it('says at the end of the progress that not every step is done, never "completed"', () => {
    const plan = makePlan([makeStep('test', { onFailure: 'skip' }), makeStep('fix', { dependsOn: ['test'] })]);
    const bodies: RunEventBody[] = [
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'test', attempt: 1 },
      { type: 'step_failed', stepId: 'test', attempt: 1, error: 'exit 1', disposition: 'skip' },
      { type: 'step_skipped', stepId: 'fix', reason: 'dependency test was skipped', cause: 'dependency' },
      { type: 'run_completed' },
    ];
    const events = bodies.map((body, index) => stampEvent(body, 'r1', index + 1, index));
    const lines: string[] = [];
    const report = progressReporter(plan, (line) => lines.push(line));
    for (const [index, event] of events.entries()) report(event, foldRunEvents(events.slice(0, index + 1)));
    assert.equal(lines.at(-1), 'Run r1 finished, not every step done: Step test failed; step fix was skipped.');
    assert.doesNotMatch(lines.join('\n'), /completed/);
  });
});
