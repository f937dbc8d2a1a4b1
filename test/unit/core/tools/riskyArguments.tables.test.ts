import assert from 'node:assert/strict';
import { programName } from '../../../../src/core/tools/commandAllowRules';
import { riskyArgument } from '../../../../src/core/tools/riskyArguments';

// The tables of riskyArguments.ts, option by option (riskyArguments.test.ts has the rules and the attacks that found them).
const runsAnother = 'runs another program';
const gitRunsWhy = 'runs another program: a merge strategy, an editor or gpg, which the repository\'s configuration can name';

describe('riskyArgument: every option a table names, and a harmless neighbour', () => {
  const found = (rule: string, further: string[]): string | undefined => riskyArgument(rule.split(' '), further, programName)?.why;
  const table = (rule: string, options: string[], why: string, harmless: string[]): void => {
    for (const option of options) assert.equal(found(rule, [option]), why, `${rule} ${option}`);
    assert.equal(found(rule, harmless), undefined, `${rule} ${harmless.join(' ')}`);
  };
  const every = 'writes files, reads configuration or runs another program';

  it('the common options, each also under its own name where options take one dash and are never abbreviated (Go)', () => {
    table('tool check', ['--experimental-default-config-file=x.json', '--report-filename=r.json', '--test-reporter=dot', '--env-file=.env', '--report-dir=r'], every, ['--verbose', 'src']);
    table(
      'go test',
      ['-test-reporter=dot', '-test-reporter-destination=r.txt', '-env-file=.env', '-env-file-if-exists=.env', '-report-dir=r', '-report-directory=r', '-report-filename=r.json'],
      every,
      // Go takes no abbreviation: `-env` is not `-env-file`.
      ['-env=ci', '-v', './...'],
    );
  });

  it('C compilers: a plugin, a wrapper, specs or a program\'s prefix runs another program, a response file reads more arguments', () => {
    const why = 'runs another program, reads more arguments from a file or writes files';
    for (const compiler of ['gcc', 'g++', 'cc', 'clang', 'clang++']) {
      // With one dash too, as gcc and clang spell them (an outside attack's `-wrapper sh,-c,id`, `-specs=x`, `-fplugin=./evil`).
      table(compiler, ['--fplugin=x.so', '--fplugin-arg-x-key=v', '--wrapper=sh', '--specs=x.specs', '--b', '--print-prog-name=ld', '-Bbin', '-Llib', '-ofile', '@opts',
        '-wrapper', '-specs=x.specs', '-fplugin=./evil.so', '-fplugin-arg-evil-x=1', '-print-prog-name=ld'], why, [
        '-c', '-Wall', '-O2', '-Iinclude', '--std=c11', '-fPIC', '-std=c11', 'main.c', 'wrapper.c', 'specs.txt',
      ]);
    }
  });

  it('javac, rspec, rake, tsc, pytest and go: the rest of their tables', () => {
    table('javac', ['--processor-path=lib', '--processor_path=lib', '--plugin=X', '--release=8', '-J-Xmx1g', '-d', '@sources.txt'], 'runs other code, reads more arguments or writes files', [
      '-g', '-Xlint:all', 'A.java',
    ]);
    table('rspec', ['--require=./x.rb', '--options=x', '--default-path=x', '--out=x', '-r', '-I', '-o'], 'loads code, reads other configuration or writes files', [
      '--format', 'documentation', '--tag', 'fast', 'spec/a_spec.rb',
    ]);
    table(
      'rake',
      ['--require=x', '--libdir=x', '--rakefile=x', '--rakelib=x', '--execute=x', '--execute-print=x', '--execute-continue=x', '-e', '-p', '-E', '-r', '-I', '-f', '-R'],
      'runs other code or another rakefile',
      ['test', '--trace', '-j', '4'],
    );
    table('tsc', ['--generateCpuProfile=x', '--generate-cpu-profile', '--init', '--outDir=x', '-p'], 'writes files or reads other configuration (or more arguments from a file)', [
      '--strict', '--pretty', 'false',
    ]);
    table('python -m pytest', ['--json-report-file=r.json', '--junit-xml=r.xml'], 'loads a plugin, reads other configuration or writes files', ['-q', '-k', 'parser']);
    table('go test', ['-test.fuzzcachedir=cache', '-fuzzcachedir=cache'], 'writes files or runs another program', ['-fuzz=FuzzX', '-fuzztime=10s']);
  });

  it('attack: linters, checkers, test runners and build tools found running code, installing or writing unasked under a rule ending in ...', () => {
    table('pylint src', ['--init-hook=import os'], 'runs other code', ['--disable=C0114', '-j', '2']);
    table('mypy src', ['--install-types'], 'writes files or runs another program', ['--strict', '--non-interactive']);
    table('markdownlint .', ['-r', '--rules=./rules.js', '-c'], 'loads code or reads other configuration', ['--ignore', 'node_modules', '-q']);
    table('stylelint src', ['--custom-formatter=./x.js', '--custom-syntax=./x.js', '--config-basedir=..'], 'loads code or reads other configuration', ['--quiet', 'a.css']);
    table('ruff check', ['--add-noqa'], 'changes files', ['src', '--select', 'E']);
    table('yq', ['-i', '-Pi'], 'changes files', ['.a', 'x.yml', '-P']);
    table('phpunit', ['--bootstrap=x.php', '--log-junit=README.md', '--coverage-html=src', '-d', '-c'],
      'runs other code, reads other configuration or writes files', ['--filter', 'testLogin', '--stop-on-failure']);
    table('ctest', ['-S', '--build-and-test', '-O', '--output-junit=README.md'], 'runs other code or writes files', [
      '-R', 'unit', '-j4', '--output-on-failure', '-V',
    ]);
    table('cmake --build build', ['--target', '-t', '--install', '-P', '-E'], 'builds another target, runs other code or installs', ['--parallel', '4', '-j', '4']);
    table('swift test', ['-Xswiftc', '-Xlinker', '--scratch-path=/tmp/x'], 'runs other code or builds elsewhere', ['--filter', 'ParserTests', '--parallel']);
    table('flutter test', ['--update-goldens', '--file-reporter=json:README.md'], 'changes or writes files', ['--coverage', 'test/a_test.dart']);
    table('npm audit', ['fix'], 'changes the package files and installs packages', ['--json', '--omit=dev']);
    table('docker ps', ['-H', '--host=tcp://x', '--context=prod'], 'talks to another Docker daemon', ['-a', '--format', '{{.Names}}']);
    table('gh api repos/o/r', ['-X', '--method=PATCH', '-f', '-F', '--input=body.json'], 'changes things on GitHub or reads a file', [
      '--jq', '.name', '--paginate',
    ]);
    table('rg', ['-u', '-uu', '-.', '--hidden', '--no-ignore', '--no-ignore-vcs', '--unrestricted', '--pre=sh', '--hostname-bin=sh'],
      'runs another program on each file or for its links, or reads hidden and ignored files (.env) that tools keep from the model', [
        '-i', '-n', '-tpy', '-g', '*.ts', '--glob=!*.lock', 'TODO',
      ]);
    table('grep', ['-r', '-rn', '-R', '-d', '--recursive', '--dereference-recursive', '--directories=recurse', '--pre-glob=x'],
      'runs another program on each file, or reads every file of a folder, the ones tools keep from the model (.env) too', [
        '-i', '-n', '-l', '-E', '-w', '-e', 'TODO', 'src/a.ts',
      ]);
    table('git grep', ['--untracked', '--no-exclude-standard'], 'reads untracked files, where secrets tools keep from the model (.env) usually are', [
      '-n', '-i', '-w', '--heading', 'TODO',
    ]);
    table('vitest run', ['--api', '--api.port=5173'], 'loads code, reads configuration or writes files', ['--bail=1', 'src/a.test.ts']);
  });

  it('pip --python runs another interpreter and --log writes where it says; less runs a word starting with +', () => {
    table('pip install', ['--python=python3.12', '--py=x', '--log=pip.log', '--log-file=pip.log'], 'runs another program or writes files', ['--quiet', '--user', 'requests']);
    table('pip list', ['--log=pip.log'], 'runs another program or writes files', ['-e', '--outdated']);
    table('less', ['+!id', '+G'], runsAnother, ['-S', '-R', 'c++/notes.md']);
  });

  it('the short options of sdiff, diff3, kubectl and git notes are their own, and only the listed git notes subcommands open an editor', () => {
    table('sdiff', ['--diff-program=sh'], runsAnother, ['-s', '-w', '80', 'a', 'b']);
    table('diff3', ['--diff-program=sh'], runsAnother, ['-a', '-m', 'a', 'b', 'c']);
    table(
      'kubectl get',
      [
        '--kubeconfig=x', '--server=https://x', '-s', '--token=t', '--context=c', '--cluster=c', '--user=u', '--as=admin', '--as-group=g', '--as-uid=1',
        '--certificate-authority=ca.pem', '--client-key=k', '--insecure-skip-tls-verify',
      ],
      'reads another configuration, which can run a program, or sends its credentials to another server',
      ['pods', '-w', '-A'],
    );
    table('git notes', ['add', 'append', 'edit', 'copy', 'merge', 'remove', 'prune'], 'runs an editor or changes the repository', ['show', 'add-parser', 'quick-edit', 'appended', 'list']);
    table('git remote', ['add', 'set-url', 'rename', 'remove', 'rm', 'prune', 'update', 'set-head', 'set-branches'], "changes the repository's configuration", [
      '-v',
      'show',
      'get-url',
      'origin',
      'address-book',
      'upstream-add',
    ]);
  });

  it('linters, formatters and checkers: their rewriting of the sources, plugins and reports ask; checking does not (an outside attack)', () => {
    table('ruff check', ['--fix', '--unsafe-fixes'], every, ['--select', 'E', '--fixed-strings']);
    table('isort --check-only', ['--overwrite-in-place'], every, ['--diff']);
    table('biome check', ['--write'], every, ['--verbose']);
    table('rubocop', ['-a', '-A', '-x'], 'changes files', ['--format', 'simple']);
    for (const option of ['--autocorrect-all', '--auto-correct', '--fix-layout', '--fix']) assert.equal(found('rubocop', [option]), every, option);
    assert.equal(found('autopep8', ['--in-place', 'app.py']), every);
    table(
      'mypy',
      [
        '--html-report', '--linecount-report', '--lineprecision-report', '--any-exprs-report', '--cobertura-xml-report', '--xml-report', '--txt-report',
        '--xslt-txt-report', '--python-executable=p',
      ],
      'writes files or runs another program',
      ['--strict', '--show-error-codes'],
    );
    assert.equal(found('mypy', ['--junit-xml', 'README.md']), every);
    assert.equal(found('mypy', ['--cache-dir', 'src']), every);
    table('pylint', ['--load-plugins=p'], every, ['--disable=C0114']);
    table('gofmt -l', ['-w'], 'changes files', ['-d', '-s']);
    table('shfmt -d', ['-w'], 'changes files', ['-i', '2']);
    table('clang-format --dry-run', ['-i'], 'changes files', ['--Werror']);
    table('terraform fmt -check', ['-write=true', '-chdir=x'], 'writes files or works elsewhere', ['-diff', '-recursive', '-h']);
    table('terraform plan', ['-out=plan.bin', '-state-out=s', '-backup=b', '-plugin-dir=p'], 'writes files or works elsewhere', ['-input=false', '-lock=false']);
    // `go env -w` writes the user's go configuration, `go get -u` go.mod: under a rule `go ...` they ask.
    table('go', ['-w', '-u'], 'writes files or runs another program', ['env', 'GOPATH', 'list', '-m']);
    // Options of one dash are not abbreviations: `go test -a` is not `--autocorrect`.
    assert.equal(found('go test', ['-a', '-run', 'TestX', '-count=1']), undefined);
  });

  it('an option of an option (vitest\'s dotted ones) is judged by its own name and the one it belongs to', () => {
    assert.equal(found('vitest run', ['--coverage.reportsDirectory=src']), 'loads code, reads configuration or writes files');
    assert.equal(found('vitest run', ['--outputFile.json=README.md']), every);
    assert.equal(found('npm test', ['--', '--coverage.enabled']), 'loads code, reads configuration or writes files');
    assert.equal(found('vitest run', ['--passWithNoTests', '--bail.x']), undefined);
  });

  it('git am, commit-tree and tag run an editor or gpg; git\'s ext:: transport only as a whole URL', () => {
    table('git am', ['-i', '-S'], gitRunsWhy, ['-3', '-s', '--signoff', 'fix.patch']);
    table('git commit-tree', ['-S'], gitRunsWhy, ['-p', 'HEAD', '-m', 'x', 'HEAD^{tree}']);
    table('git tag', ['--verify', '-v', '-a', '-s', '-e', '-u', '-d', '--delete', '-f', '--force'], 'runs another program (an editor or gpg) or changes the repository', [
      '-l',
      'v*',
      '--sort=-creatordate',
    ]);
    table('git rebase', ['-i', '-S', '-s'], gitRunsWhy, ['--onto', 'main', '--autostash']);
    assert.match(found('git fetch', ['ext::sh -c id']) ?? '', /runs another program/);
    assert.equal(found('git log', ['--grep', 'fetch over ext::sh']), undefined);
  });
});

