import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { withoutKeptFileLines } from '../../../src/core/tools/keptFileOutput';
import { withoutSecrets, withSafeGitConfig } from '../../../src/node/commandEnvironment';

describe('withSafeGitConfig with the installed git (attack: a repository in the workspace names a program for git status)', function () {
  this.timeout(20_000);
  let root = '';

  before(function () {
    if (spawnSync('git', ['--version']).status !== 0) this.skip();
  });
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'safe-git-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** Runs git in `cwd` as a command would run it; whether the marker file the repository's fsmonitor touches exists afterwards. */
  function gitRanMonitor(cwd: string, marker: string, args = ['status']): { ran: boolean; stderr: string } {
    const env = withSafeGitConfig('git', { ...withoutSecrets(process.env), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(root, 'none') });
    const result = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
    return { ran: fs.existsSync(marker), stderr: result.stderr };
  }

  function write(relative: string, text: string): void {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  }

  it('a folder with HEAD, config, objects/ and refs/ is no repository: its core.fsmonitor does not run', () => {
    const marker = path.join(root, 'PWNED_fsmonitor');
    write('evil/HEAD', 'ref: refs/heads/main\n');
    write('evil/config', `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch '${marker}'; echo"\n`);
    fs.mkdirSync(path.join(root, 'evil/objects'));
    fs.mkdirSync(path.join(root, 'evil/refs'));
    const { ran, stderr } = gitRanMonitor(path.join(root, 'evil'), marker);
    assert.equal(ran, false, 'git ran the folder config\'s fsmonitor');
    assert.match(stderr, /bare repository/);
  });

  it("a real repository's own core.fsmonitor does not run either, and the repository still works", () => {
    const marker = path.join(root, 'PWNED_fsmonitor');
    assert.equal(spawnSync('git', ['init', '-q', 'repo'], { cwd: root }).status, 0);
    fs.appendFileSync(path.join(root, 'repo/.git/config'), `[core]\n\tfsmonitor = "touch '${marker}'; echo"\n[user]\n\tname = Someone\n`);
    assert.equal(gitRanMonitor(path.join(root, 'repo'), marker).ran, false, "git ran the repository's fsmonitor");
    const name = spawnSync('git', ['config', 'user.name'], { cwd: path.join(root, 'repo'), env: withSafeGitConfig('git', { ...process.env }), encoding: 'utf8' });
    assert.equal(name.stdout.trim(), 'Someone');
  });

  it("attack: a repository's own diff prefixes (diff.srcPrefix=q, noprefix, mnemonicPrefix) do not hide a committed .env's lines", () => {
    const repo = path.join(root, 'repo');
    const git = (args: string[]) => spawnSync('git', args, { cwd: repo, env: withSafeGitConfig('git', { ...withoutSecrets(process.env), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: path.join(root, 'none') }), encoding: 'utf8' });
    assert.equal(spawnSync('git', ['init', '-q', 'repo'], { cwd: root }).status, 0);
    write('repo/.env', 'API_TOKEN=s3cr3t-old\n');
    assert.equal(git(['add', '.env']).status, 0);
    assert.equal(git(['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'init']).status, 0);
    write('repo/.env', 'API_TOKEN=s3cr3t-new\n');
    assert.equal(git(['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qam', 'rotate']).status, 0);
    for (const config of [
      '[diff]\n\tsrcPrefix = q\n\tdstPrefix = r\n',
      '[diff]\n\tnoprefix = true\n',
      '[diff]\n\tmnemonicPrefix = true\n',
    ]) {
      fs.writeFileSync(path.join(repo, '.git/config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${config}`);
      for (const argv of [['log', '-p'], ['show', 'HEAD'], ['diff', 'HEAD~1', 'HEAD']]) {
        const printed = git(argv);
        assert.equal(printed.status, 0, printed.stderr);
        assert.match(printed.stdout, /^diff --git a\/\.env b\/\.env$/m, `${config} git ${argv.join(' ')}`);
        assert.doesNotMatch(withoutKeptFileLines(printed.stdout, ['git', ...argv]), /s3cr3t/, `${config} git ${argv.join(' ')}`);
      }
    }
    // Two stored files compared by their ids: their part goes too.
    const [old, now] = ['HEAD~1:.env', 'HEAD:.env'].map((name) => git(['rev-parse', name]).stdout.trim());
    const byId = git(['diff', old!.slice(0, 7), now!]);
    assert.match(byId.stdout, /s3cr3t-new/, 'git printed the stored file');
    assert.doesNotMatch(withoutKeptFileLines(byId.stdout, ['git', 'diff', old!.slice(0, 7), now!]), /s3cr3t/);
  });

  it("the user's own environment configuration still applies", () => {
    const env = withSafeGitConfig('git', { ...process.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'From Env' });
    const name = spawnSync('git', ['config', 'user.name'], { cwd: root, env, encoding: 'utf8' });
    assert.equal(name.stdout.trim(), 'From Env');
  });
});
