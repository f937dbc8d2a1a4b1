import assert from 'node:assert/strict';
import { programName } from '../../../../src/core/tools/commandAllowRules';
import { furtherArgumentsProblem, namesPathOutside, riskyArgument } from '../../../../src/core/tools/riskyArguments';

const name = (word: string): string => word;
const risky = (rule: string, argument: string): string | undefined => riskyArgument(rule.split(' '), [argument], name)?.why;

describe('riskyArgument', () => {
  it('finds, for every program, the common options that write a file, read configuration or run code', () => {
    for (const argument of [
      '--output=x', '--output-file', '--outfile', '--out-f', '--config', '--config-file=x', '--exec=x', '--shell', '--pager=less', '--editor', '--require',
      '--import=x', '--loader', '--experimental-loader', '--node-options', '--eval', '--plugin', '--preload', '--rcfile', '-o', '-vo', '-ofile',
    ]) {
      assert.equal(risky('tool check', argument), 'writes files, reads configuration or runs another program', argument);
    }
  });

  it('finds the options of git that write files, change or read its configuration, or run a program', () => {
    for (const argument of [
      '--output=../outside/x', '--outp=.git/config', '--output-directory', '--upload-pack=evil', '--receive-pack', '--ext-diff', '--textconv', '--open-files-in-pager',
      '-O', '--exec-path=x', '--git-dir=x', '--work-tree=x', '--config-env=x', '-c', '--extcmd=x', '--tool=x', '--remote=x',
      '--sequence-editor', '--gpg-program=x', '--strategy=x', '--upstream', '-x', '--exec', '--no-index', '--no-ind',
    ]) {
      assert.match(risky('git log', argument) ?? '', /git's configuration/, argument);
    }
    for (const subcommand of ['clone', 'fetch', 'ls-remote', 'init']) {
      for (const argument of ['-u', '--template=x', '--separate-git-dir=x']) {
        assert.equal(risky(`git ${subcommand}`, argument), 'runs another program or installs hooks from elsewhere', `${subcommand} ${argument}`);
      }
    }
    assert.equal(risky('git status', '-u'), undefined, 'only where -u names a program');
    assert.equal(risky('git log', '--template=x'), undefined);
  });

  it('finds the options of package managers that run another package, program or configuration, also after --', () => {
    for (const program of ['npm', 'yarn', 'pnpm', 'bun']) {
      for (const argument of [
        '--prefix', '--pref=sub/evil', '--script-shell=/usr/bin/printf', '--scriptShell', '--script_shell', '--call', '--userconfig', '--globalconfig', '--workspace',
        '--workspaces', '--global', '--location=global', '--cwd', '--filter', '--recursive', '--registry=x', '--node-gyp', '--use-yarnrc', '--modules-folder',
        '--cache', '--cache-folder', '--global-folder', '--include-workspace-root', '-c', '-C', '-F', '-g', '-w',
      ]) {
        assert.match(risky(`${program} test`, argument) ?? '', /another package's script/, `${program} ${argument}`);
      }
      assert.match(risky(`${program} test`, '-r') ?? '', /another package's script/);
      assert.equal(risky(`${program} test`, '--reporter=x'), 'loads code, reads configuration or writes files', 'a test runner option after --');
    }
  });

  it('finds the options of test runners that load code, read configuration or write files', () => {
    for (const runner of ['jest', 'vitest', 'mocha']) {
      for (const argument of [
        '--setupFiles', '--setup-files-after-env', '--globalSetup', '--global-teardown', '--testRunner', '--runner', '--transform', '--reporter', '--reporters', '--ui',
        '--resolver', '--testEnvironment', '--env', '--environment', '--updateSnapshot', '--update', '--coverageDirectory', '--snapshotResolver', '--watchPlugins',
        '--file', '--rootDir', '--dir', '-c', '-r', '-u',
      ]) {
        assert.equal(risky(`npx ${runner}`, argument), 'loads code, reads configuration or writes files', `${runner} ${argument}`);
      }
    }
  });

  it('finds the options of other known programs', () => {
    const cases: [string, string, RegExp][] = [
      ['rg x', '--pre=evil', /on each file/], ['rg x', '--pre-glob', /on each file/], ['grep x', '--pre', /on each file/], ['grep x', '--pre-glob', /on each file/],
      ['make check', '--file=x', /another makefile/], ['make check', '--makefile', /another makefile/], ['make check', '--directory', /another makefile/],
      ['make check', '--eval=x', /another makefile/], ['make check', '--include-dir', /another makefile/], ['make check', '-C', /another makefile/],
      ['make check', '-E', /another makefile/], ['make check', '-f', /another makefile/], ['make check', '-I', /another makefile/], ['make check', 'SHELL=/tmp/evil', /another makefile/],
      ['make check', 'CC=x', /another makefile/], ['cargo test', '--manifest-path', /another package/], ['cargo test', '--target-dir=x', /another package/],
      ['cargo test', '--out-dir', /another package/], ['cargo test', '--artifact-dir', /another package/], ['cargo test', '-Zunstable', /another package/],
      ['go test', '-c', /runs another program/], ['go test', '-C', /runs another program/], ['go test', '-toolexec=x', /runs another program/],
      ['go test', '--vettool=x', /runs another program/], ['go test', '-modfile', /runs another program/], ['go test', '-overlay', /runs another program/],
      ['go test', '-coverprofile=c.out', /runs another program/], ['go test', '-cpuprofile', /runs another program/], ['go test', '-memprofile', /runs another program/],
      ['go test', '-blockprofile', /runs another program/], ['go test', '-mutexprofile', /runs another program/], ['go test', '-trace', /runs another program/],
      ['go test', '-outputdir', /runs another program/], ['go test', '-pkgdir', /runs another program/], ['go test', '-o', /runs another program/],
      ['python -m pytest', '--override-ini=x', /loads a plugin/], ['python -m pytest', '--rootdir', /loads a plugin/], ['python -m pytest', '--confcutdir', /loads a plugin/],
      ['python -m pytest', '--basetemp', /loads a plugin/], ['python -m pytest', '--junitxml', /loads a plugin/], ['python -m pytest', '--debug', /loads a plugin/],
      ['python -m pytest', '--pastebin', /loads a plugin/], ['python -m pytest', '--result-log', /loads a plugin/], ['python -m pytest', '--log-file', /loads a plugin/],
      ['python -m pytest', '--cov-report', /loads a plugin/], ['python -m pytest', '-p', /loads a plugin/], ['python -m pytest', '-o', /loads a plugin/],
      ['npx eslint', '--fix', /changes files/], ['npx eslint', '--rulesdir', /changes files/], ['npx eslint', '--resolve-plugins-relative-to', /changes files/],
      ['npx eslint', '--cache-location', /changes files/], ['npx eslint', '--format=x', /changes files/], ['npx eslint', '-f', /changes files/],
      ['npx prettier', '--write', /changes files/], ['npx prettier', '--plugin-search-dir', /changes files/], ['npx prettier', '--ignore-path', /changes files/], ['npx prettier', '-w', /changes files/],
      ['npx tsc', '--outDir', /writes files or reads other configuration/], ['npx tsc', '--declarationDir', /other configuration/], ['npx tsc', '--tsBuildInfoFile', /other configuration/],
      ['npx tsc', '--generateTrace', /other configuration/], ['npx tsc', '--build', /other configuration/], ['npx tsc', '--project', /other configuration/],
      ['npx tsc', '--plugins', /other configuration/], ['npx tsc', '-b', /other configuration/], ['npx tsc', '-p', /other configuration/],
      ['dotnet test', '--settings', /loads code/], ['dotnet test', '--test-adapter-path', /loads code/], ['dotnet test', '--diag', /loads code/],
      ['dotnet test', '--results-directory', /loads code/], ['dotnet test', '--logger', /loads code/], ['dotnet test', '--collect', /loads code/],
      ['dotnet test', '-a', /loads code/], ['dotnet test', '-d', /loads code/], ['dotnet test', '-s', /loads code/],
      ['deno test', '--allow-run', /more permissions/], ['deno test', '--al', /more permissions/], ['deno test', '--import-map', /more permissions/],
      ['deno test', '--unsafely-ignore-certificate-errors', /more permissions/], ['deno test', '-A', /more permissions/],
    ];
    for (const build of ['gradle', 'gradlew']) {
      for (const argument of ['--init-script', '--project-dir', '--settings-file', '--build-file', '--gradle-user-home', '--include-build', '--project-cache-dir', '-b', '-c', '-Dx=y', '-g', '-I', '-p']) {
        cases.push([`${build} test`, argument, /another build script/]);
      }
    }
    for (const build of ['mvn', 'mvnw']) {
      for (const argument of ['--file', '--settings', '--global-settings', '--toolchains', '--define', '--log-file', '-D', '-f', '-l', '-s']) {
        cases.push([`${build} test`, argument, /another build/]);
      }
    }
    for (const [rule, argument, why] of cases) assert.match(risky(rule, argument) ?? '', why, `${rule} ${argument}`);
  });

  it('attack: finds the options that let a test run, lint or build write outside the workspace or load other code', () => {
    const cases: [rule: string, further: string[], why: RegExp][] = [
      // npm writes its debug log where --logs-dir says; --ws is --workspaces.
      ['npm test', ['--logs-dir=/tmp/x'], /another package's script/],
      ['npm test', ['--logs', '/tmp/x'], /another package's script/],
      ['npm test', ['--ws'], /another package's script/],
      // What follows `--` reaches mocha: -n passes a Node option, -R/-O a reporter and its output file.
      ['npm test', ['--', '-n', 'require=./evil.js'], /loads code/],
      ['npx mocha', ['-n', 'import=./evil.mjs'], /loads code/],
      ['npx mocha', ['-R', 'xunit'], /loads code/],
      ['npx mocha', ['-O', 'output=/tmp/x.xml'], /loads code/],
      ['npx mocha', ['--reporter-options', 'output=/tmp/x.xml'], /loads code/],
      ['npx mocha', ['--package=/tmp/package.json'], /loads code/],
      ['npx jest', ['--testResultsProcessor=/tmp/evil.js'], /loads code/],
      ['npx jest', ['--testSequencer=/tmp/evil.js'], /loads code/],
      ['npx jest', ['--preset=/tmp/evil'], /loads code/],
      ['npx jest', ['--filter=/tmp/evil.js'], /loads code/],
      ['npx jest', ['--cacheDirectory=/tmp/x'], /loads code/],
      ['npx jest', ['--moduleNameMapper={}'], /loads code/],
      // A linter's or formatter's fix flag, given through a package script.
      ['npm run lint', ['--', '--fix'], /loads code/],
      ['npm run format', ['--', '--write'], /loads code/],
      ['npx vitest', ['--fix'], /loads code/],
      // Go's test binary options also go by -test.<name>.
      ['go test', ['-test.coverprofile=/tmp/x'], /writes files/],
      ['go test', ['-test.outputdir', '/tmp'], /writes files/],
      ['go test', ['-args', '-test.cpuprofile=/tmp/x'], /writes files/],
      ['go test', ['--test.trace=/tmp/x'], /writes files/],
      ['go test', ['-ldflags=-extld=/tmp/evil'], /runs another program/],
      ['go test', ['-test.gocoverdir=/tmp'], /writes files/],
      ['go test', ['-test.testlogfile=/tmp/x'], /writes files/],
      ['cargo test', ['--', '--logfile', '/tmp/x'], /writes files elsewhere/],
      ['cargo test', ['--lockfile-path', '/tmp/x'], /writes files elsewhere/],
      ['python -m pytest', ['--pdbcls=evil:X', '--pdb'], /loads a plugin/],
      ['python -m pytest', ['--html=/tmp/x.html'], /loads a plugin/],
      ['python -m pytest', ['--report-log=/tmp/x'], /loads a plugin/],
      ['npx prettier', ['--check', '--cache-location=/tmp/x'], /changes files/],
      ['make test', ['-t'], /another makefile/],
      ['make test', ['-kt'], /another makefile/],
      ['make test', ['--touch'], /another makefile/],
    ];
    for (const [rule, further, why] of cases) assert.match(riskyArgument(rule.split(' '), further, name)?.why ?? '', why, `${rule} ${further.join(' ')}`);
    for (const [rule, argument] of [
      ['go test', '-test.v'], ['go test', '-test.run=TestX'], ['go test', '-test.count=1'], ['npm test', '--loglevel=silent'], ['npx eslint', '--fix-dry-run'],
      ['npm test', '--'], ['make test', '-j4'],
    ]) {
      assert.equal(risky(rule ?? '', argument ?? ''), undefined, `${rule} ${argument}`);
    }
  });

  // An outside attacker's finds (2026-12-01): under these rules each ran unasked, read a file outside the workspace into
  // the run's output, or wrote one there (rg ran tools/host.sh as root; git apply made /tmp/…/pwned.txt).
  it('attack: asks about a program run through an option, and about any path outside the workspace, whatever option carries it', () => {
    const cases: [rule: string, further: string[], why: RegExp][] = [
      ['rg', ['--hostname-bin=tools/host.sh', '--hyperlink-format=default', 'TODO'], /runs another program/],
      ['rg', ['--hostname-bin', 'tools/host.sh'], /runs another program/],
      ['git blame', ['--contents', '/tmp/outside/secret.txt', 'README.md'], /outside the workspace/],
      ['git commit', ['--allow-empty', '-F', '/tmp/secret.txt'], /outside the workspace/],
      ['git commit', ['-F/tmp/secret.txt'], /outside/],
      ['git apply', ['--directory=../../tmp/outside', 'fix.patch'], /outside the workspace/],
      ['git apply', ['--unsafe-paths', 'fix.patch'], /outside the repository/],
      ['rg', ['PRIVATE', '/home/u/.ssh'], /outside the workspace/],
      ['grep', ['-r', 'x', '~/.ssh'], /outside the workspace|every file of a folder/],
      ['grep', ['-n', 'x', '~/.ssh/id_rsa'], /outside the workspace/],
      ['cat', ['/home/u/.ssh/id_rsa'], /outside the workspace/],
      ['cat', ['src/../../../etc/passwd'], /outside the workspace/],
      ['cat', ['..\\..\\secret'], /outside the workspace/],
      ['type', ['C:\\Users\\u\\.ssh\\id_rsa'], /outside the workspace/],
      ['npx mocha', ['/tmp/x.js'], /outside the workspace/],
      ['pytest', ['--tx', 'popen//python=/tmp/evil'], /outside the workspace/],
      ['rspec', ['-r', 'evil.rb'], /loads code/],
      ['rake', ['test', '-e', 'system("id")'], /runs other code/],
      ['npx eslint', ['--parser=evil.js', 'src'], /loads code/],
      ['pnpm test', ['--config.script-shell=evil.sh'], /another program/],
      ['npx vitest', ['--coverage.reportsDirectory=/tmp/x'], /outside the workspace|loads code/],
      ['uv sync', ['--python=/tmp/evil'], /outside the workspace/],
      ['terraform plan', ['-chdir=/tmp'], /outside the workspace|works elsewhere/],
      ['npx mocha', ['--inspect'], /runs another program/],
      ['npm test', ['--', '--inspect=0.0.0.0:9229'], /loads code|runs another program/],
      ['node --test', ['--inspect-brk'], /runs another program|runs other code/],
      ['cat', ['file:///etc/passwd'], /outside the workspace/],
      // The second attacker's (2026-12-01): a response file, a JVM agent, an MSBuild log.
      ['gcc', ['@/etc/passwd'], /more arguments from a file/],
      ['npx tsc', ['@opts.txt'], /more arguments from a file/],
      ['javac', ['-J-javaagent:/tmp/a2agent/agent.jar', 'Hello.java'], /runs other code/],
      ['javac', ['-J-javaagent:tools/agent.jar', 'Hello.java'], /runs other code/],
      ['dotnet test', ['-bl:/tmp/x.binlog'], /outside the workspace|writes files/],
      ['cat', ['@/etc/passwd'], /outside the workspace/],
    ];
    for (const [rule, further, why] of cases) assert.match(riskyArgument(rule.split(' '), further, name)?.why ?? '', why, `${rule} ${further.join(' ')}`);
    // Paths inside stay allowed, also with dots in names and option values.
    for (const argument of ['src/a.ts', './src', 'a..b', '...', 'x/..y', '--grep=a/b', '-', '.', 'v1.2..v1.3', 'HEAD~1', 'name=value', '--url=http://localhost:3000', 'a:b', '@types/node']) {
      assert.equal(namesPathOutside(argument), false, argument);
    }
    // The parent itself, a `..` after a link (it resolves where the link leads: `ls vendor/link/..`), a drive written with two
    // slashes, and what follows a cluster of short options (`-rf/etc/x` is `-r -f /etc/x`).
    for (const argument of ['..', '--dir=..', 'vendor/link/..', 'C://Users/u/.ssh', 'c:\\x', '-I/usr/include', '-rf/etc/passwd', '-/etc', '-x:/tmp']) {
      assert.equal(namesPathOutside(argument), true, argument);
    }
    for (const argument of ['-Iinclude', '-rfpatterns.txt', '..-old', '..x', '--exclude-dir/x', 'C:', 'c:x']) assert.equal(namesPathOutside(argument), false, argument);
  });

  it('finds the options of an interpreter that run other code', () => {
    for (const argument of ['--print', '--command', '--include', '--allow-fs-write', '-c', '-e', '-I', '-m', '-p', '-r', '-x']) {
      assert.equal(risky('node build.js', argument), 'runs other code', argument);
    }
    for (const interpreter of ['node', 'nodejs', 'python', 'py', 'pypy', 'perl', 'ruby', 'php', 'lua', 'luajit', 'java', 'npx', 'pnpx', 'bunx', 'uvx']) {
      assert.equal(risky(`${interpreter} x`, '-e'), 'runs other code', interpreter);
      assert.equal(risky(`${interpreter} x`, '--setupFiles'), 'loads code, reads configuration or writes files', interpreter);
    }
  });

  it('leaves arguments alone that do none of this, and asks about the first one that does', () => {
    for (const [rule, argument] of [
      ['git log', '--oneline'], ['git log', '-1'], ['git log', '--format=--output=x'], ['git log', '--'], ['git log', '-'], ['git log', 'src/output'], ['git log', '--no-ext-diffs'],
      ['npm test', '--grep'], ['npm test', '--silent'], ['go test', '-count=1'], ['go test', '-cover'], ['go test', '-v'], ['make check', '-j4'], ['make check', '--keep-going'],
      ['rg x', '--pretty'], ['rg x', '-n'], ['rg x', '-e'], ['grep x', '-n'], ['grep x', '-il'], ['git status', '--porcelain'], ['cargo test', '--release'], ['go test', '-a'],
      ['go test', '-'], ['deno test', '--abc'], ['make check', '--jobs=4'], ['tool check', 'NAME=value'], ['npm test', 'NAME=value'],
    ]) {
      assert.equal(risky(rule ?? '', argument ?? ''), undefined, `${rule} ${argument}`);
    }
    assert.deepEqual(riskyArgument(['npm', 'test'], ['--silent', '--prefix', 'x', '-o'], name), { argument: '--prefix', why: "runs another package's script, another program or reads other configuration" });
    assert.equal(riskyArgument(['git', 'clone'], ['-u', 'x'], name)?.why, 'runs another program or installs hooks from elsewhere');
    assert.equal(riskyArgument(['make'], ['-C', 'x'], (word) => word.toUpperCase()), undefined, 'the program is found by the name given');
  });

  it("takes a program's own whole option for itself, not for an abbreviation of a longer one: git diff --cached is no --cache-dir", () => {
    for (const [rule, argument] of [
      ['git diff', '--cached'], ['git diff', '--text'], ['git grep', '--cached'], ['git rm', '--cached'], ['git ls-files', '--cached'], ['git log', '--text'],
      ['rg x', '--files'], ['cargo test', '--test=integration'], ['cargo test', '--bench'], ['pytest', '--co'],
    ]) {
      assert.equal(risky(rule ?? '', argument ?? ''), undefined, `${rule} ${argument}`);
    }
    // Where the program has no such option of its own, the word is still an abbreviation, and asks.
    assert.match(risky('git cat-file', '--text') ?? '', /runs another program/, 'git cat-file has --textconv and no --text');
    assert.match(risky('mypy', '--cached') ?? '', /writes files/, "mypy's --cache-dir");
    // Whole options of one program are not another's: a table's own entry of the same name, or a longer spelling, still asks.
    assert.match(risky('git diff', '--textconv') ?? '', /runs another program/);
    assert.match(risky('git diff', '--cache-dir=x') ?? '', /writes files/);
    assert.match(risky('git status', '--cached') ?? '', /writes files/, 'only the subcommands that have --cached');
  });
});

// An outside attacker's finds (2026-12-02): under each rule the argument ran another program (a shell, an editor, gpg, a browser,
// a native module), wrote files, or undid an option the rule fixed, without asking.
describe('riskyArgument: attacks on further arguments (2026-12-02)', () => {
  const asks = (rule: string, further: string[], why: RegExp): void => {
    const found = riskyArgument(rule.split(' '), further, programName);
    assert.match(found?.why ?? '', why, `${rule} ${further.join(' ')}`);
  };
  const allows = (rule: string, further: string[]): void => {
    assert.equal(riskyArgument(rule.split(' '), further, programName), undefined, `${rule} ${further.join(' ')}`);
  };
  const runs = /runs another program/;
  const gitRuns = /a merge strategy, an editor or gpg/;
  const repeats = /sets again an option the rule's own words set/;

  it('sort --compress-program runs the program named', () => {
    asks('sort', ['-S', '1K', '--compress-program=sh', 'data.txt'], runs);
    asks('sort', ['--compress-prog', 'sh'], runs);
    allows('sort', ['-n', '-r', '-k', '2', 'data.txt']);
  });

  it('an argument that sets again an option the rule sets asks, in any spelling (tsc --noEmit ... --noEmit false)', () => {
    for (const further of [['--noEmit', 'false'], ['--noEmit=false'], ['--noemit', 'false'], ['--no-emit', 'false'], ['--strict', '--noEmit']]) asks('tsc --noEmit', further, repeats);
    asks('go test -count=1', ['--count=5'], repeats);
    asks('go test -count=1', ['-count', '5'], repeats);
    asks('git diff --no-ext-diff', ['--ext-diff'], /./);
    asks('npm test --ignore-scripts', ['--ignore-scripts=false'], repeats);
    asks('npm test --ignore-scripts', ['--ignore-s=false'], repeats);
    asks('git log -n 5', ['-n', '500'], repeats);
    asks('git log -n 5', ['-n500'], repeats);
    allows('tsc --noEmit', ['--strict', '--pretty', 'false', 'src/a.ts']);
    allows('go test -count=1', ['-cover', '-v', './...']);
    allows('git log --oneline', ['-n', '5', '--', 'src']);
    allows('git log -n 5', ['-S', 'needle']);
  });

  it('git merge, pull and rebase -s name a merge strategy, a program on PATH', () => {
    for (const subcommand of ['merge', 'pull', 'rebase']) {
      asks(`git ${subcommand}`, ['-s', 'evil', 'HEAD'], gitRuns);
      asks(`git ${subcommand}`, ['-sevil'], gitRuns);
      asks(`git ${subcommand}`, ['--strategy=evil'], /runs another program/);
    }
    allows('git merge', ['--no-edit', '--ff-only', 'main']);
    allows('git commit', ['-s', '-m', 'x']);
  });

  it('git options that open an editor or run gpg, both of which the repository\'s configuration can name', () => {
    const cases: [rule: string, further: string[]][] = [
      ['git branch', ['--edit-description']],
      ['git rebase', ['-i', 'HEAD~1']],
      ['git rebase', ['--interactive', 'HEAD~1']],
      ['git rebase', ['--edit-todo']],
      ['git pull', ['--rebase=interactive']],
      ['git tag', ['-a', 'v1']],
      ['git tag', ['-s', 'v1']],
      ['git tag', ['-u', 'KEY', 'v1']],
      ['git tag', ['-v', 'v1']],
      ['git commit', ['-m', 'x', '-S']],
      ['git commit', ['-m', 'x', '--gpg-sign']],
      ['git commit', ['--gpg-sign=KEY', '-m', 'x']],
      ['git commit', ['-e', '-m', 'x']],
      ['git merge', ['-S', 'main']],
      ['git cherry-pick', ['-S', 'abc']],
      ['git notes', ['edit']],
      ['git notes', ['add', 'HEAD']],
      ['git log', ['--show-signature']],
      ['git log', ['--format=%G?']],
      ['git log', ['--pretty=format:%GS %H']],
      ['git log', ['--format', '%h %GK']],
      ['git push', ['--signed', 'origin']],
      ['git merge', ['--verify-signatures', 'main']],
      ['git fetch', ['ext::sh -c touch% pwned']],
    ];
    for (const [rule, further] of cases) asks(rule, further, /editor|gpg|git's configuration/);
    for (const [rule, further] of [
      ['git log', ['-S', 'needle', '--format=%H %s']], ['git tag', ['-l', 'v*']], ['git notes', ['show', 'HEAD']], ['git notes', ['list']], ['git pull', ['--rebase']],
      ['git rebase', ['main']], ['git commit', ['-m', 'x', '--signoff']], ['git rev-parse', ['--verify', 'HEAD']],
    ] as const) {
      allows(rule, [...further]);
    }
  });

  it('sdiff and diff3 --diff-program run the program named', () => {
    asks('sdiff', ['--diff-program=sh', 'a', 'b'], runs);
    asks('diff3', ['--diff-program=sh', 'a', 'b', 'c'], runs);
    asks('diff3', ['--diff-prog', 'sh', 'a', 'b', 'c'], runs);
    allows('diff3', ['-m', 'a', 'b', 'c']);
  });

  it('man -H/--html opens a browser', () => {
    asks('man', ['-H', 'ls'], runs);
    asks('man', ['-Hsh', 'ls'], runs);
    asks('man', ['--html=x', 'ls'], runs);
    allows('man', ['-k', 'printf']);
  });

  it('kubectl --kubeconfig reads another configuration, which can run a program for credentials', () => {
    asks('kubectl get', ['--kubeconfig=x', 'pods'], /run a program/);
    asks('kubectl get', ['--kubeconfig', 'x', 'pods'], /run a program/);
    allows('kubectl get', ['pods', '-n', 'default', '--show-labels']);
  });

  it('gh --web opens a browser', () => {
    asks('gh pr view', ['--web'], /browser/);
    asks('gh pr view', ['12', '-w'], /browser/);
    allows('gh pr view', ['12', '--json', 'title']);
  });

  it('go -gcflags, -asmflags, -gccgoflags, -toolexec and -exec write files or run another program', () => {
    for (const further of [['-gcflags=-cpuprofile=x'], ['-gcflags', 'all=-N'], ['-asmflags=-o=x'], ['-gccgoflags=x'], ['-toolexec=x'], ['-exec', 'x'], ['--exec=x']]) {
      asks('go test', further, /runs another program/);
    }
    allows('go test', ['-run', 'TestX', '-v', './...']);
  });

  it('eslint --init, --suppress-all and --mcp install packages, write files or start a server, also through a package script', () => {
    for (const argument of ['--init', '--suppress-all', '--suppress-rule=no-console', '--suppressions-location=x', '--prune-suppressions', '--mcp']) {
      asks('npx eslint', [argument], /changes files or loads code/);
      asks('eslint', [argument], /changes files or loads code/);
      asks('npm run lint', ['--', argument], /./);
    }
    allows('npx eslint', ['--max-warnings=0', '--fix-dry-run', 'src']);
  });

  it('Node\'s options after npm test -- load code, read configuration or write files', () => {
    for (const argument of [
      '--openssl-config=ossl.cnf', '--import=./x.mjs', '--loader=./x.mjs', '--experimental-loader', '--env-file=.env', '--env-file-if-exists=.env', '--inspect',
      '--inspect-brk=0', '--inspect-port=9230', '--inspect-wait', '--require=./x.js', '-r', '--experimental-config-file=x.json', '--snapshot-blob=x.blob',
      '--redirect-warnings=x', '--report-directory=x', '--diagnostic-dir=x', '--tls-keylog=x', '--cpu-prof', '--cpu-prof-name=README.md', '--cpu-prof-dir=x',
      '--heap-prof', '--heap-prof-dir=x', '--heapsnapshot-signal=SIGUSR2', '--heapsnapshot-near-heap-limit=1',
    ]) {
      asks('npm test', ['--', argument], /./);
      asks('node --test', [argument], /./);
    }
    allows('npm test', ['--', '--test-name-pattern=parser', '--test-only']);
  });
});

describe('riskyArgument: attacks on further arguments (2026-12-03)', () => {
  const asks = (rule: string, further: string[], why: RegExp): void => {
    assert.match(riskyArgument(rule.split(' '), further, programName)?.why ?? '', why, `${rule} ${further.join(' ')}`);
  };
  const allows = (rule: string, further: string[]): void => {
    assert.equal(riskyArgument(rule.split(' '), further, programName), undefined, `${rule} ${further.join(' ')}`);
  };

  // Each wrote a file or ran another build file's commands under the rule, unasked (an outside attack, really run).
  it('git apply --apply, file -C, cargo clippy --fix, ninja -f/-C/-t and gmake -f write files or run another build', () => {
    asks('git apply --check', ['--apply', 'x.patch'], /applies the patch/);
    asks('git apply --check', ['--ap', 'x.patch'], /applies the patch/);
    asks('file', ['-C', '-m', 'mymagic'], /writes files/);
    for (const further of [['--fix'], ['--fix', '--allow-dirty'], ['--allow-no-vcs']]) asks('cargo clippy', further, /changes the sources/);
    for (const further of [['-f', 'tools/other.ninja'], ['-C', 'elsewhere'], ['-t', 'clean']]) asks('ninja', further, /another build file|its tools/);
    asks('gmake', ['-f', 'tools/other.mk'], /another makefile/);
    allows('git apply --check', ['--stat', 'x.patch']);
    allows('file', ['-b', '-i', 'a.txt']);
    allows('cargo clippy', ['--all-targets', '--', '-D', 'warnings']);
    allows('ninja', ['-j', '4', '-v']);
  });

  it('git branch that deletes, moves, copies or sets an upstream changes the repository; listing does not', () => {
    for (const further of [['-D', 'work'], ['-d', 'work'], ['--delete', 'work'], ['-m', 'a', 'b'], ['-M', 'a', 'b'], ['-c', 'a', 'b'], ['-f', 'x'], ['-u', 'origin/x'], ['--set-upstream-to=o/x']]) {
      asks('git branch', further, /changes the repository|git's configuration/);
    }
    allows('git branch', ['-a', '-v', '--list', 'feature/*', '--merged', 'main']);
  });
});

describe('furtherArgumentsProblem', () => {
  it('refuses further arguments to programs whose arguments are code or run programs', () => {
    for (const rule of [
      'sed', 'awk', 'gawk', 'mawk', 'nawk', 'find', 'tar', 'curl', 'wget', 'ssh', 'scp', 'rsync', 'git config', 'git bisect', 'git submodule', 'git filter-branch',
      'git difftool', 'git mergetool', 'git hook', 'git daemon', 'git instaweb', 'git send-email', 'git credential', 'npm config', 'npm set', 'yarn config', 'pnpm config',
      'sqlite', 'zip', 'npm explore', 'docker container', 'docker compose', 'podman container', 'podman compose', 'uniq', 'xxd', 'unzip', 'git stash',
      'json.tool', 'zipfile', 'tarfile', 'gzip', 'compileall', 'py_compile', 'http.server', 'webbrowser',
    ]) {
      assert.equal(
        furtherArgumentsProblem(rule.split(' '), name),
        `further arguments to ${rule} can write files, run other programs or change its configuration; allow exact commands instead`,
        rule,
      );
    }
    for (const rule of ['git log', 'npm test', 'make check', 'git']) assert.equal(furtherArgumentsProblem(rule.split(' '), name), undefined, rule);
    // A Python module run as a program, by the name after -m.
    assert.match(furtherArgumentsProblem(['python3', '-m', 'json.tool'], name) ?? '', /further arguments to json\.tool can write files/);
  });
});
