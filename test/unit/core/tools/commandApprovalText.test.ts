import assert from 'node:assert/strict';
import { commandApprovalText, describeChangedInRun } from '../../../../src/core/tools/commandApprovalText';

describe('the editor\'s question before a command runs', () => {
  it('names the step and shows the command, its folder and whether a shell runs it', () => {
    assert.deepEqual(commandApprovalText({ title: 'Run the tests', argv: ['npm', 'test'], cwd: 'app', shell: false }), {
      message: 'Step "Run the tests" wants to run a command.',
      detail: 'Command: npm test\nWorking directory: app',
    });
    assert.equal(
      commandApprovalText({ title: 'Clean', argv: ['sh', '-c', 'rm -rf build'], cwd: '', shell: true }).detail,
      'Command: sh -c "rm -rf build"\nWorking directory: the workspace folder\nRuns through a shell.',
    );
  });

  it('keeps a word with a line break on the command\'s line, so it cannot forge the folder line or push the rest out of sight', () => {
    const { detail } = commandApprovalText({ title: 't', argv: ['sh', '-c', 'true\nWorking directory: /tmp/sandbox\n\n\n; rm -rf ~'], cwd: '', shell: false });
    assert.equal(detail.split('\n').length, 2);
    assert.equal(detail.split('\n')[0], 'Command: sh -c "true\\nWorking directory: /tmp/sandbox\\n\\n\\n; rm -rf ~"');
  });

  it('shows text-direction controls and other controls as escapes instead of letting them reorder the command', () => {
    const { detail } = commandApprovalText({ title: 't', argv: ['rm', '-rf', '~ #\u202egol.tset'], cwd: 'a\u202eb', shell: false });
    assert.equal(detail, 'Command: rm -rf "~ #\\u202egol.tset"\nWorking directory: "a\\u202eb"');
    assert.match(commandApprovalText({ title: 't', argv: ['printf', '\u001b[2J'], cwd: '', shell: false }).detail, /"\\u001b\[2J"/);
  });

  it('puts a step title with line breaks on the message\'s one line', () => {
    const { message } = commandApprovalText({ title: 'Tests" wants to run a command.\n\nCommand: npm test\n\n', argv: ['sh'], cwd: '', shell: false });
    assert.equal(message, 'Step "Tests" wants to run a command. Command: npm test" wants to run a command.');
  });

  it('names, on one line, the files this run changed that decide what the command runs, and the steps that changed them', () => {
    const changedInRun = [{ path: 'package.json', stepIds: ['S1'] }, { path: 'sub/.npmrc', stepIds: ['S1', 'S2'] }];
    assert.equal(
      commandApprovalText({ title: 't', argv: ['npm', 'test'], cwd: '', shell: false, changedInRun }).detail,
      'Command: npm test\nWorking directory: the workspace folder\nThis run changed package.json (by step S1), sub/.npmrc (by steps S1, S2), which the command reads to decide what it runs: allow rules do not apply. Run it only if that change is one you expect.',
    );
  });

  it('shows a changed file\'s name with its controls escaped, and at most five files', () => {
    assert.equal(describeChangedInRun([{ path: 'Make\nfile\u202e', stepIds: ['S1'] }]), '"Make\\nfile\\u202e" (by step S1)');
    const many = Array.from({ length: 7 }, (_, index) => ({ path: `f${index}`, stepIds: ['S'] }));
    assert.equal(describeChangedInRun(many), 'f0 (by step S), f1 (by step S), f2 (by step S), f3 (by step S), f4 (by step S) and 2 more files');
    assert.equal(describeChangedInRun(many.slice(0, 6)), 'f0 (by step S), f1 (by step S), f2 (by step S), f3 (by step S), f4 (by step S) and 1 more file');
  });

  it('says on one line why a command asks although a rule nearly allowed it (the trial: git status --output=x asked with no word of why)', () => {
    const { detail } = commandApprovalText({
      title: 'Status',
      argv: ['git', 'status', '--output=x'],
      cwd: '',
      shell: false,
      notAllowedBecause: 'the rule "git status" does not cover --output=x, which comes after the words the rule allows exactly\n(forged line)',
    });
    const lines = detail.split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[2], 'Asks although you have a rule: the rule "git status" does not cover --output=x, which comes after the words the rule allows exactly (forged line).');
  });
});