// The repeated-option rule at its edges: every spelling of an option the rule's words set asks, and nothing else does.
describe('riskyArgument: an option the rule sets, given again', () => {
  const repeats = 'sets again an option the rule\'s own words set (it can undo what the rule fixed)';
  const cases: [rule: string, further: string[], asks: boolean][] = [
    // --opt, --opt=v, --opt v, an abbreviation, case and dashes
    ['git log --no-merges', ['--no-merges'], true],
    ['git log --max-count=5', ['--max-count=500'], true],
    ['git log --max-count=5', ['--max-count', '500'], true],
    ['git log --max-count=5', ['--max', '500'], true],
    ['git log --max-count=5', ['--MAX_COUNT=500'], true],
    // --no-opt undoes --opt, and --opt undoes --no-opt; another option starting with no does neither
    ['git log --merges', ['--no-merges'], true],
    ['git log --no-merges', ['--merges'], true],
    ['git log --no-merges', ['--no-color'], false],
    // only a leading no is dropped, nothing else: --all is not --follow without its first letters
    ['git log --follow', ['--all', '--', 'src/a.ts'], false],
    ['git log --relative-date', ['--all'], false],
    // a short name of length 2 is its letter, case kept, also first in a cluster or with its value attached
    ['git log -n 5', ['-n', '50'], true],
    ['git log -n 5', ['-n50'], true],
    ['git log -n 5', ['-N'], false],
    ['git log -n 5', ['-p'], false],
    // a short option is no abbreviation of a long one
    ['git log --name-only', ['-n', '5'], false],
    // a single-dash long name (tsc takes -strict for --strict) is a long name, also in a rule
    ['tsc --strict', ['-strict', 'false'], true],
    ['tsc -strict', ['--strict=false'], true],
    // Go: either dash count, never abbreviated by a short name
    ['go test -count=1', ['--count=5'], true],
    ['go test -count=1', ['-count', '5'], true],
    ['go test -count=1', ['-cover'], false],
    ['go test -count=1', ['-no'], false],
    // words that set no option: a lone -, --, dashes alone
    ['paste -', ['-', '-'], false],
    ['git log --oneline', ['--', 'src'], false],
    ['git log --oneline', ['--grep', '---'], false],
  ];

  it('asks about each spelling of an option the rule sets, and about nothing else', () => {
    for (const [rule, further, asks] of cases) {
      assert.deepEqual(riskyArgument(rule.split(' '), further, programName)?.why, asks ? repeats : undefined, `${rule} ${further.join(' ')}`);
    }
  });
});
