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

  const editor = local('core.editor', 'vim');
  const preCommit = { name: 'pre-commit', shown: '.git/hooks/pre-commit' };
  const indexHook = { name: 'post-index-change', shown: '.git/hooks/post-index-change' };
  const counted = (argv: string[], key: string, value = 'x'): boolean => gitRepositoryPrograms(argv, [local(key, value)], []).length === 1;

  it('counts, for every command, each kind of setting git runs while it shows, compares or searches, and only those whole keys', () => {
    const reading = [
      'diff.external',
      'diff.evil.command',
      'diff.evil.textconv',
      'diff.my.driver.textconv',
      'filter.evil.clean',
      'filter.evil.smudge',
      'filter.evil.process',
      'gpg.program',
      'gpg.x509.program',
      'gpg.openpgp.program',
      'gpg.ssh.program',
      'gpg.ssh.defaultkeycommand',
    ];
    for (const key of reading) {
      assert.ok(counted(['git', 'status'], key), `${key} for git status`);
      assert.ok(counted(['git', 'commit'], key), `${key} for git commit`);
    }
    // A key that only contains one of them, or only begins with one, is another setting.
    for (const key of ['x.diff.external', 'diff.externals', 'diff.external.x', 'diff.evil.textconvx', 'filter.evil.cleaner', 'gpg.programs', 'gpg.a.b.program', 'x.gpg.program', 'diff.command', 'filter.clean']) {
      assert.ok(!counted(['git', 'status'], key), `${key} for git status`);
    }
  });

  it('counts, for a command that is not only reading, each other kind of setting that runs a program, and only those whole keys', () => {
    const other = [
      'merge.ours.driver',
      'core.sshcommand',
      'core.gitproxy',
      'core.editor',
      'core.askpass',
      'core.pager',
      'core.alternaterefscommand',
      'sequence.editor',
      'pager.log',
      'credential.helper',
      'credential.https://example.com.helper',
      'remote.origin.uploadpack',
      'remote.origin.receivepack',
      'remote.origin.vcs',
      'difftool.meld.cmd',
      'difftool.meld.path',
      'mergetool.vimdiff.cmd',
      'mergetool.vimdiff.path',
      'diff.tool',
      'diff.guitool',
      'merge.tool',
      'merge.guitool',
      'trailer.sign.command',
      'trailer.sign.cmd',
      'submodule.lib.update',
      'sendemail.smtpserver',
      'imap.tunnel',
      'web.browser',
      'browser.firefox.cmd',
      'browser.firefox.path',
      'man.konqueror.cmd',
      'man.konqueror.path',
      'protocol.allow',
      'protocol.ext.allow',
      'url.ext::sh -c touch% x.insteadof',
      'url.ext::sh -c touch% x.pushinsteadof',
      'ssh.variant',
    ];
    for (const key of other) {
      assert.ok(counted(['git', 'commit'], key), `${key} for git commit`);
      assert.ok(counted(['git', '-C', 'sub', 'fetch'], key), `${key} for git fetch`);
      assert.ok(!counted(['git', 'status'], key), `${key} for git status`);
    }
    const others = [
      'x.merge.ours.driver',
      'merge.ours.drivers',
      'merge.driver',
      'x.core.editor',
      'core.editorx',
      'core.editor.x',
      'core.sshcommands',
      'sequence.editors',
      'xsequence.editor',
      'pager',
      'x.pager.log',
      'credential.helperx',
      'credential.username',
      'remote.origin.url',
      'remote.uploadpack',
      'difftool.meld.trustexitcode',
      'diff.tools',
      'diff.xtool',
      'trailer.sign.key',
      'submodule.lib.url',
      'submodule.update',
      'sendemail',
      'imap.tunnels',
      'web.browsers',
      'browser.firefox.args',
      'man.viewer',
      'protocol.allowed',
      'protocol.ext.allowx',
      'url.https://x.insteadofs',
      'url.insteadof',
      'ssh.variants',
      'core.fsmonitor',
      'core.hookspath',
      'user.name',
    ];
    for (const key of others) assert.ok(!counted(['git', 'commit'], key), `${key} for git commit`);
  });

  it('treats each subcommand that only shows, compares or searches as reading, and every other one as able to run the rest', () => {
    const config = [local('diff.evil.textconv', 'conv'), editor, local('alias.diff', '!evil')];
    const readingOnly = ['diff.evil.textconv = conv (.git/config)', 'the hook post-index-change (.git/hooks/post-index-change)'];
    const readingSubcommands = [
      'status', 'diff', 'log', 'show', 'blame', 'annotate', 'grep', 'ls-files', 'ls-tree', 'rev-parse', 'rev-list', 'describe', 'shortlog', 'whatchanged',
      'cat-file', 'diff-files', 'diff-index', 'diff-tree', 'name-rev', 'for-each-ref', 'show-ref', 'count-objects', 'check-ignore', 'check-attr', 'merge-base',
      'range-diff', 'cherry', 'show-branch', 'version', 'help',
    ];
    for (const subcommand of readingSubcommands) {
      assert.deepEqual(gitRepositoryPrograms(['git', subcommand], config, [preCommit, indexHook]), readingOnly, subcommand);
    }
    for (const subcommand of ['commit', 'fetch', 'push', 'pull', 'merge', 'rebase', 'checkout', 'add', 'am', 'clone', 'submodule', 'Status', 'statusx', '']) {
      assert.deepEqual(
        gitRepositoryPrograms(['git', subcommand], config, [preCommit, indexHook]),
        ['diff.evil.textconv = conv (.git/config)', 'core.editor = vim (.git/config)', 'the hook pre-commit (.git/hooks/pre-commit)', 'the hook post-index-change (.git/hooks/post-index-change)'],
        subcommand,
      );
    }
    // Without a subcommand (`git --version`, `git -C sub`) every setting and hook counts, and no alias.
    assert.deepEqual(gitRepositoryPrograms(['git', '-C', 'sub'], config, [preCommit]), ['diff.evil.textconv = conv (.git/config)', 'core.editor = vim (.git/config)', 'the hook pre-commit (.git/hooks/pre-commit)']);
    // The alias counted is the subcommand's own, found after the options that take a value.
    assert.deepEqual(gitRepositoryPrograms(['git', '-c', 'a=b', 'st', '-s'], [local('alias.st', '!evil'), local('alias.stx', '!other'), local('alias.s', '!other')], []), ['alias.st = !evil (.git/config)']);
  });

  it("counts only the repository's own scopes, and a hook only by its name for a reading command", () => {
    const scopes = ['local', 'worktree', 'global', 'system', 'command'].map((scope) => ({ scope, origin: `${scope}.cfg`, key: 'core.editor', value: scope }));
    assert.deepEqual(gitRepositoryPrograms(['git', 'commit'], scopes, []), ['core.editor = local (local.cfg)', 'core.editor = worktree (worktree.cfg)']);
    const hooks = [preCommit, { name: 'post-index-change', shown: 'tools/hooks/post-index-change' }, { name: 'post-index-changes', shown: 'x' }];
    assert.deepEqual(gitRepositoryPrograms(['git', 'diff'], [], hooks), ['the hook post-index-change (tools/hooks/post-index-change)']);
    assert.deepEqual(gitRepositoryPrograms(['git', 'push'], [], hooks), [
      'the hook pre-commit (.git/hooks/pre-commit)',
      'the hook post-index-change (tools/hooks/post-index-change)',
      'the hook post-index-changes (x)',
    ]);
    assert.deepEqual(gitRepositoryPrograms(['git.exe', 'push'], [], [preCommit]), ['the hook pre-commit (.git/hooks/pre-commit)']);
    assert.deepEqual(gitRepositoryPrograms(['gitx', 'push'], [], [preCommit]), []);
    assert.deepEqual(gitRepositoryPrograms([], [editor], [preCommit]), []);
  });

  it('names a key written without a value alone, and cuts a long one', () => {
    assert.deepEqual(gitRepositoryPrograms(['git', 'diff'], [local('diff.external')], []), ['diff.external (.git/config)']);
    const [long] = gitRepositoryPrograms(['git', 'diff'], [local('diff.external', 'y'.repeat(300))], []);
    assert.equal(long, `diff.external = ${'y'.repeat(199 - 'diff.external = '.length)}…`);
  });

  it("leaves out only Git LFS's own filter commands, under its own filter's name", () => {
    const lfs = [
      local('filter.lfs.clean', 'git-lfs clean -- %f'),
      local('filter.lfs.smudge', 'git-lfs smudge -- %f'),
      local('filter.lfs.smudge', 'git-lfs smudge --skip -- %f'),
      local('filter.lfs.process', 'git-lfs filter-process'),
      local('filter.lfs.process', 'git-lfs filter-process --skip'),
    ];
    assert.deepEqual(gitRepositoryPrograms(['git', 'status'], lfs, []), []);
    const notLfs = [
      local('filter.lfs.clean', 'touch x; git-lfs clean -- %f'),
      local('filter.lfs.clean', 'git-lfs clean -- %f; touch x'),
      local('filter.lfs.smudge', 'git-lfs smudge -- %f --x'),
      local('filter.lfs.clean'),
      local('filter.my.filter.lfs.clean', 'git-lfs clean -- %f'),
      local('filter.lfs.clean.x.clean', 'git-lfs clean -- %f'),
    ];
    assert.deepEqual(
      gitRepositoryPrograms(['git', 'status'], notLfs, []),
      notLfs.map((entry) => `${entry.key}${entry.value === undefined ? '' : ` = ${entry.value}`} (.git/config)`),
    );
  });

  it('keeps at most 100, counting the rest only past that', () => {
    const entries = (count: number): GitConfigEntry[] => Array.from({ length: count }, (_, index) => local(`diff.d${index}.textconv`, 'x'));
    assert.equal(gitRepositoryPrograms(['git', 'diff'], entries(100), []).length, 100);
    assert.equal(gitRepositoryPrograms(['git', 'diff'], entries(100), []).at(-1), 'diff.d99.textconv = x (.git/config)');
    assert.deepEqual(gitRepositoryPrograms(['git', 'diff'], entries(101), []).slice(99), ['diff.d99.textconv = x (.git/config)', 'and 1 more']);
    const hooks = Array.from({ length: 5 }, (_, index) => ({ name: `h${index}`, shown: `.git/hooks/h${index}` }));
    assert.deepEqual(gitRepositoryPrograms(['git', 'commit'], entries(98), hooks).slice(97), [
      'diff.d97.textconv = x (.git/config)',
      'the hook h0 (.git/hooks/h0)',
      'the hook h1 (.git/hooks/h1)',
      'and 3 more',
    ]);
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
