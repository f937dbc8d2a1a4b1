import assert from 'node:assert/strict';
import { describeApprovalForTerminal } from '../../../../src/cli/terminalInteraction';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { describeApproval } from '../../../../src/core/engine/stepInteraction';
import { commandApprovalText, describeCommandInput, shownInputLimits } from '../../../../src/core/tools/commandApprovalText';

const gitLfs = { name: 'git-lfs', path: '/ws/node_modules/.bin/git-lfs', shown: 'node_modules/.bin/git-lfs', from: 'nodeModules' } as const;

describe("the command question: the input it is given and the workspace's own helper", () => {
  it('attack: the editor\'s question shows the input "sh" is given, its size and lines (it showed only "sh")', () => {
    const { detail } = commandApprovalText({ title: 'Count', argv: ['sh'], cwd: '', shell: false, stdin: 'touch /tmp/STDIN_PWN; wc -l README.md\n' });
    assert.equal(
      detail,
      'Command: sh\nWorking directory: the workspace folder\nInput: 38 bytes in 1 line, given to the command on standard input:\n> touch /tmp/STDIN_PWN; wc -l README.md',
    );
  });

  it('attack: the terminal\'s question shows the input, the helper and why a rule does not answer it', () => {
    const request: ApprovalRequest = {
      kind: 'command',
      stepId: 's',
      title: 'Count',
      argv: ['sh'],
      cwd: '/ws',
      shell: false,
      stdin: 'touch /tmp/STDIN_PWN; wc -l README.md\n',
    };
    assert.equal(
      describeApprovalForTerminal(request),
      'Step s (Count) wants to run:\n  "sh"\n  in /ws\n  Input: 38 bytes in 1 line, given to the command on standard input:\n  > touch /tmp/STDIN_PWN; wc -l README.md',
    );
    const lfs: ApprovalRequest = { ...request, argv: ['git', 'lfs', 'pull'], stdin: undefined, helper: gitLfs, notAllowedBecause: 'the rule "git lfs pull" is for the git-lfs on PATH' };
    assert.equal(
      describeApprovalForTerminal(lfs),
      'Step s (Count) wants to run:\n  "git" "lfs" "pull"\n  in /ws\n' +
        "  helper: git-lfs (node_modules/.bin/git-lfs), which git runs for lfs, from the workspace's node_modules/.bin, not PATH\n" +
        '  asks although you have a rule: the rule "git lfs pull" is for the git-lfs on PATH',
    );
  });

  it('attack: the editor\'s question names the helper git runs from the workspace, and its file', () => {
    const { detail } = commandApprovalText({ title: 'Pull', argv: ['git', 'lfs', 'pull'], cwd: '', shell: false, helper: gitLfs });
    assert.equal(
      detail,
      "Command: git lfs pull\nWorking directory: the workspace folder\nHelper: git-lfs (node_modules/.bin/git-lfs), which git runs for lfs, from the workspace's node_modules/.bin, not PATH.",
    );
  });

  it('shows every control, tab, line separator and direction control of the input as an escape, and CR LF as a line break', () => {
    assert.deepEqual(describeCommandInput('a\r\nb\u001b[2J\t\u202eevil\u2028x\rc\u009b\ufeff'), [
      'Input: 27 bytes in 2 lines, given to the command on standard input:',
      '> a',
      '> b\\u001b[2J\\u0009\\u202eevil\\u2028x\\u000dc\\u009b\\ufeff',
    ]);
  });

  it('counts bytes, not characters, and an empty last line only when something follows the last line break', () => {
    assert.deepEqual(describeCommandInput('é'), ['Input: 2 bytes in 1 line, given to the command on standard input:', '> é']);
    assert.deepEqual(describeCommandInput('\n'), ['Input: 1 byte in 1 line, given to the command on standard input:', '> ']);
    assert.equal(describeCommandInput('a\n\nb')[0], 'Input: 4 bytes in 3 lines, given to the command on standard input:');
  });

  it('shows at most the first lines, each cut, and says what is not shown, whatever the input\'s size', () => {
    const long = 'x'.repeat(shownInputLimits.lineChars);
    assert.deepEqual(describeCommandInput(`${long}\n${long}y; rm -rf ~\n`), [
      'Input: 333 bytes in 2 lines, given to the command on standard input:',
      `> ${long}`,
      `> ${long.slice(1)}…`,
      '(Only part of the input is shown: long lines are cut. Read all of it in the plan before you allow it.)',
    ]);
    const shown = describeCommandInput(`${'echo ok\n'.repeat(7)}${'y'.repeat(1_000_000)}`);
    assert.equal(shown.length, 1 + shownInputLimits.lines + 1);
    assert.equal(shown[0], 'Input: 1000056 bytes in 8 lines, given to the command on standard input:');
    assert.equal(shown.at(-1), '(Only part of the input is shown: 3 more lines. Read all of it in the plan before you allow it.)');
    assert.ok(shown.every((line) => line.length <= shownInputLimits.lineChars + 120));
  });

  it('attack: a carriage return just past the shown part of a line does not hide the rest of the line', () => {
    const long = 'x'.repeat(shownInputLimits.lineChars);
    const [, line] = describeCommandInput(`${long}\r; rm -rf ~\n`);
    assert.equal(line, `> ${long.slice(1)}…`);
  });

  it('never cuts a character in two', () => {
    const [, line] = describeCommandInput(`${'x'.repeat(shownInputLimits.lineChars - 2)}😀😀`);
    assert.equal(line, `> ${'x'.repeat(shownInputLimits.lineChars - 2)}…`);
  });

  it("attack: the one-line question (the Plan tree's row, whose Approve answers it) names the input and the helper", () => {
    const request: ApprovalRequest = { kind: 'command', stepId: 's', title: 'Count', argv: ['sh'], cwd: '', shell: false, stdin: `touch /tmp/STDIN_PWN; wc -l README.md\u202e${'x'.repeat(200)}\nmore\n` };
    const line = describeApproval(request);
    assert.equal(line, `Run \`sh\` in ., given input (246 bytes in 2 lines, starting: touch /tmp/STDIN_PWN; wc -l README.md\\u202e${'x'.repeat(36)}…)?`);
    assert.equal(
      describeApproval({ ...request, argv: ['git', 'lfs', 'pull'], stdin: undefined, helper: gitLfs }),
      "Run `git lfs pull` in ., running git-lfs (node_modules/.bin/git-lfs), which git runs for lfs from the workspace's node_modules/.bin?",
    );
  });
});
