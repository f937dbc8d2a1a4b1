import assert from 'node:assert/strict';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent, type RunEventBody, type RunState } from '../../../../src/core/engine/runEvents';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { chatSummaryMarkdown } from '../../../../src/core/view/chatMarkdown';
import { runSummary, summaryLimits } from '../../../../src/core/view/runSummary';
import { summaryText } from '../../../../src/cli/summaryText';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** The state after `bodies`, one second apart from t = 1000 s. */
function stateOf(bodies: RunEventBody[]): RunState {
  return foldRunEvents(bodies.map((body, index) => stampEvent(body, 'run-1', index + 1, 1_000_000 + index * 1000)));
}

// Issue 28 item 11: the summary said nothing of the checks, so a step that passed its tests read like one that had none.
describe('runSummary: how each step\'s checks and verification ended', () => {
  const plan = makePlan([
    makeStep('add', {
      title: 'Add the flag',
      checks: [
        { kind: 'file_exists', path: 'src/cli.js' },
        { kind: 'command', argv: ['npm', 'test'] },
      ],
      maxAttempts: 2,
      onVerificationFailure: 'retry',
    }),
    makeStep('docs', { title: 'Document it', verification: 'result.answer.includes("flag")', dependsOn: ['add'] }),
    makeStep('plain', { title: 'Nothing to check', dependsOn: ['docs'] }),
  ]);
  const state = stateOf([
    { type: 'run_started', plan },
    { type: 'step_started', stepId: 'add', attempt: 1 },
    {
      type: 'checks_evaluated',
      stepId: 'add',
      attempt: 1,
      checks: [
        { kind: 'file_exists', passed: true, detail: 'src/cli.js exists' },
        { kind: 'command', passed: false, detail: 'exit code 1: 1 test failed' },
      ],
    },
    { type: 'verification_failed', stepId: 'add', attempt: 1, diagnosis: 'check 2 failed: exit code 1' },
    { type: 'step_failed', stepId: 'add', attempt: 1, error: 'verification failed', disposition: 'retry', retryInMs: 0 },
    { type: 'step_started', stepId: 'add', attempt: 2 },
    {
      type: 'checks_evaluated',
      stepId: 'add',
      attempt: 2,
      checks: [
        { kind: 'file_exists', passed: true, detail: 'src/cli.js exists' },
        { kind: 'command', passed: true, detail: 'exit code 0' },
      ],
    },
    { type: 'step_completed', stepId: 'add', result: 'added' },
    { type: 'step_started', stepId: 'docs', attempt: 1 },
    { type: 'verification_failed', stepId: 'docs', attempt: 1, diagnosis: 'the predicate was false' },
    { type: 'step_failed', stepId: 'docs', attempt: 1, error: 'verification failed', disposition: 'fail' },
    { type: 'run_failed', reason: 'Step docs failed.' },
  ]);

  it('names each check passed or failed, with what a failed one found, after the last attempt that ran them', () => {
    const summary = runSummary(state);
    assert.equal(summary.steps[0]?.checks, 'passed: file exists src/cli.js; passed: command npm test exits 0');
    assert.equal(summary.steps[1]?.checks, 'failed: verification result.answer.includes("flag") (the predicate was false)');
    assert.equal(summary.steps[2]?.checks, undefined, 'a step with nothing to check says nothing of checks');
    const failing = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('add', { checks: plan.steps[0]?.checks ?? [], verification: 'true' })]) },
      { type: 'step_started', stepId: 'add', attempt: 1 },
      {
        type: 'checks_evaluated',
        stepId: 'add',
        attempt: 1,
        checks: [
          { kind: 'file_exists', passed: true, detail: 'src/cli.js exists' },
          { kind: 'command', passed: false, detail: `exit code 1: ${'x'.repeat(2_000)}` },
        ],
      },
      { type: 'verification_failed', stepId: 'add', attempt: 1, diagnosis: 'check 2 failed' },
      { type: 'step_failed', stepId: 'add', attempt: 1, error: 'verification failed', disposition: 'fail' },
      { type: 'run_failed', reason: 'Step add failed.' },
    ]);
    const line = runSummary(failing).steps[0]?.checks ?? '';
    assert.match(line, /^passed: file exists src\/cli\.js; failed: command npm test exits 0 \(exit code 1: x+/);
    assert.doesNotMatch(line, /verification/, 'the predicate that never ran (a check failed first) is not said to have failed');
    assert.ok(line.length <= summaryLimits.checks, `${line.length} characters`);
  });

  it('the predicate of a completed step passed', () => {
    const done = stateOf([
      { type: 'run_started', plan: makePlan([makeStep('docs', { verification: 'true' })]) },
      { type: 'step_started', stepId: 'docs', attempt: 1 },
      { type: 'step_completed', stepId: 'docs', result: 'ok' },
      { type: 'run_completed' },
    ]);
    assert.equal(runSummary(done).steps[0]?.checks, 'passed: verification true');
  });

  it('the panel, the chat and the command line show them under the step', () => {
    const summary = runSummary(state);
    assert.match(summaryText(summary).join('\n'), /^ {2}✔ add Add the flag: after 2 attempts: added(?:\n.*)?\n {6}checks: passed: file exists src\/cli\.js; passed: command npm test exits 0$/m);
    assert.match(chatSummaryMarkdown(summary), /Add the flag — .*\n {2}- checks: passed\\: file exists src\\\/cli\\\.js; passed\\: command npm test exits 0\n/);
    const body = buildPanelViewModel(undefined, { state, now: 2_000_000 });
    assert.ok(body.mode === 'run');
    assert.equal(body.run.summary?.stepLines[1]?.checks, 'failed: verification result.answer.includes("flag") (the predicate was false)');
  });

  it('a failed test run\'s output is said once, under the failures: the step\'s line and its checks say only what failed (a trial read it three times)', () => {
    const output = `exit code 1, expected 0; last output:\n${Array.from({ length: 12 }, (_, index) => `test_${index} FAILED assert 4 == 3`).join('\n')}`;
    const diagnosis = `Check 2 (command \`npm test\`) failed: ${output}`;
    const failing = stateOf([
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'add', attempt: 1 },
      {
        type: 'checks_evaluated',
        stepId: 'add',
        attempt: 1,
        checks: [{ kind: 'file_exists', passed: true, detail: 'src/cli.js exists' }, { kind: 'command', passed: false, detail: output }],
      },
      { type: 'verification_failed', stepId: 'add', attempt: 1, diagnosis },
      { type: 'step_failed', stepId: 'add', attempt: 1, error: diagnosis, disposition: 'fail' },
      { type: 'run_failed', reason: 'Step add failed.' },
    ]);
    const summary = runSummary(failing);
    assert.equal(summary.steps[0]?.line, 'failed (see Failures)');
    assert.equal(summary.steps[0]?.checks, 'passed: file exists src/cli.js; failed: command npm test exits 0');
    assert.equal(summary.failures[0]?.error, diagnosis);
    const cli = summaryText(summary).join('\n');
    assert.equal(cli.match(/_7 FAILED/g)?.length, 1, cli);
    const panel = buildPanelViewModel(undefined, { state: failing, now: 2_000_000 });
    assert.ok(panel.mode === 'run');
    assert.doesNotMatch(JSON.stringify(panel.run.summary?.stepLines), /FAILED/, 'the panel\'s step lines leave it to its failures');
    // The chat gives a failure's first line only, under the steps.
    assert.match(chatSummaryMarkdown(summary), /Add the flag — failed \\\(see Failures\\\)\n[^]*\*\*Add the flag\*\* failed: Check 2/);
    // A short failure stays on the step's line, and its check says what it found.
    const short = runSummary(stateOf([
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'add', attempt: 1 },
      { type: 'checks_evaluated', stepId: 'add', attempt: 1, checks: [{ kind: 'file_exists', passed: false, detail: 'no src/cli.js' }] },
      { type: 'step_failed', stepId: 'add', attempt: 1, error: 'Check 1 failed: no src/cli.js', disposition: 'fail' },
      { type: 'run_failed', reason: 'Step add failed.' },
    ]));
    assert.equal(short.steps[0]?.line, 'failed: Check 1 failed: no src/cli.js');
    assert.equal(short.steps[0]?.checks, 'failed: file exists src/cli.js (no src/cli.js)');
  });
});

