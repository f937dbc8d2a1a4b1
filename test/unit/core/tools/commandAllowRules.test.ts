import assert from 'node:assert/strict';
import { shownCommandWord } from '../../../../src/core/tools/commandApprovalText';
import { namesPathOutside } from '../../../../src/core/tools/riskyArguments';
import fc from 'fast-check';
import {
  allowRuleLimits,
  allowRuleMeaning,
  allowRuleOfCommandLine,
  allowRuleProblem,
  argumentLeftToAsk,
  describeAllowRule,
  furtherArguments,
  matchingAllowRule,
  readAllowRules,
  sameAllowRule,
  type CommandAllowRule,
} from '../../../../src/core/tools/commandAllowRules';

const npmTest: CommandAllowRule = ['npm', 'test'];
const allows = (rules: CommandAllowRule[], argv: string[], cwd = '', shell = false): boolean => matchingAllowRule(rules, { argv, cwd, shell }) !== undefined;

describe('command allow rules', () => {
  describe('matchingAllowRule', () => {
    it('allows the exact command only, and returns the rule that allowed it', () => {
      assert.equal(matchingAllowRule([['make', 'lint'], npmTest], { argv: ['npm', 'test'], cwd: '', shell: false }), npmTest);
      assert.equal(allows([npmTest], ['npm', 'test', '--', '--grep', 'x']), false);
      assert.equal(allows([npmTest], ['npm', 'test', '']), false);
      assert.ok(allows([npmTest], ['npm', 'test'], 'packages/app'), 'any folder of the workspace');
    });

    it('G1: rules saved as `git log`, `git diff`, `git status`, `npm test` never let options after them write files or swap the program', () => {
      const saved: CommandAllowRule[] = [['git', 'log'], ['git', 'diff'], ['git', 'status'], ['npm', 'test']];
      for (const argv of [
        ['git', 'log', '-1', '--format=%H', '--output=../outside/x'],
        ['git', 'log', '--output=.git/config'],
        ['git', 'diff', '--no-index', '--output=/home/user/.bashrc', 'a', 'b'],
        ['npm', 'test', '--prefix', 'sub/evil'],
        ['npm', 'test', '--script-shell=/usr/bin/printf'],
        ['git', 'status', '--porcelain'],
      ]) {
        assert.equal(allows(saved, argv), false, JSON.stringify(argv));
        // From the trial: the question said nothing of why an allowed-looking command asks; it names the first word past the rule.
        const rule = argv.slice(0, 2).join(' ');
        assert.equal(
          argumentLeftToAsk(saved, { argv, cwd: '', shell: false }),
          `the rule "${rule}" does not cover ${shownCommandWord(argv[2] ?? '')}, which comes after the words the rule allows exactly (a rule ending in ... allows further arguments)`,
        );
      }
      assert.equal(argumentLeftToAsk(saved, { argv: ['git', 'status'], cwd: '', shell: false }), undefined, 'allowed: nothing to explain');
      assert.equal(argumentLeftToAsk(saved, { argv: ['git'], cwd: '', shell: false }), undefined, 'shorter than every rule: none comes close');
      assert.ok(allows(saved, ['git', 'status']));
    });

    it('G1: a rule ending in ... allows further arguments, but never those that write files, read configuration or run another program', () => {
      const rules: CommandAllowRule[] = [['git', 'log', '...'], ['git', 'diff', '...'], ['npm', 'test', '...']];
      for (const argv of [['git', 'log'], ['git', 'log', '-1', '--oneline', '--', 'src'], ['git', 'diff', '--stat'], ['npm', 'test'], ['npm', 'test', '--', '--grep', 'x y']]) {
        assert.ok(allows(rules, argv), JSON.stringify(argv));
      }
      for (const argv of [
        ['git', 'log', '-1', '--format=%H', '--output=../outside/x'],
        ['git', 'log', '--output', '.git/config'],
        ['git', 'log', '--outp=.git/config'],
        ['git', 'log', '-p', '--ext-diff'],
        ['git', 'diff', '--no-index', '--output=/tmp/x', 'a', 'b'],
        ['git', 'diff', '--textconv'],
        ['npm', 'test', '--prefix', 'sub/evil'],
        ['npm', 'test', '--pref=sub/evil'],
        ['npm', 'test', '--script-shell=/usr/bin/printf'],
        ['npm', 'test', '--scriptShell', '/usr/bin/printf'],
        ['npm', 'test', '--script_shell=/usr/bin/printf'],
        ['npm', 'test', '--', '--require', './evil.js'],
        ['npm', 'test', '-C', 'sub/evil'],
        ['npm', 'test', '--userconfig=./npmrc'],
        ['npm', 'test', '--node-options=--require=./evil.js'],
      ]) {
        assert.equal(allows(rules, argv), false, JSON.stringify(argv));
      }
      assert.equal(allows([['npm', 'test', '...']], ['npm', 'test'], '', true), false, 'never through a shell');
      assert.equal(allows([['npm', 'test', '...']], ['npm', 'tests']), false);
      assert.equal(allows([['npm', 'test', '...']], ['npm']), false);
      assert.ok(allows([['make', '-C', 'sub', '...']], ['make', '-C', 'sub', 'check']), 'the rule\'s own words are what the user allowed');
      assert.equal(allows([['make', '-C', 'sub', '...']], ['make', '-C', 'sub', '-C', 'other']), false);
    });

    it('says which argument keeps a rule ending in ... from allowing a command, and what it does', () => {
      const command = (argv: string[]) => ({ argv, cwd: '', shell: false });
      assert.equal(
        argumentLeftToAsk([['make', 'lint'], ['npm', 'test', '...']], command(['npm', 'test', '--prefix', 'x'])),
        'the rule "npm test ..." does not cover --prefix, which runs another package\'s script, another program or reads other configuration',
      );
      assert.equal(
        argumentLeftToAsk([['git', 'log', '...']], command(['git', 'log', '--output=a b'])),
        'the rule "git log ..." does not cover "--output=a b", which writes files, changes or reads git\'s configuration, reads files outside the repository, or runs another program',
      );
      assert.equal(argumentLeftToAsk([['npm', 'test', '...']], command(['npm', 'test', '--grep'])), undefined, 'allowed: nothing to explain');
      assert.equal(argumentLeftToAsk([['npm', 'test', '...'], ['npm', 'test', '--prefix', 'x']], command(['npm', 'test', '--prefix', 'x'])), undefined, 'another rule allows it');
      assert.equal(argumentLeftToAsk([['npm', 'test', '...']], command(['npm', 'run', '--prefix'])), undefined, 'no rule comes close');
      assert.equal(argumentLeftToAsk([['npm', 'test', '...']], { argv: ['npm', 'test', '-o'], cwd: '', shell: true }), undefined, 'through a shell no rule applies');
      assert.equal(argumentLeftToAsk([['bash', '...']], command(['bash', '-o'])), undefined, 'a refused rule never applies');
    });

    it('never allows what only looks like the prefix', () => {
      for (const argv of [
        ['npm', 'testx'],
        ['npm'],
        ['npm', 'test;rm', '-rf', '.'],
        ['npm', 'test ;', 'rm'],
        ['npm', ' test'],
        ['npm', 'test '],
        ['npm test'],
        ['NPM', 'test'],
        ['npm', 'Test'],
        ['npm', 'tеst'], // Cyrillic е
        ['npm', 'te\u200bst'], // zero-width space
        ['npm', 'test\u0000'],
        ['ｎｐｍ', 'test'], // full-width letters
        ['npm', 'te\u0301st'],
        ['./npm', 'test'],
        ['/tmp/npm', 'test'],
        ['sh', '-c', 'npm test'],
        ['bash', '-c', 'npm test; rm -rf .'],
        ['env', 'npm', 'test'],
        ['npm', 'run', 'test'],
      ]) {
        assert.equal(allows([npmTest], argv), false, JSON.stringify(argv));
      }
    });

    it('never allows a command run through a shell', () => {
      assert.equal(allows([npmTest], ['npm', 'test'], '', true), false);
    });

    it('allows a relative program path only in the workspace folder, where it leads to the file the rule names', () => {
      const gradlew: CommandAllowRule = ['./gradlew', 'test'];
      assert.ok(allows([gradlew], ['./gradlew', 'test']));
      assert.equal(allows([gradlew], ['./gradlew', 'test'], 'sub'), false);
      assert.equal(allows([['bin\\test.cmd']], ['bin\\test.cmd'], 'sub'), false);
      assert.ok(allows([['/usr/bin/make', 'check']], ['/usr/bin/make', 'check'], 'sub'), 'an absolute path leads to the same file from every folder');
      assert.ok(allows([['C:\\tools\\make.exe', 'check']], ['C:\\tools\\make.exe', 'check'], 'sub'));
    });

    it('ignores a rule that could not be made (empty, a bare shell), whatever its source', () => {
      assert.equal(allows([[]], ['rm', '-rf', '.']), false);
      assert.equal(allows([['bash']], ['bash', '-c', 'rm -rf .']), false);
      assert.equal(allows([['sh', '-c']], ['sh', '-c', 'anything']), false);
      assert.equal(allows([], ['npm', 'test']), false);
    });

    it('property: a command is allowed exactly when its argv is a valid rule, word for word', () => {
      const word = fc.oneof(fc.constantFrom('npm', 'test', 'run', '--', 'x', 'Test', 'tеst', 'test;rm', ''), fc.string({ maxLength: 6 })).filter((w) => w !== furtherArguments);
      fc.assert(
        fc.property(fc.array(fc.array(word, { maxLength: 4 }), { maxLength: 4 }), fc.array(word, { maxLength: 6 }), (rules, argv) => {
          const expected = rules.some(
            (rule) => allowRuleProblem(rule) === undefined && rule.length === argv.length && rule.every((w, i) => argv[i] === w) && !/[/\\]/.test(rule[0] ?? ''),
          );
          const found = matchingAllowRule(rules, { argv, cwd: 'sub', shell: false });
          assert.equal(found !== undefined, expected);
          if (found) assert.ok(rules.some((rule) => rule === found));
          assert.equal(matchingAllowRule(rules, { argv, cwd: 'sub', shell: true }), undefined);
        }),
      );
    });

    it('refuses further arguments after a word that names a program they would reach, even as an argument (make a sed ...)', () => {
      // Found by the property below (seed 1590766821): the rule cannot tell a make target named sed from sed.
      assert.match(allowRuleProblem(['make', 'a', 'sed', furtherArguments]) ?? '', /further arguments to sed can write files, run other programs/);
      assert.equal(allowRuleProblem(['make', 'a', 'sed']), undefined);
      assert.equal(allows([['make', 'a', 'sed', furtherArguments]], ['make', 'a', 'sed']), false);
      assert.ok(allows([['make', 'a', 'sed']], ['make', 'a', 'sed']));
    });

    it('property: changing any word of an allowed command within the rule\'s prefix makes it not allowed', () => {
      fc.assert(
        fc.property(
          fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 2, maxLength: 4 }),
          fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
          fc.nat(),
          fc.string({ minLength: 1, maxLength: 3 }),
          (words, extra, at, change) => {
            // Not a build tool: its further words would be more targets, which ask (riskyArguments.test.ts).
            const rule = ['tool', ...words];
            // Both forms must be rules: "tool a sed ..." is refused (further arguments after a word that names sed).
            fc.pre(allowRuleProblem(rule) === undefined && allowRuleProblem([...rule, furtherArguments]) === undefined);
            assert.ok(allows([rule], rule));
            assert.ok(allows([[...rule, furtherArguments]], [...rule, ...extra.filter((word) => !/^-|=/.test(word) && !namesPathOutside(word))]));
            assert.equal(allows([rule], [...rule, 'x', ...extra]), false, 'an exact rule allows no further argument');
            const index = at % rule.length;
            const changed = [...rule];
            changed[index] = `${rule[index] ?? ''}${change}`;
            assert.equal(allows([rule], changed), false);
            assert.equal(allows([[...rule, furtherArguments]], [...changed, ...extra]), false);
          },
        ),
      );
    });
  });

  describe('attacks on the GitHub Action\'s allow-commands (2026-12-01)', () => {
    const command = (argv: string[]) => ({ argv, cwd: '', shell: false });

    it('refuses further arguments to programs whose arguments run code: sqlite3 .shell, zip -TT, npm explore, a container run', () => {
      for (const rule of [['sqlite3', 'app.db', '...'], ['zip', '-r', 'out.zip', 'src', '...'], ['npm', 'explore', 'dep', '...'], ['docker', 'container', 'run', '...'],
        ['docker', 'compose', 'run', '...'], ['podman', 'container', 'run', '...']]) {
        assert.match(allowRuleProblem(rule) ?? '', /further arguments to .* can write files, run other programs/, rule.join(' '));
      }
      assert.equal(allowRuleProblem(['sqlite3', 'app.db', '.tables']), undefined, 'an exact command stays allowed');
    });

    it('asks for a test reporter, an env file or a list of file names after an allowed prefix (npm test ... ran code through node --test)', () => {
      const rules = [['npm', 'test', '...'], ['sort', '...']];
      for (const argv of [
        ['npm', 'test', '--', '--test-reporter=data:text/javascript,x'], ['npm', 'test', '--', '--test-reporter', 'x.mjs'], ['npm', 'test', '--', '--env-file=.env.evil'],
        ['sort', '--files0-from=list0'], ['sort', '--files-from', 'list'],
      ]) {
        assert.equal(matchingAllowRule(rules, command(argv)), undefined, argv.join(' '));
      }
      assert.deepEqual(matchingAllowRule(rules, command(['npm', 'test', '--', '--grep', 'parser'])), ['npm', 'test', '...']);
    });
  });

  describe('attacks on further arguments (2026-12-02)', () => {
    const command = (argv: string[]) => ({ argv, cwd: '', shell: false });
    const cases: [rule: string[], argv: string[], why: RegExp][] = [
      // sort ran each line of data.txt through sh; tsc wrote a.js; node --test loaded a native module named by an OpenSSL configuration.
      [['sort', '...'], ['sort', '-S', '1K', '--compress-program=sh', 'data.txt'], /--compress-program=sh, which runs another program/],
      [['tsc', '--noEmit', '...'], ['tsc', '--noEmit', '--noEmit', 'false'], /--noEmit, which sets again an option the rule's own words set/],
      [['npm', 'test', '...'], ['npm', 'test', '--', '--openssl-config=ossl.cnf'], /--openssl-config=ossl.cnf, which writes files, reads configuration or runs another program/],
      [['/usr/bin/diff3', '...'], ['/usr/bin/diff3', '--diff-program=sh', 'a', 'b', 'c'], /runs another program/],
    ];
    for (const [rule, argv, why] of cases) {
      it(`asks for ${argv.join(' ')} under the rule "${rule.join(' ')}", and says why`, () => {
        assert.equal(allowRuleProblem(rule), undefined);
        assert.equal(matchingAllowRule([rule], command(argv)), undefined);
        assert.match(argumentLeftToAsk([rule], command(argv)) ?? '', why);
      });
    }

    it('still allows what repeats nothing and runs nothing under those rules', () => {
      const allowed: [rule: string[], argv: string[]][] = [
        [['sort', '...'], ['sort', '-n', '-S', '1K', 'data.txt']],
        [['tsc', '--noEmit', '...'], ['tsc', '--noEmit', '--strict', '--pretty', 'false']],
        [['npm', 'test', '...'], ['npm', 'test', '--', '--test-name-pattern=parser']],
        [['diff3', '...'], ['diff3', '-m', 'a', 'b', 'c']],
      ];
      for (const [rule, argv] of allowed) {
        assert.deepEqual(matchingAllowRule([rule], command(argv)), rule, argv.join(' '));
      }
    });
  });

  describe('allowRuleProblem', () => {
    it('accepts specific commands', () => {
      for (const rule of [['npm', 'test'], ['npm', 'run', 'lint'], ['make'], ['git', 'status'], ['node', 'scripts/check.js'], ['python', '-m', 'pytest'], ['python3.12', 'manage.py', 'test'], ['java', '-jar', 'app.jar'], ['npx', 'eslint'], ['npm', 'exec', 'eslint'], ['cargo', 'test'], ['bash', './ci.sh'], ['go', 'test', './...']]) {
        assert.equal(allowRuleProblem(rule), undefined, JSON.stringify(rule));
      }
    });

    it('refuses a blanket rule: empty, a wrapper, a bare shell or interpreter, a runner without what it runs', () => {
      assert.equal(allowRuleProblem([]), 'an empty rule would allow every command');
      assert.equal(allowRuleProblem(['sudo', 'npm', 'test']), 'the rule "sudo npm test" starts with sudo, which runs whatever command follows it; allow that command itself instead');
      assert.equal(allowRuleProblem(['node']), 'the rule "node" would let node run any code; name what it runs as well (its script, module, package or subcommand)');
      for (const rule of [
        ['sh'], ['bash', '-c'], ['/bin/bash'], ['BASH.EXE'], ['cmd.exe', '/c'].slice(0, 1), ['pwsh', '-Command'], ['node', '-e'], ['node', '--eval'], ['python'], ['python3', '-c'],
        ['python', '-m'], ['py', '-m'], ['perl', '-e'], ['ruby'], ['npx'], ['npx', '-y'], ['pnpx'], ['bunx'], ['uvx'], ['java', '-jar'], ['npm'], ['npm', 'exec'], ['npm', 'x'],
        ['npm', 'exec', '--', 'x'].slice(0, 3), ['pnpm', 'dlx'], ['yarn'], ['yarn', 'dlx'], ['bun'], ['bun', 'x'], ['deno', 'eval'], ['deno', 'run', '-A'], ['uv', 'run'],
        ['git'], ['git', '-c'], ['go', 'run'], ['env'], ['xargs', 'rm'], ['nohup', 'make'], ['timeout', '5', 'make'], ['/usr/bin/env', 'node'],
      ]) {
        assert.notEqual(allowRuleProblem(rule), undefined, JSON.stringify(rule));
      }
    });

    it('refuses every wrapper as a rule\'s program, whatever follows it', () => {
      const wrappers = ['env', 'sudo', 'doas', 'su', 'runuser', 'pkexec', 'xargs', 'nohup', 'timeout', 'nice', 'ionice', 'time', 'exec', 'command', 'builtin',
        'eval', 'strace', 'ltrace', 'watch', 'chroot', 'setsid', 'unshare', 'nsenter', 'flock', 'stdbuf', 'taskset', 'busybox', 'start', 'script',
        // An outside attack on the GitHub Action's allow-commands ran perl through each of the first two.
        'prlimit', 'setpriv', 'chrt', 'xvfb-run', 'firejail', 'bwrap', 'proot', 'fakeroot', 'systemd-run', 'unbuffer', 'faketime', 'dbus-run-session',
        'ssh-agent', 'parallel', 'valgrind', 'catchsegv', 'sg', 'schroot', 'cross-env', 'env-cmd', 'dotenv', 'concurrently', 'watchexec', 'entr',
        // A second attack ran perl under setarch, linux64 and perf stat, a shell from gdb -ex, vim -c and ed.
        'setarch', 'linux32', 'linux64', 'perf', 'gdb', 'lldb', 'eatmydata', 'numactl', 'mpirun', 'mpiexec', 'hyperfine', 'dbus-launch', 'wsl', 'tmux',
        'screen', 'vim', 'vi', 'nvim', 'ed', 'ex', 'emacs'];
      for (const wrapper of wrappers) {
        assert.equal(allowRuleProblem([wrapper, 'make', 'check']), `the rule "${wrapper} make check" starts with ${wrapper}, which runs whatever command follows it; allow that command itself instead`);
      }
    });

    it('refuses every shell and interpreter without its script, and accepts it with one', () => {
      const interpreters = ['sh', 'bash', 'zsh', 'fish', 'dash', 'ksh', 'mksh', 'csh', 'tcsh', 'ash', 'pwsh', 'powershell', 'cmd', 'node', 'nodejs',
        'python', 'py', 'pypy', 'perl', 'ruby', 'php', 'lua', 'luajit', 'tclsh', 'wish', 'rscript', 'osascript', 'wscript', 'cscript', 'java', 'npx', 'pnpx', 'bunx', 'uvx',
        // tsx ran `-p "require('child_process')…"` under an allowed "tsx ..." (outside attack); R as Rscript's sibling.
        'tsx', 'ts-node', 'ts-node-esm', 'R', 'julia', 'awk', 'gawk', 'mawk', 'nawk', 'groovy', 'jshell', 'elixir', 'escript', 'racket', 'guile',
        'rbash', 'ipython', 'irb', 'bpython'];
      for (const interpreter of interpreters) {
        assert.equal(allowRuleProblem([interpreter]), `the rule "${interpreter}" would let ${interpreter} run any code; name what it runs as well (its script, module, package or subcommand)`);
        assert.match(allowRuleProblem([interpreter, '-e', 'x']) ?? '', /would let/, interpreter);
        assert.equal(allowRuleProblem([interpreter, 'tool.script', '-e']), undefined, interpreter);
      }
      for (const [program, option] of [['python', '-m'], ['py', '-m'], ['pypy', '-m'], ['java', '-jar']] as const) {
        assert.match(allowRuleProblem([program, option]) ?? '', /would let/);
        assert.match(allowRuleProblem([program, option, '-x']) ?? '', /would let/);
        assert.equal(allowRuleProblem([program, option, 'named']), undefined);
      }
      assert.match(allowRuleProblem(['node', '-m', 'x']) ?? '', /would let node run any code/, 'only the options that name a module or a jar');
      assert.match(allowRuleProblem(['java', '-m', 'x']) ?? '', /would let java run any code/);
    });

    it('refuses every runner without its subcommand, and a subcommand that runs anything without what it runs', () => {
      const runners: Record<string, string[]> = {
        // npm's and yarn's own script `env` runs any program: "npm run ..." ran `npm run env -- perl -e …` (outside attack).
        npm: ['exec', 'x', 'run', 'run-script', 'rum', 'urn'], pnpm: ['exec', 'dlx', 'run'], yarn: ['exec', 'dlx', 'node', 'run'], bun: ['x', 'exec', 'run', 'eval'],
        deno: ['run', 'eval', 'x', 'repl'], uv: ['run', 'tool'], pipx: ['run'], poetry: ['run'], pipenv: ['run'], git: [], cargo: [], go: ['run'], dotnet: ['exec', 'run'],
        docker: ['run', 'exec', 'container', 'compose'], podman: ['run', 'exec', 'container', 'compose'], bundle: ['exec'],
      };
      for (const [runner, subcommands] of Object.entries(runners)) {
        assert.match(allowRuleProblem([runner]) ?? '', /would let/, runner);
        assert.match(allowRuleProblem([runner, '--flag']) ?? '', /would let/, runner);
        assert.equal(allowRuleProblem([runner, 'test']), undefined, runner);
        for (const subcommand of subcommands) {
          assert.match(allowRuleProblem([runner, subcommand]) ?? '', /would let/, `${runner} ${subcommand}`);
          assert.match(allowRuleProblem([runner, subcommand, '-y']) ?? '', /would let/, `${runner} ${subcommand} -y`);
          assert.equal(allowRuleProblem([runner, subcommand, 'named']), undefined, `${runner} ${subcommand} named`);
        }
      }
    });

    it('compares program names by their last path part, without case, a trailing Windows extension or version', () => {
      for (const program of ['/usr/bin/bash', 'C:\\Windows\\cmd.exe', 'BASH.EXE', 'node.CMD', 'x.bat'.replace('x', 'perl'), 'ruby.com', 'pwsh.ps1', 'python3.12', 'Python3']) {
        assert.match(allowRuleProblem([program]) ?? '', /would let/, program);
      }
      for (const program of ['no.exede', 'no1de', 'bashful', 'pythonic', 'shx']) {
        assert.equal(allowRuleProblem([program]), undefined, program);
      }
    });

    it('refuses a padded or empty program, invisible characters and oversized rules', () => {
      assert.match(allowRuleProblem([' npm', 'test']) ?? '', /needs a program name without spaces around it/);
      assert.match(allowRuleProblem(['', 'test']) ?? '', /needs a program name/);
      assert.equal(allowRuleProblem(['npm', 'test\u202e']), 'the rule "npm "test\\u202e"" contains an invisible character (a control, a direction mark, or one that shows nothing)');
      assert.match(allowRuleProblem(['npm', 'te\nst']) ?? '', /invisible character/);
      assert.match(allowRuleProblem(['make', ...Array<string>(allowRuleLimits.words).fill('x')]) ?? '', /more than 64 words/);
      assert.equal(allowRuleProblem(['make', ...Array<string>(allowRuleLimits.words - 1).fill('x')]), undefined, 'exactly 64 words');
      assert.match(allowRuleProblem(['make', 'x'.repeat(allowRuleLimits.wordChars + 1)]) ?? '', /a word longer than 1000 characters/);
      assert.equal(allowRuleProblem(['make', 'x'.repeat(allowRuleLimits.wordChars)]), undefined, 'exactly 1000 characters');
      assert.match(allowRuleProblem([' ', 'x']) ?? '', /needs a program name/);
      assert.ok((allowRuleProblem(['make', 'x'.repeat(allowRuleLimits.wordChars + 1)]) ?? '').length < 500, 'the message stays short');
    });
  });

  describe('rules ending in ...', () => {
    it('accept ... only as the last word, after a program and what it must name', () => {
      for (const rule of [['npm', 'test', '...'], ['make', '...'], ['git', 'log', '...'], ['python', '-m', 'pytest', '...'], ['node', 'build.js', '...']]) {
        assert.equal(allowRuleProblem(rule), undefined, JSON.stringify(rule));
      }
      assert.equal(allowRuleProblem(['...']), 'the rule "..." may have "..." only as its last word, after the program and its arguments');
      assert.equal(allowRuleProblem(['npm', '...', 'test']), 'the rule "npm ... test" may have "..." only as its last word, after the program and its arguments');
      assert.equal(allowRuleProblem(['make', '...', '...']), 'the rule "make ... ..." may have "..." only as its last word, after the program and its arguments');
      for (const rule of [['npm', '...'], ['git', '...'], ['python', '-m', '...'], ['node', '...'], ['npx', '...'], ['sudo', '...']]) {
        assert.notEqual(allowRuleProblem(rule), undefined, JSON.stringify(rule));
      }
      assert.equal(
        allowRuleProblem(['git', 'config', '...']),
        'the rule "git config ...": further arguments to git config can write files, run other programs or change its configuration; allow exact commands instead',
      );
      assert.equal(allowRuleProblem(['/usr/bin/SED', '...']), 'the rule "/usr/bin/SED ...": further arguments to sed can write files, run other programs or change its configuration; allow exact commands instead');
      assert.equal(allowRuleProblem(['git', 'config', '--list']), undefined, 'an exact rule may name any command');
      assert.equal(allows([['sed', '...']], ['sed', 's/x/y/e']), false);
      assert.ok(allows([['/usr/bin/Make3', '...']], ['/usr/bin/Make3', 'check']));
      assert.equal(allows([['/usr/bin/Make3', '...']], ['/usr/bin/Make3', 'SHELL=/tmp/evil']), false, 'the program is known by its name');
    });

    it('read from the setting and a typed command line like any other word', () => {
      assert.deepEqual(readAllowRules(['npm test ...', ['git', 'log', '...']], 'x'), { rules: [['npm', 'test', '...'], ['git', 'log', '...']], problems: [] });
      assert.deepEqual(allowRuleOfCommandLine('npm test ...'), { rule: ['npm', 'test', '...'] });
    });

    it('say what they allow in the user\'s words', () => {
      assert.equal(allowRuleMeaning(['npm', 'test']), 'runs "npm test" exactly as written without asking (add ... at the end to allow further arguments)');
      assert.equal(
        allowRuleMeaning(['npm', 'test', '...']),
        'runs "npm test" with any further arguments without asking, except arguments that write files, read configuration or run another program (those ask)',
      );
      assert.equal(allowRuleMeaning(['npm', 'two words', '...']), 'runs "npm "two words"" with any further arguments without asking, except arguments that write files, read configuration or run another program (those ask)');
      assert.ok(allowRuleMeaning(['make', 'x'.repeat(5000)]).length < 500);
      assert.equal(describeAllowRule(['npm', 'test', '...']), 'npm test ...');
    });
  });

  describe('readAllowRules', () => {
    it('reads command lines and argv arrays, keeping every good entry and naming each bad one', () => {
      const { rules, problems } = readAllowRules(['npm test', ['npm', 'run', 'build'], '  make   lint ', 'bash', 42, ['node', 7], 'npm test; rm -rf .', ''], 'taskPlanner.commands.allowed');
      assert.deepEqual(rules, [['npm', 'test'], ['npm', 'run', 'build'], ['make', 'lint']]);
      assert.deepEqual(problems, [
        'taskPlanner.commands.allowed, entry 4: the rule "bash" would let bash run any code; name what it runs as well (its script, module, package or subcommand); it was ignored.',
        'taskPlanner.commands.allowed, entry 5: must be a command line such as "npm test" or a list of words such as ["npm", "test"]; it was ignored.',
        'taskPlanner.commands.allowed, entry 6: must be a command line such as "npm test" or a list of words such as ["npm", "test"]; it was ignored.',
        'taskPlanner.commands.allowed, entry 7: "npm test; rm -rf ." is not a plain command line (only letters, digits, spaces and _@%+=:,./- are read); write it as a list of words, such as ["npm", "test", "--", "--grep", "two words"]; it was ignored.',
        'taskPlanner.commands.allowed, entry 8: an empty rule would allow every command; it was ignored.',
      ]);
    });

    it('never reads quotes, tabs or look-alike spaces in a command line as separators', () => {
      for (const line of ['npm "test"', "npm 'test'", 'npm\ttest', 'npm\u00a0test', 'npm\u3000test', 'npm te\\ st', 'npm $(rm)', 'npm test\n']) {
        const { rules, problems } = readAllowRules([line], 'x');
        assert.deepEqual(rules, [], JSON.stringify(line));
        assert.equal(problems.length, 1);
      }
      assert.match(readAllowRules(['npm\u202etest'], 'x').problems[0] ?? '', /"npm\\u202etest" is not a plain command line/);
      assert.match(readAllowRules(['npm\u202etest\u2066x'], 'x').problems[0] ?? '', /"npm\\u202etest\\u2066x" is not a plain command line/, 'every invisible character escaped');
    });

    it('refuses a value that is not a list, and stops at the limit of rules', () => {
      assert.deepEqual(readAllowRules(undefined, 'x'), { rules: [], problems: [] });
      assert.deepEqual(readAllowRules(null, 'x'), { rules: [], problems: [] });
      assert.deepEqual(readAllowRules('npm test', 'x').rules, []);
      assert.deepEqual(readAllowRules({ 0: 'npm test' }, 'x').rules, []);
      assert.deepEqual(readAllowRules('npm test', 'taskPlanner.commands.allowed').problems, [
        'taskPlanner.commands.allowed must be a list of commands, each a command line such as "npm test" or a list of words such as ["npm", "test"]; it was ignored.',
      ]);
      const many = readAllowRules(Array.from({ length: allowRuleLimits.rules + 5 }, (_, index) => `make t${index}`), 'x');
      assert.equal(many.rules.length, allowRuleLimits.rules);
      assert.deepEqual(many.problems, [`x holds more than ${allowRuleLimits.rules} entries; the rest were ignored.`]);
    });

    it('reads exactly the limits: 200 entries, 64 words, 10 problems named', () => {
      assert.deepEqual(readAllowRules(Array.from({ length: allowRuleLimits.rules }, (_, index) => `make t${index}`), 'x').problems, []);
      assert.deepEqual(readAllowRules([['make', ...Array<string>(allowRuleLimits.words - 1).fill('y')]], 'x').problems, []);
      const ten = readAllowRules(Array.from({ length: allowRuleLimits.problems }, () => 7), 'x');
      assert.equal(ten.problems.length, allowRuleLimits.problems);
      assert.ok(ten.problems.every((problem) => problem.endsWith('it was ignored.')));
    });

    it('stays bounded on huge input: many bad entries, a huge entry, a huge word', () => {
      const bad = readAllowRules(Array.from({ length: 100_000 }, () => 7), 'x');
      assert.equal(bad.problems.length, allowRuleLimits.problems + 1);
      assert.equal(bad.problems.at(-1), `…and ${allowRuleLimits.rules - allowRuleLimits.problems + 1} more problems in x.`);
      const huge = readAllowRules([Array.from({ length: 1_000_000 }, () => 'x'), `make ${'y'.repeat(1_000_000)}`, 'z'.repeat(1_000_000)], 'x');
      assert.deepEqual(huge.rules, []);
      assert.equal(huge.problems[0], 'x, entry 1: has more than 64 words; it was ignored.');
      assert.ok(huge.problems.every((problem) => problem.length < 700), huge.problems.map((problem) => problem.length).join());
    });
  });

  describe('allowRuleOfCommandLine', () => {
    it('makes a rule of a typed command line, or says why not', () => {
      assert.deepEqual(allowRuleOfCommandLine(' npm  test '), { rule: ['npm', 'test'] });
      assert.deepEqual(allowRuleOfCommandLine(''), { problem: 'an empty rule would allow every command' });
      assert.deepEqual(allowRuleOfCommandLine('bash'), { problem: 'the rule "bash" would let bash run any code; name what it runs as well (its script, module, package or subcommand)' });
      const operators = allowRuleOfCommandLine('npm test && rm');
      assert.match('problem' in operators ? operators.problem : '', /^"npm test && rm" is not a plain command line/);
    });
  });

  it('tells a relative program path from an absolute one on every platform', () => {
    assert.equal(allows([['tools/C:/make']], ['tools/C:/make'], 'sub'), false);
    assert.ok(allows([['\\\\server\\share\\make.exe']], ['\\\\server\\share\\make.exe'], 'sub'));
    assert.equal(allows([['tools\\make\\']], ['tools\\make\\'], 'sub'), false);
    assert.ok(allows([['make']], ['make'], 'sub'), 'a bare name is looked up on PATH, the same from every folder');
  });

  it('describes a rule with unusual words quoted and invisible characters escaped, bounded', () => {
    assert.equal(describeAllowRule(['npm', 'test', '--grep', 'two words']), 'npm test --grep "two words"');
    assert.equal(describeAllowRule(['npm', 'a\u202eb']), 'npm "a\\u202eb"');
    assert.ok(describeAllowRule(['make', 'x'.repeat(5000)]).length <= 300);
  });

  it('tells the same rule by its words', () => {
    assert.ok(sameAllowRule(['npm', 'test'], ['npm', 'test']));
    assert.equal(sameAllowRule(['npm', 'test'], ['npm', 'test', 'x']), false);
    assert.equal(sameAllowRule(['npm', 'test'], ['npm', 'Test']), false);
  });
});
