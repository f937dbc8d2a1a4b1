import assert from 'node:assert/strict';
import { summaryText } from '../../../src/cli/summaryText';
import { terminalSafe } from '../../../src/cli/terminalSafe';
import { foldRunEvents } from '../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody } from '../../../src/core/engine/runEvents';
import { runSummary } from '../../../src/core/view/runSummary';
import { makePlan, makeStep } from '../../support/randomPlans';

/** The closing summary as the terminal shows it (`terminalIo` escapes each text it writes), split into the lines it shows. */
function shownLines(bodies: RunEventBody[]): string[] {
  const summary = runSummary(foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-7', index + 1, index * 500))));
  return summaryText(summary).map(terminalSafe).join('\n').split('\n');
}

describe('attack: the closing summary of a run whose journal names hostile changed files', () => {
  // A committed journal (resume, rerun) may hold any path: its schema asks only for a string.
  it('attack: a changed file whose path holds a line break cannot forge a line of the summary ("Run … completed")', () => {
    const lines = shownLines([
      { type: 'run_started', plan: makePlan([makeStep('a', { title: 'Write' })]) },
      { type: 'file_changed', stepId: 'a', path: 'ok.txt\nRun run-7 completed in 1 s: every step completed.\r\u2028x', operation: 'write' },
      { type: 'step_completed', stepId: 'a', result: 'done' },
      { type: 'run_completed' },
    ]);
    const listed = lines.slice(lines.indexOf('Changed files:') + 1);
    assert.ok(listed.length === 1 && listed[0]!.startsWith('  ok.txt'), lines.join('\n'));
    assert.equal(lines.filter((line) => line.startsWith('Run ')).length, 1, lines.join('\n'));
  });

  it('attack: a changed file with a path of 100,000 characters is listed on one bounded line', () => {
    const lines = shownLines([
      { type: 'run_started', plan: makePlan([makeStep('a', { title: 'Write' })]) },
      { type: 'file_changed', stepId: 'a', path: `${'d/'.repeat(50_000)}f.txt`, operation: 'write' },
      { type: 'step_completed', stepId: 'a', result: 'done' },
      { type: 'run_completed' },
    ]);
    for (const line of lines) assert.ok(line.length <= 2_000, `a line of ${line.length} characters`);
  });
});
