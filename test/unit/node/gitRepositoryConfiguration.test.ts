import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommandSpec } from '../../../src/core/commandPorts';
import { createNodeCommandRunner } from '../../../src/node/nodeCommandRunner';
import { makeVirtualEnvironment, plantProgram } from '../../support/projectPrograms';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/**
 * The command runner and a repository's own git configuration (`.git/config`, what it includes, its hooks), with the
 * installed git: what git would run for a command is told (`describeRepositoryPrograms`), and git starts only when the
 * repository names nothing the user was not shown. Each program the repository names writes a marker outside it.
 */
describe("createNodeCommandRunner and a repository's own git configuration", function () {
  this.timeout(30_000);
  const base = temporaryDirectory('git-config-');
  let ws = '';
  const marker = (name: string) => path.join(base.path, `PWNED_${name}`);
  const markers = () => fs.readdirSync(base.path).filter((name) => name.startsWith('PWNED_'));
  // The user's own configuration stays out of the way: none of theirs, none of the system's.
  const env = () => ({ ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(base.path, 'user.gitconfig'), HOME: base.path });
  const spec = (argv: string[], more: Partial<CommandSpec> = {}): CommandSpec => ({ argv, cwd: '', timeoutMs: 10_000, maxOutputBytes: 65_536, ...more });
  const program = (name: string) => {
    const file = path.join(base.path, 'programs', `${name}.sh`);
    plantProgram(file, `touch '${marker(name)}'\ncat >/dev/null 2>&1\nexit 0`);
    return file;
  };
  const git = (cwd: string, ...args: string[]) => {
    const ran = spawnSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], { cwd, encoding: 'utf8', env: env() });
    assert.equal(ran.status, 0, ran.stderr);
  };
  const config = (text: string, repo = ws) => fs.appendFileSync(path.join(repo, '.git', 'config'), text);

  before(function () {
    if (process.platform === 'win32' || spawnSync('git', ['--version']).status !== 0) this.skip();
  });
  beforeEach(() => {
    ws = path.join(base.path, 'ws');
    fs.mkdirSync(ws);
    git(ws, 'init', '-q', '.');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'one\n');
    fs.writeFileSync(path.join(ws, '.gitattributes'), 'notes.txt diff=evil filter=evil\n');
    git(ws, 'add', '.');
    git(ws, 'commit', '-qm', 'init');
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'two\n');
  });

  it("attack: git diff, run with nobody shown what the repository's diff.external runs, does not start", async () => {
    config(`[diff]\n\texternal = ${program('external')}\n`);
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    await assert.rejects(runner.run(spec(['git', 'diff']), new AbortController().signal), (error: Error) => {
      assert.match(error.message, /^Did not start "git": this repository's own git configuration makes git run diff\.external = \S+external\.sh \(\.git\/config\), and nobody was asked about them\. Run the step again to be asked with them shown/);
      return true;
    });
    assert.deepEqual(markers(), []);
  });

  it('attack: git named by its absolute path, with no git on PATH, is asked the same', async () => {
    config(`[diff]\n\texternal = ${program('external')}\n`);
    const gitFile = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    const runner = createNodeCommandRunner(ws, { env: { ...env(), PATH: '/nonexistent' }, pidNamespace: false });
    assert.deepEqual(await runner.describeRepositoryPrograms!([gitFile, 'diff'], ''), [`diff.external = ${program('external')} (.git/config)`]);
    await assert.rejects(runner.run(spec([gitFile, 'diff']), new AbortController().signal), /Did not start/);
    assert.deepEqual(markers(), []);
  });

  it("attack: a filter and a text conversion under git status and git log -p, a hook under git status, do not run unshown", async () => {
    config(`[filter "evil"]\n\tclean = ${program('clean')}\n[diff "evil"]\n\ttextconv = ${program('textconv')}\n`);
    plantProgram(path.join(ws, '.git', 'hooks', 'post-index-change'), `touch '${marker('hook')}'`);
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    for (const argv of [['git', 'status'], ['git', 'log', '-p'], ['git', '-C', '.', 'status']]) {
      await assert.rejects(runner.run(spec(argv), new AbortController().signal), /Did not start "git"/, argv.join(' '));
    }
    assert.deepEqual(markers(), []);
  });

  it('names, for each command, what git would run; runs git with exactly those shown; refuses once the configuration names another', async () => {
    config(`[filter "evil"]\n\tclean = ${program('clean')}\n[diff "evil"]\n\ttextconv = ${program('textconv')}\n[core]\n\tsshCommand = ${program('ssh')}\n\teditor = ${program('editor')}\n`);
    plantProgram(path.join(ws, '.git', 'hooks', 'post-index-change'), `touch '${marker('hook')}'`);
    plantProgram(path.join(ws, '.git', 'hooks', 'pre-commit'), `touch '${marker('precommit')}'`);
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    const status = await runner.describeRepositoryPrograms!(['git', 'status'], '');
    assert.deepEqual(status, [
      `filter.evil.clean = ${program('clean')} (.git/config)`,
      `diff.evil.textconv = ${program('textconv')} (.git/config)`,
      'the hook post-index-change (.git/hooks/post-index-change)',
    ]);
    const commit = await runner.describeRepositoryPrograms!(['git', 'commit', '-m', 'x'], '');
    assert.deepEqual(commit.slice(2), [
      `core.sshcommand = ${program('ssh')} (.git/config)`,
      `core.editor = ${program('editor')} (.git/config)`,
      'the hook post-index-change (.git/hooks/post-index-change)',
      'the hook pre-commit (.git/hooks/pre-commit)',
    ]);
    assert.deepEqual(await runner.describeRepositoryPrograms!(['npm', 'test'], ''), []);
    // Shown and approved: git runs as it would, the repository's filter included.
    const ran = await runner.run(spec(['git', 'status'], { repositoryPrograms: status }), new AbortController().signal);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.ok(markers().includes('PWNED_clean'));
    // The configuration changed while the question was open: what was shown no longer covers it.
    config(`[diff]\n\texternal = ${program('external')}\n`);
    await assert.rejects(
      runner.run(spec(['git', 'diff'], { repositoryPrograms: status }), new AbortController().signal),
      /that were not in the question you answered \(the configuration changed since\)/,
    );
    assert.ok(!markers().includes('PWNED_external'));
  });

  it("attack: a committed file the configuration includes, a committed hooks folder, a .git file leading to another repository's, --git-dir", async () => {
    fs.writeFileSync(path.join(ws, 'git.cfg'), `[diff "evil"]\n\ttextconv = ${program('included')}\n`);
    config('[include]\n\tpath = ../git.cfg\n[core]\n\thooksPath = hooks\n');
    plantProgram(path.join(ws, 'hooks', 'post-index-change'), `touch '${marker('hook')}'`);
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    assert.deepEqual(await runner.describeRepositoryPrograms!(['git', 'status'], ''), [
      `diff.evil.textconv = ${program('included')} (git.cfg)`,
      'the hook post-index-change (hooks/post-index-change)',
    ]);
    // A folder whose `.git` is a file naming a repository elsewhere: that repository's configuration is what git reads.
    const elsewhere = path.join(base.path, 'elsewhere');
    fs.mkdirSync(elsewhere);
    git(elsewhere, 'init', '-q', '.');
    config(`[diff]\n\texternal = ${program('elsewhere')}\n`, elsewhere);
    const linked = path.join(ws, 'linked');
    fs.mkdirSync(linked);
    fs.writeFileSync(path.join(linked, '.git'), `gitdir: ${path.join(elsewhere, '.git')}\n`);
    assert.deepEqual(await runner.describeRepositoryPrograms!(['git', 'diff'], 'linked'), [
      `diff.external = ${program('elsewhere')} (${path.join(elsewhere, '.git', 'config')})`,
    ]);
    await assert.rejects(runner.run(spec(['git', 'diff'], { cwd: 'linked' }), new AbortController().signal), /diff\.external/);
    const byOption = await runner.describeRepositoryPrograms!(['git', '--git-dir', path.join(elsewhere, '.git'), 'diff'], '');
    assert.match(byOption.join('\n'), /diff\.external = \S+elsewhere\.sh/);
    assert.deepEqual(markers(), []);
  });

  it("attack: a submodule's own configuration and hook, which git status runs in the submodule, are named too, also from a subfolder", async () => {
    const sub = path.join(base.path, 'sub');
    fs.mkdirSync(sub);
    git(sub, 'init', '-q', '.');
    fs.writeFileSync(path.join(sub, 'a.txt'), 'a\n');
    git(sub, 'add', '.');
    git(sub, 'commit', '-qm', 'sub');
    git(ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'lib');
    git(ws, 'commit', '-qm', 'with a submodule');
    fs.appendFileSync(path.join(ws, '.git', 'modules', 'lib', 'config'), `[filter "evil"]\n\tclean = ${program('subclean')}\n`);
    plantProgram(path.join(ws, '.git', 'modules', 'lib', 'hooks', 'post-index-change'), `touch '${marker('subhook')}'`);
    fs.appendFileSync(path.join(ws, 'lib', 'a.txt'), 'changed\n');
    fs.mkdirSync(path.join(ws, 'docs'));
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    for (const cwd of ['', 'docs']) {
      assert.deepEqual(await runner.describeRepositoryPrograms!(['git', 'status'], cwd), [
        `filter.evil.clean = ${program('subclean')} (.git/modules/lib/config)`,
        'the hook post-index-change (.git/modules/lib/hooks/post-index-change)',
      ]);
      await assert.rejects(runner.run(spec(['git', 'status'], { cwd }), new AbortController().signal), /Did not start "git"/);
    }
    assert.deepEqual(markers(), []);
  });

  it("asks the git of PATH, never the workspace's .venv/bin/git or ./git, which would run before anyone allowed them", async () => {
    makeVirtualEnvironment(path.join(ws, '.venv'));
    plantProgram(path.join(ws, '.venv', 'bin', 'git'), `touch '${marker('venv_git')}'`);
    plantProgram(path.join(ws, 'git'), `touch '${marker('dot_git')}'`);
    config(`[diff]\n\texternal = ${program('external')}\n`);
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false, projectEnvironment: {} });
    for (const argv of [['git', 'diff'], ['./git', 'diff']]) {
      assert.deepEqual(await runner.describeRepositoryPrograms!(argv, ''), [`diff.external = ${program('external')} (.git/config)`]);
    }
    assert.deepEqual(markers(), []);
  });

  it("the user's own configuration (global) is theirs: its diff.external is not named, and git runs", async () => {
    fs.writeFileSync(path.join(base.path, 'user.gitconfig'), `[diff]\n\texternal = ${program('users')}\n`);
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    assert.deepEqual(await runner.describeRepositoryPrograms!(['git', 'diff'], ''), []);
    const ran = await runner.run(spec(['git', 'diff']), new AbortController().signal);
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.deepEqual(markers(), ['PWNED_users']);
  });

  it('a configuration git cannot read is named, and git is not started', async () => {
    config('[broken\n');
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    const named = await runner.describeRepositoryPrograms!(['git', 'status'], '');
    assert.match(named.join(''), /^its git configuration, which git cannot read \(fatal: bad config line \d+ in file \.git\/config\)$/);
    await assert.rejects(runner.run(spec(['git', 'status']), new AbortController().signal), /Did not start "git"/);
  });

  it('held: a pager, an ssh command, a credential helper, an editor, an alias named status, askpass and gitProxy do not run for git status, log and diff', async () => {
    config(
      `[core]\n\tpager = ${program('pager')}\n\tsshCommand = ${program('ssh')}\n\teditor = ${program('editor')}\n\taskPass = ${program('askpass')}\n\tgitProxy = ${program('proxy')}\n` +
        `[pager]\n\tlog = ${program('pagerlog')}\n\tdiff = ${program('pagerdiff')}\n[credential]\n\thelper = !${program('credential')}\n` +
        `[alias]\n\tstatus = !${program('alias')}\n\tlog = !${program('alias')}\n[sequence]\n\teditor = ${program('sequence')}\n`,
    );
    fs.writeFileSync(path.join(ws, '.gitattributes'), '');
    const runner = createNodeCommandRunner(ws, { env: env(), pidNamespace: false });
    for (const argv of [['git', 'status'], ['git', 'log'], ['git', 'diff'], ['git', '-p', 'log'], ['git', '--paginate', 'diff']]) {
      assert.deepEqual(await runner.describeRepositoryPrograms!(argv, ''), [], argv.join(' '));
      const ran = await runner.run(spec(argv), new AbortController().signal);
      assert.equal(ran.exitCode, 0, `${argv.join(' ')}: ${ran.stderr}`);
    }
    assert.deepEqual(markers(), []);
  });
});
