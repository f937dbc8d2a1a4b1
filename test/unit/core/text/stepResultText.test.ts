import assert from 'node:assert/strict';
import { commandOutputText, describedResult, shownResultText } from '../../../../src/core/text/stepResultText';
import { buildPanelViewModel } from '../../../../src/core/view/buildPanelViewModel';
import { foldRunEvents } from '../../../../src/core/engine/reduceRunEvent';
import { stampEvent } from '../../../../src/core/engine/runEvents';
import { makePlan, makeStep } from '../../../support/randomPlans';

// The second newcomer's finds (2026-12-01): "S001 Create a folder docs: path: docs, created: true" and "path: RELEASE,
// content: 0.4.0 , startLine: 1, endLine: 1, totalLines: 1, truncated: false" in the summary.
describe('describedResult', () => {
  it('says what a read read and whether a folder was made, not their fields', () => {
    assert.deepEqual(
      [
        { path: 'RELEASE', content: '0.4.0\n', startLine: 1, endLine: 1, totalLines: 1, truncated: false },
        { path: 'src/notes.js', content: 'a\nb\n', startLine: 1, endLine: 40, totalLines: 40, truncated: false },
        { path: 'src/notes.js', content: 'c\n', startLine: 3, endLine: 9, totalLines: 40, truncated: false },
        { path: 'docs', created: true },
        { path: 'docs', created: false },
      ].map((result) => describedResult(result, 160)),
      ['read RELEASE (1 line): 0.4.0', 'read src/notes.js (40 lines): a', 'read lines 3–9 of 40 of src/notes.js: c', 'created the folder docs/', 'found the folder docs/ already there'],
    );
  });

  it('leaves alone what only looks like them', () => {
    assert.deepEqual(
      [
        { path: 'docs', created: true, bytes: 3 },
        { path: 'a', content: 'x', startLine: '1', endLine: 1, totalLines: 1 },
        { path: 'a', content: 'x', startLine: 1, endLine: 1 },
        { path: 'a', content: 4, startLine: 1, endLine: 1, totalLines: 1 },
        { path: 7, created: true },
        'text',
        null,
      ].map((result) => describedResult(result, 160)),
      [undefined, undefined, undefined, undefined, undefined, undefined, undefined],
    );
  });

  it('says what a test run counted, not its last line (a newcomer read "last output: # duration_ms 41.2")', () => {
    const run = (stdout: string, exitCode = 0) => describedResult({ exitCode, stdout, stderr: '' }, 160);
    const tap = 'TAP version 13\n# Subtest: add\nok 1 - add\n1..3\n# tests 3\n# suites 0\n# pass 2\n# fail 1\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms 41.2\n';
    assert.equal(run(tap, 1), 'exit code 1, tests: 3 run, 2 passed, 1 failed');
    assert.equal(run('....\n========== 3 passed in 0.02s ==========\n'), 'exit code 0, tests: 3 passed in 0.02s');
    const mocha = `\n  adds\n    ✔ two numbers\n\n  2 passing (5ms)\n  1 failing\n\n  1) adds\n     AssertionError: expected 5 to equal 4\n${'      at stack\n'.repeat(40)}`;
    assert.equal(run(mocha, 1), 'exit code 1, tests: 2 passing (5ms); 1 failing');
    assert.equal(run('Test Suites: 1 passed, 1 total\nTests:       1 failed, 2 passed, 3 total\nSnapshots:   0 total\nTime:        0.5 s\nRan all test suites.\n', 1), 'exit code 1, tests: Tests: 1 failed, 2 passed, 3 total');
    assert.equal(run('running 3 tests\ntest result: ok. 3 passed; 0 failed; 0 ignored\n\n   Doc-tests x\n'), 'exit code 0, tests: test result: ok. 3 passed; 0 failed; 0 ignored');
  });

  it('keeps the last line of any other command, also one that only mentions counts inside a sentence', () => {
    const run = (stdout: string) => describedResult({ exitCode: 0, stdout, stderr: '' }, 160);
    assert.equal(run('building\nwrote dist/app.js\n'), 'exit code 0, last output: wrote dist/app.js');
    assert.equal(run('the 3 passed arguments were read\ndone\n'), 'exit code 0, last output: done');
    assert.equal(run('# pass 3\nno fail line\n'), 'exit code 0, last output: no fail line');
  });
});

// A trial (2026-12-07): a command that printed nothing showed "exitCode: 0 / signal: null / stdout: / stderr: / …" in the panel.
describe('commandOutputText', () => {
  const ran = (stdout: string, stderr = '', exitCode = 0) => ({ exitCode, signal: null, stdout, stderr, timedOut: false, truncated: false, durationMs: 152 });
  it('shows what a command printed, else its error output, else that it printed nothing, never its fields', () => {
    assert.equal(commandOutputText(ran('1 note\n')), '1 note');
    assert.equal(commandOutputText(ran('', 'warning: x\n', 2)), 'warning: x');
    assert.equal(commandOutputText(ran(' \n')), 'The command printed nothing (exit code 0).');
    assert.equal(commandOutputText({ path: 'a.txt', created: true }), undefined);
    const plan = makePlan([makeStep('S1', { kind: 'tool', tool: 'run_command', args: { argv: ['node', 'src/cli.js', 'list'] } })]);
    const state = foldRunEvents([
      { type: 'run_started', plan },
      { type: 'step_started', stepId: 'S1', attempt: 1 },
      { type: 'step_completed', stepId: 'S1', result: ran('') },
      { type: 'run_completed' },
    ].map((body, index) => stampEvent(body as Parameters<typeof stampEvent>[0], 'r', index + 1, index)));
    const panel = buildPanelViewModel(undefined, { state, now: 10 });
    assert.ok(panel.mode === 'run');
    assert.equal(panel.run.steps[0]?.resultPreview, 'The command printed nothing (exit code 0).');
  });
});

describe('shownResultText', () => {
  it('shows a file tool\'s result by what it did and a read by what it read with its text, not their fields (a trial)', () => {
    assert.equal(shownResultText({ path: 'a11y-notes.md', operation: 'created', changed: true, bytes: 16 }), 'created a11y-notes.md');
    assert.equal(shownResultText({ path: 'docs', created: true }), 'created the folder docs/');
    assert.equal(shownResultText({ path: 'README.md', content: '# tiny-notes\n\nA note keeper.\n', startLine: 1, endLine: 3, totalLines: 3, truncated: false }), 'read README.md (3 lines):\n# tiny-notes\n\nA note keeper.\n');
    assert.equal(shownResultText({ exitCode: 0, stdout: 'ok\n' }), 'ok');
    assert.equal(shownResultText({ matches: [] }), undefined);
    assert.equal(shownResultText('an answer'), undefined);
  });
});
