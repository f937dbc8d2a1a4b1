import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { plantProgram } from '../../support/projectPrograms';
import { runCli } from '../../support/runCli';
import { temporaryDirectory } from '../../support/temporaryDirectory';

/**
 * An outside attack: a folder holding a repository whose `.git` came with it (unpacked from an archive, written by
 * another program: a clone never brings one) names programs in its `.git/config` and hooks. The user allowed `git status`,
 * `git log ...` and `git diff` (`--allow-command`); a plan ran them, and git ran the repository's programs unasked, each
 * writing a marker file outside the workspace.
 */
describe("task-planner run: a repository's own git configuration under allowed git commands (attack)", function () {
  this.timeout(60_000);
  const base = temporaryDirectory('cli-git-config-');

  before(function () {
    if (process.platform === 'win32' || spawnSync('git', ['--version']).status !== 0) this.skip();
  });

  const git = (ws: string, ...args: string[]) => {
    const ran = spawnSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', '-c', 'commit.gpgSign=false', ...args], { cwd: ws, encoding: 'utf8' });
    assert.equal(ran.status, 0, ran.stderr);
    return ran.stdout;
  };

  /** A workspace whose repository names a program for each way git runs one on status, log and diff; the markers they write. */
  function hostileRepository(): { ws: string; marker: (name: string) => string } {
    const ws = join(base.path, 'ws');
    const marker = (name: string) => join(base.path, `PWNED_${name}`);
    fs.mkdirSync(ws);
    git(ws, 'init', '-q', '.');
    // The programs the repository names: its own files, as it would ship them.
    for (const name of ['external', 'command', 'textconv', 'clean', 'smudge', 'gpg', 'included', 'hook']) {
      plantProgram(join(ws, 'tools', `${name}.sh`), `touch '${marker(name)}'\ncat >/dev/null 2>&1\nexit 0`);
    }
    fs.writeFileSync(join(ws, 'notes.txt'), 'one\n');
    fs.writeFileSync(join(ws, '.gitattributes'), 'notes.txt filter=evil diff=evil\nother.md diff=other\n');
    fs.writeFileSync(join(ws, 'other.md'), 'one\n');
    // A committed file the repository's configuration includes: a clone brings this one.
    fs.writeFileSync(join(ws, 'tools', 'git.cfg'), `[diff "other"]\n\ttextconv = ${join(ws, 'tools', 'included.sh')}\n`);
    git(ws, 'add', '.');
    git(ws, 'commit', '-qm', 'init');
    // A commit carrying a signature, for log.showSignature to verify with the repository's gpg.program.
    const tree = git(ws, 'rev-parse', 'HEAD^{tree}').trim();
    const parent = git(ws, 'rev-parse', 'HEAD').trim();
    const signature = ' -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----';
    const commit = `tree ${tree}\nparent ${parent}\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\ngpgsig${signature}\n\nsigned\n`;
    const id = spawnSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: ws, input: commit, encoding: 'utf8' }).stdout.trim();
    git(ws, 'update-ref', 'HEAD', id);
    fs.appendFileSync(
      join(ws, '.git', 'config'),
      `[diff]\n\texternal = ${join(ws, 'tools', 'external.sh')}\n` +
        `[diff "evil"]\n\ttextconv = ${join(ws, 'tools', 'textconv.sh')}\n\tcommand = ${join(ws, 'tools', 'command.sh')}\n` +
        `[filter "evil"]\n\tclean = ${join(ws, 'tools', 'clean.sh')}\n\tsmudge = ${join(ws, 'tools', 'smudge.sh')}\n` +
        `[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ${join(ws, 'tools', 'gpg.sh')}\n` +
        '[include]\n\tpath = ../tools/git.cfg\n',
    );
    plantProgram(join(ws, '.git', 'hooks', 'post-index-change'), `touch '${marker('hook')}'`);
    // Changed, so status and diff compare them (the filter cleans, the drivers run).
    fs.writeFileSync(join(ws, 'notes.txt'), 'two\n');
    fs.writeFileSync(join(ws, 'other.md'), 'two\n');
    return { ws, marker };
  }

  const planFile = (ws: string): string => {
    const file = join(base.path, 'git.plan.json');
    const step = (id: string, argv: string[]) => ({ id, title: `Run ${argv.join(' ')}`, kind: 'tool', tool: 'run_command', args: { argv, allowFailure: true }, dependsOn: [] });
    const steps = [step('S1', ['git', 'status']), step('S2', ['git', 'log', '-p']), step('S3', ['git', 'diff'])];
    fs.writeFileSync(file, JSON.stringify({ objective: 'Look at the repository', steps }));
    assert.ok(fs.existsSync(ws));
    return file;
  };

  const markers = () => fs.readdirSync(base.path).filter((name) => name.startsWith('PWNED_'));

  it('allowed git status, git log -p and git diff ask instead, naming what the repository would run, and nothing runs', async () => {
    const { ws } = hostileRepository();
    const rules = ['--allow-command', 'git status', '--allow-command', 'git log ...', '--allow-command', 'git diff'];
    const { stdout, stderr } = await runCli(['run', planFile(ws), '--workspace', ws, ...rules]);
    assert.deepEqual(markers(), [], `git ran the repository's programs: ${stdout}${stderr}`);
    const said = stdout + stderr;
    for (const step of ['"git" "status"', '"git" "log" "-p"', '"git" "diff"']) {
      assert.ok(said.includes(`${step}\n      in ${ws}\n      Git also runs what this repository's own configuration names: diff.external = `), `${step} asks, saying what git runs:\n${said}`);
    }
    assert.match(said, /asks although you have a rule: this repository's own git configuration names programs git runs for it, which an allow rule does not cover/);
    assert.match(said, /and 3 more \(git config --list --show-origin --local names them\)/);
  });

  it('approved (--yes), git runs them as git does', async () => {
    const { ws } = hostileRepository();
    const { code, stdout, stderr } = await runCli(['run', planFile(ws), '--workspace', ws, '--yes']);
    assert.equal(code, 0, stdout + stderr);
    assert.ok(markers().length > 0, 'the approved command ran as git runs it');
  });

  it("an allowed git status in a repository that names no program runs without asking, as before", async () => {
    const ws = join(base.path, 'plain');
    fs.mkdirSync(ws);
    git(ws, 'init', '-q', '.');
    fs.writeFileSync(join(ws, 'a.txt'), 'a\n');
    const { code, stdout, stderr } = await runCli(['run', planFile(ws), '--workspace', ws, '--allow-command', 'git status', '--allow-command', 'git log ...', '--allow-command', 'git diff']);
    assert.equal(code, 0, stdout + stderr);
    assert.match(stdout, /3 of 3 steps completed/);
    assert.doesNotMatch(stdout + stderr, /git configuration|Pending requests/);
  });
});
