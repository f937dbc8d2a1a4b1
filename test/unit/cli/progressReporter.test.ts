import assert from 'node:assert/strict';
import { progressReporter } from '../../../src/cli/progressReporter';
import { describeApprovalForTerminal } from '../../../src/cli/terminalInteraction';
import { shortLine } from '../../../src/cli/shortLine';
import { summaryText } from '../../../src/cli/summaryText';
import { runSummary } from '../../../src/core/view/runSummary';
import { foldRunEvents } from '../../../src/core/engine/reduceRunEvent';
import type { RunEvent } from '../../../src/core/engine/runEvents';
import { reduceExecutionEvent } from '../../../src/core/replan/reduceExecutionEvent';
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

  it("say a long step's percentage at each new tenth only, with what it is of; a line without one prints nothing", () => {
    const lines: string[] = [];
    const report = progressReporter(makePlan([makeStep('T1', { title: 'Run the tests' })]), (line) => lines.push(line));
    const progress = (seq: number, message: string, percent?: number) =>
      report({ type: 'step_progress', stepId: 'T1', message, ...(percent === undefined ? {} : { percent }), time: seq, runId: 'r1', seq });
    progress(1, 'running pytest -q');
    [3, 8, 12, 15, 47, 49, 100].forEach((percent, index) => progress(index + 2, 'running pytest -q', percent));
    assert.deepEqual(lines, [
      '[0/1] … T1 Run the tests: 3% · running pytest -q',
      '[0/1] … T1 Run the tests: 12% · running pytest -q',
      '[0/1] … T1 Run the tests: 47% · running pytest -q',
      '[0/1] … T1 Run the tests: 100% · running pytest -q',
    ]);
    report({ type: 'step_started', stepId: 'T1', attempt: 2, time: 20, runId: 'r1', seq: 20 });
    progress(21, 'running pytest -q', 5);
    assert.equal(lines.at(-1), '[0/1] … T1 Run the tests: 5% · running pytest -q', 'a new attempt starts counting again');
  });

  it('say a task ticked in its task file is done there, and a step the plan skips skipped in the plan, each once', () => {
    const lines: string[] = [];
    const plan = makePlan([makeStep('T001', { title: 'Create the project' }), makeStep('T002', { title: 'Add the model' })]);
    const report = progressReporter(plan, (line) => lines.push(line));
    report({ type: 'step_skipped', stepId: 'T001', reason: 'done in the source file', cause: 'source', time: 1, runId: 'r1', seq: 1 });
    report({ type: 'step_skipped', stepId: 'T002', reason: 'skipped in the plan', cause: 'plan', time: 1, runId: 'r1', seq: 2 });
    assert.deepEqual(lines.map((line) => line.replace(/^\[\d+\/\d+\] /, '')), ['↷ T001 Create the project done in the source file', '↷ T002 Add the model skipped in the plan']);
  });

  it('show the objective on the run\'s one line', () => {
    const lines: string[] = [];
    const plan = { ...makePlan([makeStep('S001')]), objective: 'Tidy up\nRun r1 completed.' };
    const report = progressReporter(plan, (line) => lines.push(line));
    report({ type: 'run_started', plan, time: 0, runId: 'r1', seq: 1 });
    assert.deepEqual(lines, ['Run r1: 1 step. Tidy up Run r1 completed.']);
  });

  it('bound a 300,000-character title and a 500,000-character objective with 5,000 line breaks, and every reason and warning, to one short line each', () => {
    const lines: string[] = [];
    const title = `T${'\n'.repeat(3000)}${'Y'.repeat(300_000)}`;
    const plan = { ...makePlan([makeStep('a', { title: `Build ${'Y'.repeat(300_000)}` }), makeStep('b', { title })]), objective: `big${'\n'.repeat(5000)}${'x'.repeat(500_000)}` };
    const report = progressReporter(plan, (line) => lines.push(line));
    const huge = `because${'\n'.repeat(5000)}${'z '.repeat(100_000)}`;
    report({ type: 'run_started', plan, time: 0, runId: 'r1', seq: 1 });
    report({ type: 'step_started', stepId: 'a', attempt: 1, time: 1, runId: 'r1', seq: 2 });
    report({ type: 'step_warning', stepId: 'a', message: huge, time: 2, runId: 'r1', seq: 3 });
    report({ type: 'step_skipped', stepId: 'b', reason: huge, time: 3, runId: 'r1', seq: 4 });
    report({ type: 'step_skipped', stepId: 'b', reason: `Rejected by the user: ${huge}`, cause: 'rejected', time: 3, runId: 'r1', seq: 5 });
    report({ type: 'run_resumed', supplied: {}, journalWarning: huge, time: 4, runId: 'r1', seq: 6 });
    assert.equal(lines.length, 6);
    for (const line of lines) assert.ok(line.length <= 500 && !line.includes('\n'), `${line.length} characters: ${line.slice(0, 80)}`);
    assert.ok(lines[0]!.startsWith('Run r1: 2 steps. big'), lines[0]);
    assert.ok(lines[1]!.startsWith('[0/2] ▶ a Build YYY'), lines[1]);
  });
});

