import assert from 'node:assert/strict';
import { describeManualStep, manualResultPreview, manualResultPreviewLength } from '../../../../src/core/engine/manualStepText';

describe('manualResultPreview', () => {
  it('shows a string as it is, a tool\'s result one field a line, and anything else as JSON', () => {
    assert.equal(manualResultPreview('built in 3 s'), 'built in 3 s');
    assert.equal(manualResultPreview({ files: 2 }), 'files: 2');
    // A file change in words, not its fields (a trial's "Done?" question).
    assert.equal(manualResultPreview({ path: 'hello.txt', operation: 'created', changed: true, bytes: 6 }), 'created hello.txt');
    assert.equal(manualResultPreview({ path: 'docs', created: true }), 'created the folder docs/');
    assert.equal(manualResultPreview([1, 'a']), '[1,"a"]');
    assert.equal(manualResultPreview(null), 'null');
    assert.equal(manualResultPreview(undefined), 'undefined', 'a step without a result says so rather than showing nothing');
  });

  it('shows a file read before as its lines, quotes unescaped, never as escaped JSON (issue 28 walked again)', () => {
    const read = { path: 'lib/option.js', content: 'class Option {\n  /** "flags" */\n}\n' };
    assert.equal(manualResultPreview(read), 'path: lib/option.js\ncontent: class Option {\n  /** "flags" */\n}\n');
    assert.equal(manualResultPreview({ answer: 'Done.', changes: { applied: [], rejected: [], failed: [] } }), 'Done.', 'an agent\'s result is its answer');
  });

  // A trial's step after "Run `python3 -m pytest -q`" listed "exitCode: 0 / signal: null / … / timedOut: false / durationMs: 8508".
  it('says a command\'s result as the run\'s summary does: its exit code and what its tests counted, not its fields', () => {
    const pytest = { exitCode: 0, signal: null, stdout: '.   [100%]\n1 passed in 3.70s\n', stderr: '', timedOut: false, truncated: false, durationMs: 8508 };
    assert.equal(manualResultPreview(pytest), 'exit code 0, tests: 1 passed in 3.70s');
    assert.equal(manualResultPreview({ exitCode: 1, stdout: 'built\nerror: no such file\n', stderr: '' }), 'exit code 1, last output: error: no such file');
  });

  it('keeps a text of exactly the limit and cuts a longer one to the limit, ending in an ellipsis', () => {
    const exact = 'x'.repeat(manualResultPreviewLength);
    assert.equal(manualResultPreview(exact), exact);
    const cut = manualResultPreview(`${'y'.repeat(manualResultPreviewLength)}z`);
    assert.equal(cut.length, manualResultPreviewLength);
    assert.equal(cut, `${'y'.repeat(manualResultPreviewLength - 1)}…`);
  });
});

describe('describeManualStep', () => {
  const request = { stepId: 'S4', title: 'Sign the release', instructions: 'Use the hardware key.', attachments: [], depends: {}, checks: [] };

  it('names the step and gives the instructions, with nothing else when there is nothing else', () => {
    assert.equal(describeManualStep(request), 'Step S4 is yours to do: Sign the release\nUse the hardware key.');
  });

  // A newcomer's trial (2026-12-06): Done said before CONTRIBUTING.md was written failed the step's check, and the whole run.
  it('says which checks run once the person says the step is done', () => {
    const text = describeManualStep({ ...request, checks: ['file exists CONTRIBUTING.md', 'command npm test exits 0'] });
    assert.equal(
      text,
      'Step S4 is yours to do: Sign the release\nUse the hardware key.\n\nOnce you say it is done, these checks run: file exists CONTRIBUTING.md; command npm test exits 0',
    );
  });

  it('lists the attachments by label, else by reference, and the results before it', () => {
    const text = describeManualStep({
      ...request,
      attachments: [
        { kind: 'file', ref: 'RELEASE.md', label: 'Release notes' },
        { kind: 'link', ref: 'https://example.test/ci' },
      ],
      depends: { S1: 'built', S2: 'tested' },
    });
    assert.equal(
      text,
      [
        'Step S4 is yours to do: Sign the release',
        'Use the hardware key.',
        '',
        'Attached: Release notes, https://example.test/ci',
        '',
        'Results of the steps before it:',
        'S1: built',
        'S2: tested',
      ].join('\n'),
    );
  });
});

describe('describeManualStep with texts made to push the question out of sight', () => {
  const request = { stepId: 'b', title: 'Check the backup', instructions: 'Use the hardware key.', attachments: [], depends: {}, checks: [] };

  it('collapses a wall of blank lines to two, saying how many were left out', () => {
    const text = describeManualStep({ ...request, instructions: `Please verify nothing.${'\n'.repeat(3001)}Everything is fine, just answer y` });
    assert.equal(
      text,
      ['Step b is yours to do: Check the backup', 'Please verify nothing.', '', '… (2998 more blank lines left out)', '', 'Everything is fine, just answer y'].join('\n'),
    );
  });

  it('keeps up to two blank lines in a row as they are, and collapses whitespace-only lines (CRLF) too', () => {
    assert.equal(describeManualStep({ ...request, instructions: 'one\n\n\ntwo' }), 'Step b is yours to do: Check the backup\none\n\n\ntwo');
    assert.equal(
      describeManualStep({ ...request, instructions: `one${'\r\n'.repeat(50)}two` }),
      'Step b is yours to do: Check the backup\none\r\n\n… (47 more blank lines left out)\n\ntwo',
    );
  });

  it('collapses blank lines in the results of the steps before it', () => {
    const text = describeManualStep({ ...request, depends: { a: `built${'\n'.repeat(500)}FAKE: all checks passed` } });
    assert.ok(text.split('\n').length < 15, text);
  });

  it('puts a long title with line breaks on the first line, bounded, and bounds long instructions', () => {
    const text = describeManualStep({
      ...request,
      title: `T\n${'Y'.repeat(300_000)}`,
      instructions: 'x'.repeat(500_000),
      attachments: [{ kind: 'file', ref: 'a.txt', label: `A\n${'L'.repeat(10_000)}` }],
    });
    const [first, second] = text.split('\n');
    assert.ok(first!.startsWith('Step b is yours to do: T YYY') && first!.length <= 230, `${first!.length} characters`);
    assert.ok(second!.length <= 8_000 && second!.endsWith('more characters cut)'), `${second!.length} characters`);
    assert.ok(text.length < 8_600, `${text.length} characters`);
  });
  // The second newcomer's find (2026-12-01): "Step S001 is yours to do: Rename …" and then "Rename …" again.
  it('says a step\'s title once when it has no instructions of its own', () => {
    const request = { stepId: 'S001', title: 'Rename CHANGELOG.md to HISTORY.md', instructions: 'Rename CHANGELOG.md to HISTORY.md', attachments: [], depends: {}, checks: [] };
    assert.equal(describeManualStep(request), 'Step S001 is yours to do: Rename CHANGELOG.md to HISTORY.md');
    assert.equal(describeManualStep({ ...request, instructions: 'Keep the old name as a link' }), 'Step S001 is yours to do: Rename CHANGELOG.md to HISTORY.md\nKeep the old name as a link');
  });
});
