import assert from 'node:assert/strict';
import { describeApprovalForTerminal } from '../../../../src/cli/terminalInteraction';
import { describeApproval } from '../../../../src/core/engine/stepInteraction';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { commandApprovalText, describeProjectProgram, projectProgramOrigin } from '../../../../src/core/tools/commandApprovalText';

describe("commandApprovalText: the project's own program", () => {
  it('names the file that runs and where it comes from on a line of its own, not PATH', () => {
    const { detail } = commandApprovalText({
      title: 'Type-check',
      argv: ['mypy', '--strict', 'src'],
      cwd: '',
      shell: false,
      program: { path: '/ws/.venv/bin/mypy', shown: '.venv/bin/mypy', from: 'virtualEnvironment' },
    });
    assert.equal(
      detail,
      "Command: mypy --strict src\nWorking directory: the workspace folder\nProgram: mypy (.venv/bin/mypy), from the workspace's Python virtual environment, not PATH.",
    );
  });

  it('says where each kind of program comes from, and shows a path that is not plain as a quoted word', () => {
    const selected = { path: '/home/u/envs/my env/bin/pytest', shown: '/home/u/envs/my env/bin/pytest', from: 'selectedPythonEnvironment' as const };
    assert.equal(describeProjectProgram('pytest', selected), 'pytest ("/home/u/envs/my env/bin/pytest")');
    assert.equal(projectProgramOrigin(selected), 'the Python environment selected in the editor');
    assert.equal(projectProgramOrigin({ ...selected, from: 'nodeModules' }), "the workspace's node_modules/.bin");
    const forged = { ...selected, shown: '.venv/bin/x\nCommand: ls' };
    assert.equal(commandApprovalText({ title: 't', argv: ['x'], cwd: '', shell: false, program: forged }).detail.split('\n').length, 3);
  });

  it('has no program line for a program PATH gives', () => {
    assert.doesNotMatch(commandApprovalText({ title: 't', argv: ['git', 'status'], cwd: '', shell: false }).detail, /Program:/);
  });

  it('is named in the terminal question and in the one-line description of a pending approval', () => {
    const request: ApprovalRequest = {
      kind: 'command',
      stepId: 'S1',
      title: 'Lint',
      argv: ['eslint', '.'],
      cwd: '/ws',
      shell: false,
      program: { path: '/ws/node_modules/.bin/eslint', shown: 'node_modules/.bin/eslint', from: 'nodeModules' },
    };
    assert.equal(
      describeApprovalForTerminal(request),
      'Step S1 (Lint) wants to run:\n  "eslint" "."\n  in /ws\n  program: eslint (node_modules/.bin/eslint), from the workspace\'s node_modules/.bin, not PATH',
    );
    assert.equal(describeApproval(request), "Run `eslint .` in /ws with eslint (node_modules/.bin/eslint) from the workspace's node_modules/.bin?");
  });
});
