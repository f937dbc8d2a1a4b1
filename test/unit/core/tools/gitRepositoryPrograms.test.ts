import assert from 'node:assert/strict';
import { describeApprovalForTerminal } from '../../../../src/cli/terminalInteraction';
import type { CommandResult, CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import { describeApproval } from '../../../../src/core/engine/stepInteraction';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { commandApprovalText, shownRepositoryPrograms } from '../../../../src/core/tools/commandApprovalText';
import { gitGlobalOptions, gitRepositoryPrograms, type GitConfigEntry } from '../../../../src/core/tools/gitRepositoryPrograms';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const local = (key: string, value?: string, origin = '.git/config'): GitConfigEntry => ({ scope: 'local', origin, key, ...(value === undefined ? {} : { value }) });

describe("gitRepositoryPrograms: what a repository's own git configuration makes git run", () => {
  const config = [
    local('core.repositoryformatversion', '0'),
    local('diff.external', './x.sh'),
    local('diff.evil.textconv', 'conv'),
    local('filter.evil.process', './filter'),
    local('core.editor', 'vim'),
    local('core.sshcommand', 'ssh -i key'),
    local('alias.st', '!evil'),
    local('core.fsmonitor', './monitor'),
    { scope: 'global', origin: '/home/me/.gitconfig', key: 'diff.external', value: 'difft' },
    { scope: 'command', origin: 'command line:', key: 'gpg.program', value: 'gpg2' },
    { scope: 'worktree', origin: '.git/config.worktree', key: 'gpg.ssh.program', value: 'sign' },
  ];
  const hooks = [
    { name: 'post-index-change', shown: '.git/hooks/post-index-change' },
    { name: 'pre-commit', shown: '.git/hooks/pre-commit' },
  ];

  it('names, for a command that only shows or compares, the drivers, filters, signature programs and the post-index-change hook of its own scopes', () => {
    assert.deepEqual(gitRepositoryPrograms(['git', 'status'], config, hooks), [
      'diff.external = ./x.sh (.git/config)',
      'diff.evil.textconv = conv (.git/config)',
      'filter.evil.process = ./filter (.git/config)',
      'gpg.ssh.program = sign (.git/config.worktree)',
      'the hook post-index-change (.git/hooks/post-index-change)',
    ]);
    assert.deepEqual(gitRepositoryPrograms(['/usr/bin/git', '-C', 'sub', 'log', '-p'], config, hooks).length, 5);
  });

  it('names, for any other command, editors, transports, the alias of its subcommand and every hook too; nothing for another program', () => {
    const commit = gitRepositoryPrograms(['git', 'commit', '-m', 'x'], config, hooks);
    assert.deepEqual(commit.slice(3), [
      'core.editor = vim (.git/config)',
      'core.sshcommand = ssh -i key (.git/config)',
      'gpg.ssh.program = sign (.git/config.worktree)',
      'the hook post-index-change (.git/hooks/post-index-change)',
      'the hook pre-commit (.git/hooks/pre-commit)',
    ]);
    assert.ok(gitRepositoryPrograms(['git', 'st'], config, []).includes('alias.st = !evil (.git/config)'));
    assert.ok(!gitRepositoryPrograms(['git', 'fetch'], config, []).includes('alias.st = !evil (.git/config)'));
    assert.deepEqual(gitRepositoryPrograms(['npm', 'test'], config, hooks), []);
    assert.deepEqual(gitRepositoryPrograms(['git', 'status'], [local('user.name', 'me'), local('core.bare')], []), []);
    // Git LFS's own filter, as `git lfs install --local` writes it, runs the user's git-lfs; another command under its name does not pass.
    const lfs = [local('filter.lfs.clean', 'git-lfs clean -- %f'), local('filter.lfs.smudge', 'git-lfs smudge -- %f'), local('filter.lfs.process', 'git-lfs filter-process')];
    assert.deepEqual(gitRepositoryPrograms(['git', 'status'], lfs, []), []);
    assert.deepEqual(gitRepositoryPrograms(['git', 'status'], [local('filter.lfs.process', 'git-lfs filter-process; touch x')], []), [
      'filter.lfs.process = git-lfs filter-process; touch x (.git/config)',
    ]);
  });

  it('shows controls as escapes, one line each, and says at most five in a question, counting the rest', () => {
    const [shown] = gitRepositoryPrograms(['git', 'diff'], [local('diff.external', 'a\u001b[2J\nb\u202e')], []);
    assert.equal(shown, 'diff.external = a\\u001b[2J b\\u202e (.git/config)');
    const many = Array.from({ length: 130 }, (_, index) => local(`diff.d${index}.textconv`, 'x'));
    const named = gitRepositoryPrograms(['git', 'diff'], many, []);
    assert.equal(named.length, 101);
    assert.equal(named.at(-1), 'and 30 more');
    assert.match(shownRepositoryPrograms(named), /^diff\.d0\.textconv = x \(\.git\/config\); (.+; ){4}and 96 more \(git config --list --show-origin --local names them\)$/);
    assert.equal(shownRepositoryPrograms(['a', 'b']), 'a; b');
  });

  it('finds the subcommand after the options that take a value', () => {
    assert.deepEqual(gitGlobalOptions(['git', '-C', 'a', '-c', 'x=y', '--no-pager', 'diff', '--stat']), { options: ['-C', 'a', '-c', 'x=y', '--no-pager'], subcommand: 'diff' });
    assert.deepEqual(gitGlobalOptions(['git', '--version']), { options: ['--version'] });
  });
});

describe("run_command and a repository's own git configuration", () => {
  const workspace = createMemoryWorkspace({ 'a.txt': '' });
  const named = ['diff.external = tools/x.sh (.git/config)'];

  function runner(programs: string[]): CommandRunner & { specs: CommandSpec[] } {
    const specs: CommandSpec[] = [];
    return {
      specs,
      describeCwd: async () => '/ws',
      describeRepositoryPrograms: async (argv) => (argv[0] === 'git' ? programs : []),
      run: async (spec): Promise<CommandResult> => {
        specs.push(spec);
        return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
      },
    };
  }

  it('attack: an allowed "git diff" asks, showing what the repository makes git run; the approved run is bound to it', async () => {
    const commands = runner(named);
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }] });
    const output: string[] = [];
    const ctx = makeToolContext({ workspace, interaction, commandRunner: commands, allowedCommands: { rules: () => [['git', 'diff']] }, output: (text) => output.push(text) });
    await runCommandTool.run(ctx, { argv: ['git', 'diff'] }, neverAborted);
    const because = "this repository's own git configuration names programs git runs for it, which an allow rule does not cover";
    assert.deepEqual(interaction.approvals(), [
      { kind: 'command', stepId: 'S1', title: 'Test step', argv: ['git', 'diff'], cwd: '/ws', shell: false, repositoryPrograms: named, notAllowedBecause: because },
    ]);
    assert.deepEqual(output.slice(0, 2), [`Runs what this repository's own git configuration names: ${named[0]}.\n`, `Asks: ${because}.\n`]);
    assert.deepEqual(commands.specs[0]?.repositoryPrograms, named);
    assert.equal(commands.specs[0]?.withoutProjectPrograms, undefined);
  });

  it('runs an allowed "git diff" unasked when the repository names nothing, telling the runner nothing was shown', async () => {
    const commands = runner([]);
    const interaction = new ScriptedInteraction({ approvals: [] });
    const ctx = makeToolContext({ workspace, interaction, commandRunner: commands, allowedCommands: { rules: () => [['git', 'diff']] } });
    await runCommandTool.run(ctx, { argv: ['git', 'diff'] }, neverAborted);
    assert.deepEqual(interaction.approvals(), []);
    assert.equal(commands.specs[0]?.repositoryPrograms, undefined);
  });

  it('the editor, the terminal and the one-line question each name them', () => {
    const request: ApprovalRequest = { kind: 'command', stepId: 's', title: 'Diff', argv: ['git', 'diff'], cwd: '/ws', shell: false, repositoryPrograms: named };
    const line = `Git also runs what this repository's own configuration names: ${named[0]}. Run it only if you put them there.`;
    assert.equal(commandApprovalText({ ...request, cwd: '' }).detail, `Command: git diff\nWorking directory: the workspace folder\n${line}`);
    assert.equal(describeApprovalForTerminal(request), `Step s (Diff) wants to run:\n  "git" "diff"\n  in /ws\n  ${line}`);
    assert.equal(describeApproval(request), `Run \`git diff\` in /ws, running what this repository's own git configuration names: ${named[0]}?`);
  });
});