describe('the end of a cancelled or interrupted run on the terminal', () => {
  it('is said once, by the closing summary when one follows (a Ctrl+C read "cancelled: Interrupted (Ctrl+C)" twice)', () => {
    const lines: string[] = [];
    const plan = makePlan([makeStep('a')]);
    const report = progressReporter(plan, (line) => lines.push(line), 0, true);
    report({ type: 'run_cancelled', reason: 'Interrupted (Ctrl+C).', time: 1, runId: 'r1', seq: 1 });
    report({ type: 'run_cancelled', reason: 'Its terminal was closed (SIGHUP)', interrupted: true, time: 1, runId: 'r2', seq: 1 });
    // With the closing summary to follow, a run that ended is not announced here too.
    report({ type: 'run_completed', time: 2, runId: 'r3', seq: 1 });
    report({ type: 'run_failed', reason: 'boom', time: 2, runId: 'r4', seq: 1 });
    assert.deepEqual(lines, []);
    // The closing summary says it, once: its headline how the run ended, its reason why.
    const summary = summaryText(
      runSummary(foldRunEvents([{ type: 'run_started', plan, time: 0, runId: 'r1', seq: 1 }, { type: 'run_cancelled', reason: 'Interrupted (Ctrl+C).', time: 1, runId: 'r1', seq: 2 }])),
    ).join('\n');
    assert.equal(summary.split('Interrupted (Ctrl+C)').length, 2, summary);
  });

  it('ends its reason once, as a sentence ("cancelled (Interrupted (Ctrl+C).)." doubled the brackets and stops)', () => {
    const lines: string[] = [];
    const report = progressReporter(makePlan([makeStep('a')]), (line) => lines.push(line), 0, false, ' --workspace /w');
    report({ type: 'run_cancelled', reason: 'Its terminal was closed (SIGHUP)', interrupted: true, time: 1, runId: 'r2', seq: 1 });
    assert.deepEqual(lines, ['Run r2 interrupted: Its terminal was closed (SIGHUP). Resume it with: task-planner resume r2 --workspace /w']);
  });

  it('with --json (no closing summary) says the resume to paste, with the workspace and the model given', () => {
    const lines: string[] = [];
    const report = progressReporter(makePlan([makeStep('a')]), (line) => lines.push(line), 0, false, " --workspace '/tmp/my ws' --model m");
    report({ type: 'run_cancelled', reason: 'Interrupted (Ctrl+C).', time: 1, runId: 'r1', seq: 1 });
    assert.deepEqual(lines, ["Run r1 cancelled: Interrupted (Ctrl+C). Resume it with: task-planner resume r1 --workspace '/tmp/my ws' --model m"]);
  });
});