// A newcomer's trial: "last output: > tiny-notes@0.3.0 test", the npm banner, said nothing of why the tests failed.
describe('runSummary: a failed command check is shown by the end of its output', () => {
  const passed = Array.from({ length: 12 }, (_, index) => `✔ keeps note ${index} (0.4ms)`).join('\n');
  const output = `> tiny-notes@0.3.0 test\n> node --test\n\n${passed}\n✖ adds a note\n  AssertionError: expected 3 to equal 4\n# tests 3\n# pass 2\n# fail 1`;
  const diagnosis = `Check 1 (command \`npm test\`) failed: exit code 1, expected 0; last output: ${output}`;
  const plan = makePlan([makeStep('test', { title: 'Run the tests', checks: [{ kind: 'command', argv: ['npm', 'test'] }], maxAttempts: 2 })]);
  const state = stateOf([
    { type: 'run_started', plan },
    { type: 'step_started', stepId: 'test', attempt: 1 },
    { type: 'checks_evaluated', stepId: 'test', attempt: 1, checks: [{ kind: 'command', passed: false, detail: `exit code 1, expected 0; last output: ${output}` }] },
    { type: 'verification_failed', stepId: 'test', attempt: 1, diagnosis },
    { type: 'step_failed', stepId: 'test', attempt: 1, error: diagnosis, disposition: 'retry', retryInMs: 0 },
    { type: 'step_started', stepId: 'test', attempt: 2 },
    { type: 'checks_evaluated', stepId: 'test', attempt: 2, checks: [{ kind: 'command', passed: true, detail: 'exit code 0' }] },
    { type: 'step_completed', stepId: 'test', result: 'ok' },
    { type: 'run_completed' },
  ]);

  it('in the line saying why an earlier attempt failed, in the CLI and the panel alike', () => {
    const earlier = runSummary(state).steps[0]?.earlier ?? '';
    assert.doesNotMatch(earlier, /tiny-notes/, earlier);
    assert.match(earlier, /^attempt 1 failed: Check 1 .*last output: … .*# fail 1$/, earlier);
    assert.ok(earlier.length <= summaryLimits.line, earlier);
    assert.ok(summaryText(runSummary(state)).includes(`      ${earlier}`));
    assert.ok(JSON.stringify(buildPanelViewModel(undefined, { state, now: 2_000_000 })).includes(JSON.stringify(earlier).slice(1, -1)));
  });
});
