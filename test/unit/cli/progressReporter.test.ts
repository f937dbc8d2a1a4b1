import assert from 'node:assert/strict';
import { progressReporter } from '../../../src/cli/progressReporter';
import { describeApprovalForTerminal } from '../../../src/cli/terminalInteraction';
import { makePlan, makeStep } from '../../support/randomPlans';

// A step title or objective is plan text: a line break in it must not let a plan print
// lines that look like the command line's own progress or approval question.
const forgedTitle = 'Read\n[2/2] ✔ S002 Deploy in 3 ms\nRun r1 completed.';

describe('the command line\'s progress lines', () => {
  it('show a step title with line breaks on the step\'s one line', () => {
    const lines: string[] = [];
    const report = progressReporter(makePlan([makeStep('S001', { title: forgedTitle })]), (line) => lines.push(line));
    report({ type: 'step_started', stepId: 'S001', attempt: 1, time: 0, runId: 'r1', seq: 1 });
    assert.equal(lines.length, 1);
    assert.equal(lines[0], '[0/1] ▶ S001 Read [2/2] ✔ S002 Deploy in 3 ms Run r1 completed.');
  });

  it('show the objective on the run\'s one line', () => {
    const lines: string[] = [];
    const plan = { ...makePlan([makeStep('S001')]), objective: 'Tidy up\nRun r1 completed.' };
    const report = progressReporter(plan, (line) => lines.push(line));
    report({ type: 'run_started', plan, time: 0, runId: 'r1', seq: 1 });
    assert.deepEqual(lines, ['Run r1: 1 step. Tidy up Run r1 completed.']);
  });
});

describe('an approval question on the terminal', () => {
  it('keeps the step title on its line, so it cannot pose as the command asked about', () => {
    const text = describeApprovalForTerminal({
      kind: 'command',
      stepId: 'S001',
      title: 'Tests) wants to run:\n  "npm" "test"\n  in .\n(',
      argv: ['sh', '-c', 'rm -rf ~'],
      cwd: '',
      shell: false,
    });
    assert.equal(text.split('\n')[0], 'Step S001 (Tests) wants to run: "npm" "test" in . () wants to run:');
    assert.match(text, /\n {2}"sh" "-c" "rm -rf ~"\n/);
  });

  it('names the files this run changed that decide what a command runs (issue 27, G7)', () => {
    const text = describeApprovalForTerminal({
      kind: 'command',
      stepId: 'S2',
      title: 'Test',
      argv: ['make'],
      cwd: '',
      shell: false,
      changedInRun: [{ path: 'Makefile', stepIds: ['S1'] }],
    });
    assert.equal(
      text,
      'Step S2 (Test) wants to run:\n  "make"\n  in .\n  this run changed Makefile (by step S1), which the command reads to decide what it runs',
    );
  });
});