describe('a failure\'s output on the terminal (issue 28 item 12)', () => {
  const output = `Command pytest exited with code 1.\n${Array.from({ length: 30 }, (_, index) => `toolz/tests/test_functoolz.py::test_${index} FAILED assert 4 == 3`).join('\n')}`;

  it('is printed once: progress and the run\'s end give its first line, the closing summary the whole', () => {
    const lines: string[] = [];
    const plan = makePlan([makeStep('T1', { title: 'Run the tests' })]);
    const report = progressReporter(plan, (line) => lines.push(line), 0, true);
    const events: RunEvent[] = [
      { type: 'step_failed', stepId: 'T1', attempt: 1, error: output, disposition: 'retry', retryInMs: 2500, time: 0, runId: 'r1', seq: 2 },
      { type: 'verification_failed', stepId: 'T1', attempt: 2, diagnosis: output, time: 0, runId: 'r1', seq: 3 },
      { type: 'step_failed', stepId: 'T1', attempt: 2, error: output, disposition: 'fail', time: 0, runId: 'r1', seq: 4 },
      { type: 'run_failed', reason: `Critical step T1 failed: ${output}`, time: 0, runId: 'r1', seq: 5 },
    ];
    for (const event of events) report(event);
    // Only the failure that ended the step is promised under Failures: an attempt retried may end with the step done.
    assert.deepEqual(lines, [
      '[0/1] ✘ T1 Run the tests: Command pytest exited with code 1. (shortened) (retrying in 2.5 s)',
      '[0/1] ≠ T1 Run the tests failed verification: Command pytest exited with code 1. (shortened)',
      '[1/1] ✘ T1 Run the tests: Command pytest exited with code 1. (in full under Failures at the end)',
    ]);
    // The closing summary as the CLI makes it, from the run's journal.
    const summary = summaryText(runSummary(foldRunEvents([{ type: 'run_started', plan, time: 0, runId: 'r1', seq: 1 }, ...events]))).join('\n');
    assert.equal(summary.split('test_7 FAILED').length, 2, 'the output is printed more than once');
    // The reason names the step; its failure is under Failures.
    assert.match(summary, /^ {2}Reason: Critical step T1 failed\.$/m);
    assert.match(summary, /^ {2}✘ T1 Run the tests: failed \(see Failures\)$/m);
  });

  it('is promised under Failures only where a closing summary follows (not with --json)', () => {
    const lines: string[] = [];
    const report = progressReporter(makePlan([makeStep('T1')]), (line) => lines.push(line));
    report({ type: 'step_failed', stepId: 'T1', attempt: 1, error: output, disposition: 'fail', time: 0, runId: 'r1', seq: 2 });
    assert.deepEqual(lines, ['[1/1] ✘ T1 Step T1: Command pytest exited with code 1. (shortened)']);
  });

  it('of a step a repair plan replaced is printed under Failures, as its progress line promised (a trial: no Failures followed)', () => {
    const lines: string[] = [];
    const plan = makePlan([makeStep('T1', { title: 'Run the tests' })]);
    const repair = { ...makePlan([makeStep('T2', { title: 'Fix and test again' })]), version: 2 };
    const report = progressReporter(plan, (line) => lines.push(line), 0, true);
    const failed: RunEvent = { type: 'step_failed', stepId: 'T1', attempt: 1, error: output, disposition: 'fail', replan: true, time: 0, runId: 'r1', seq: 2 };
    report(failed);
    assert.match(lines[0]!, /\(in full under Failures at the end\)$/);
    let state = reduceExecutionEvent(undefined, { type: 'run_started', plan, time: 0, runId: 'r1', seq: 1 });
    for (const event of [
      failed,
      { type: 'replan_completed', plan: repair, time: 1, runId: 'r1', seq: 3 },
      { type: 'run_started', plan: repair, time: 2, runId: 'r1-replan-1', seq: 1 },
      { type: 'step_started', stepId: 'T2', attempt: 1, time: 2, runId: 'r1-replan-1', seq: 2 },
      { type: 'step_completed', stepId: 'T2', result: 'ok', time: 3, runId: 'r1-replan-1', seq: 3 },
      { type: 'run_completed', time: 4, runId: 'r1-replan-1', seq: 4 },
    ] as RunEvent[]) {
      state = reduceExecutionEvent(state, event);
    }
    const summary = summaryText(runSummary(state, { replanCount: 1 }));
    const at = summary.indexOf('Failures:');
    assert.ok(at > 0, summary.join('\n'));
    assert.ok(summary[at + 1]!.startsWith('  T1 (replaced by a repair plan): Command pytest exited with code 1.\n'), summary[at + 1]);
    assert.equal(summary.join('\n').split('test_7 FAILED').length, 2, 'its output once');
  });

  it("of a failed check shows the end of the command's output, where it says why, not its npm banner", () => {
    const diagnosis =
      'Check 1 (command `npm test`) failed: exit code 1, expected 0; last output: > tiny-notes@0.3.0 test\n> node --test\n\n' +
      `${Array.from({ length: 12 }, (_, index) => `✔ keeps note ${index} (0.4ms)`).join('\n')}\n✖ adds a note\n  AssertionError: expected 3 to equal 4\n# tests 3\n# pass 2\n# fail 1`;
    const lines: string[] = [];
    const report = progressReporter(makePlan([makeStep('T1')]), (line) => lines.push(line), 0, true);
    report({ type: 'verification_failed', stepId: 'T1', attempt: 1, diagnosis, time: 0, runId: 'r1', seq: 2 });
    report({ type: 'step_failed', stepId: 'T1', attempt: 1, error: diagnosis, disposition: 'fail', time: 0, runId: 'r1', seq: 3 });
    for (const line of lines) {
      assert.doesNotMatch(line, /tiny-notes@0\.3\.0/, line);
      assert.match(line, /last output: … .*AssertionError: expected 3 to equal 4 \| # tests 3 \| # pass 2 \| # fail 1 \(/, line);
      assert.ok(line.length <= 260, line);
    }
  });

  it('says a step\'s duration as the closing summary does ("in 2311 ms" beside "5.6 s" read as two units)', () => {
    const lines: string[] = [];
    const report = progressReporter(makePlan([makeStep('a'), makeStep('b')]), (line) => lines.push(line));
    report({ type: 'step_started', stepId: 'a', attempt: 1, time: 1000, runId: 'r1', seq: 1 });
    report({ type: 'step_completed', stepId: 'a', result: 'x', time: 3311, runId: 'r1', seq: 2 });
    report({ type: 'step_started', stepId: 'b', attempt: 1, time: 3311, runId: 'r1', seq: 3 });
    report({ type: 'step_completed', stepId: 'b', result: 'x', time: 3811, runId: 'r1', seq: 4 });
    assert.deepEqual(lines.filter((line) => line.includes('✔')), ['[1/2] ✔ a Step a in 2.3 s', '[2/2] ✔ b Step b in 500 ms']);
  });

  it('is cut between words when its first line is too long', () => {
    const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
    const cut = shortLine(words, 50);
    assert.ok(cut.endsWith('…') && cut.length <= 51, cut);
    assert.ok(words.startsWith(cut.slice(0, -1)) && words[cut.length - 1] === ' ', `cut inside a word: ${cut}`);
    assert.equal(shortLine(`/${'x'.repeat(90)}`, 50), `/${'x'.repeat(49)}…`, 'a long path is cut where the line ends');
    assert.equal(shortLine('one line'), 'one line');
    assert.equal(shortLine('first\nsecond', 160, '(more)'), 'first (more)');
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
      'Step S2 (Test) wants to run:\n  "make"\n  in .\n  this run changed Makefile (by step S1), which the command reads to decide what it runs: allow rules do not apply',
    );
  });
});
