/**
 * What an argument may not do unasked under a rule that allows further arguments (`npm
 * test ...`): the options of a known program that write files, read configuration or run
 * another program, each with what it does in the user's words.
 */
interface ProgramRisks {
  /**
   * Long option names, compared without case, `-` or `_` (`--scriptShell` is `--script-shell`),
   * and any abbreviation of them (npm, git and Python's argparse take `--pref` for `--prefix`,
   * so `output-file` covers `--output` too); a name ending in `*` stands for every option
   * starting with it. None when absent.
   */
  long?: readonly string[];
  /** Short option letters, found anywhere in a cluster (`-xo file`) or an attached value (`-ofile`). */
  short: string;
  /** Options start with one dash and are never abbreviated (Go's `-toolexec`): every table is then read that way for the command. */
  singleDash?: true;
  /** A word with `=` that is no option sets a variable the program runs (make's `SHELL=…`, `CC=…`). */
  assignments?: true;
  /** A word starting with `@` names a file of more arguments, which the rule cannot see (`tsc @args.txt`, `gcc @opts`). */
  responseFiles?: true;
  /** Any argument, option or not, holding this does it too (git's `%G…` placeholders of a format run gpg; `git notes edit` opens an editor). */
  values?: RegExp;
  /** What such an argument does, in the user's words. */
  why: string;
}

const writes = 'writes files, reads configuration or runs another program';

// Options every program is checked for: the common names of writing to a file, reading configuration and running code.
const everyProgram: ProgramRisks = {
  long: [
    'output-file', 'outfile', 'config-file', 'exec', 'shell', 'pager', 'editor', 'require', 'import', 'loader', 'experimental-loader', 'node-options', 'eval',
    'plugin', 'preload', 'rcfile', 'inspect*',
    // Node's test runner loads a reporter module (`npm test ... -- --test-reporter=data:…` ran code), an env file sets NODE_OPTIONS,
    // and a list of file names read from a file names any file (`sort --files0-from=list` printed /etc/passwd): an outside attack.
    'test-reporter', 'test-reporter-destination', 'env-file', 'env-file-if-exists', 'files0-from', 'files-from',
    // More of Node's, given after `npm test --` to a `node --test` script: an OpenSSL configuration loads a native module (an outside attack ran
    // one), a configuration file or a startup snapshot sets options or code, and the rest write files where they say.
    'openssl-config', 'experimental-config-file', 'experimental-default-config-file', 'snapshot-blob', 'redirect-warnings', 'report-directory',
    'report-dir', 'report-filename', 'diagnostic-dir', 'tls-keylog',
    // Node's profilers write where they are told (`npm test -- --cpu-prof --cpu-prof-name=README.md` overwrote it: an outside attack).
    'cpu-prof*', 'heap-prof*', 'heapsnapshot*',
    // What linters and formatters name their rewriting of the sources (`ruff check --fix`, `biome check --write`, `isort
    // --overwrite-in-place`, `rubocop --autocorrect-all`), a plugin they load (`pylint --load-plugins`), and where a checker
    // writes its reports or cache (`mypy --junit-xml README.md`): each ran unasked under a rule ending in `...` (an outside attack).
    // (`--fix` is an abbreviation of `--fix-layout`, as `--auto-correct` is `--autocorrect` without its dash: one entry each.)
    'unsafe-fixes', 'write', 'in-place', 'overwrite*', 'autocorrect*', 'fix-layout', 'load-plugins', 'junit-xml', 'cache-dir',
  ],
  short: 'o',
  why: writes,
};

// Options of test runners and of the scripts a package manager runs (what follows `npm test --` reaches the test runner, `npm run lint --` a
// linter): mocha's `-n` passes a Node option (`require=…`), `-R`/`-O` pick a reporter and its output file; a linter's or formatter's `--fix`/`--write`
// changes files.
const testRunners: ProgramRisks = {
  long: [
    'setup-files-after-env', 'global-setup', 'global-teardown', 'test-runner', 'runner', 'transform', 'reporters', 'reporter-option*', 'ui', 'resolver',
    'test-environment', 'environment', 'update-snapshot', 'coverage-directory', 'snapshot-resolver', 'watch-plugins', 'file', 'root-dir', 'dir',
    'test-results-processor', 'test-sequencer', 'preset', 'filter', 'cache-directory', 'module-name-mapper', 'package', 'fix', 'write',
  ],
  short: 'cnORru',
  why: 'loads code, reads configuration or writes files',
};

// Linters, also reached through a package script (`npm run lint -- --init`): a fix or a suppressions file changes files, `--init` installs
// packages and writes a configuration, `--mcp` starts a server, a formatter, parser or rules folder loads code.
const linters: ProgramRisks = {
  long: ['fix', 'rulesdir', 'resolve-plugins-relative-to', 'cache-location', 'format', 'parser', 'init', 'suppress*', 'prune-suppressions', 'mcp'],
  short: 'cf',
  why: 'changes files or loads code',
};

const packageManagers: ProgramRisks = {
  long: [
    'prefix', 'script-shell', 'call', 'userconfig', 'globalconfig', 'workspaces', 'location', 'cwd', 'filter', 'recursive', 'registry',
    'node-gyp', 'use-yarnrc', 'modules-folder', 'cache-folder', 'global-folder', 'include-workspace-root', 'logs-dir', 'ws', 'config*',
  ],
  short: 'cCFgrw',
  why: 'runs another package\'s script, another program or reads other configuration',
};

const interpreterRisks: ProgramRisks = {
  long: ['print', 'command', 'include', 'allow*'],
  short: 'ceImprx',
  why: 'runs other code',
};

// Where `-u` names the program run on the other side, and the options that put another repository's hooks in place.
const gitRemote: ProgramRisks = { long: ['template', 'separate-git-dir'], short: 'u', why: 'runs another program or installs hooks from elsewhere' };

// The short options of git's subcommands that run another program: a merge strategy (`-s`, a `git-merge-<name>` on PATH), an editor
// (`-e`, `-i`, `tag -a`) or gpg (`-S`, `tag -s`/`-u`/`-v`); the repository's own configuration can name the editor and gpg
// (`core.editor`, `gpg.program`). Most long ones are git's (`--gpg-sign`, `--interactive`, `--edit`…); `--verify-signatures` is the
// merge's only, as `rev-parse --verify` (which it would abbreviate) runs nothing.
const gitRuns = 'runs another program: a merge strategy, an editor or gpg, which the repository\'s configuration can name';
const gitMerging: ProgramRisks = { long: ['verify-signatures'], short: 'eSs', why: gitRuns };
const gitCommitting: ProgramRisks = { short: 'eS', why: gitRuns };

const runsAnother = 'runs another program';

// C compilers: a plugin or another program to run, more arguments from a file, where the output goes.
const compilers: ProgramRisks = {
  long: ['fplugin*', 'wrapper', 'specs', 'b', 'print-prog-name'],
  short: 'BoL',
  // gcc and clang spell these with one dash too (`-wrapper sh,-c,id`, `-specs=x`, `-fplugin=./p.so`), which the letters miss.
  values: /^-(fplugin|wrapper|specs|print-prog-name)/,
  responseFiles: true,
  why: 'runs another program, reads more arguments from a file or writes files',
};

const gradle: ProgramRisks = {
  long: ['init-script', 'project-dir', 'settings-file', 'build-file', 'gradle-user-home', 'include-build', 'project-cache-dir'],
  short: 'bcDgIp',
  why: 'runs another build script or reads other configuration',
};

const maven: ProgramRisks = {
  long: ['file', 'settings', 'global-settings', 'toolchains', 'define', 'log-file'],
  short: 'Dfls',
  why: 'runs another build, reads other configuration or writes its log elsewhere',
};

const make: ProgramRisks = {
  long: ['file', 'makefile', 'directory', 'eval', 'include-dir', 'touch'],
  short: 'CEfIt',
  assignments: true,
  why: 'reads another makefile or changes the commands it runs',
};

// Per program (its name as `programName` gives it), and per program and subcommand (`git clone`).
const programs: Readonly<Record<string, ProgramRisks>> = {
  git: {
    long: [
      'output-directory', 'upload-pack', 'receive-pack', 'ext-diff', 'textconv', 'open-files-in-pager', 'exec-path', 'git-dir', 'work-tree',
      'config-env', 'extcmd', 'tool', 'remote', 'sequence-editor', 'gpg-program', 'strategy', 'upstream', 'no-index', 'unsafe-paths',
      // An editor or gpg (an outside attack): `branch --edit-description`, `commit --edit`, `rebase --edit-todo`, `rebase --interactive`,
      // `commit --gpg-sign`, `tag --sign`, `push --signed`, `log --show-signature`.
      'edit*', 'interactive', 'gpg-sign', 'sign', 'signed', 'show-signature',
    ],
    short: 'cOx',
    // A format's signature placeholders (`--format=%G?`, `--pretty=format:%GS`) run gpg; the `ext::` transport runs a command.
    values: /%G|^ext::/,
    // `--no-index` (git diff, git grep) reads any path given, outside the repository too: ~/.ssh/id_rsa.
    why: 'writes files, changes or reads git\'s configuration, reads files outside the repository, or runs another program',
  },
  'git clone': gitRemote,
  'git fetch': gitRemote,
  'git ls-remote': gitRemote,
  'git init': gitRemote,
  'git merge': gitMerging,
  // `--rebase=interactive` (`--reb=i`) opens an editor too.
  'git pull': { ...gitMerging, values: /^--r[a-z]*=i/ },
  'git rebase': { short: 'iSs', why: gitRuns },
  'git commit': gitCommitting,
  'git cherry-pick': gitCommitting,
  'git revert': gitCommitting,
  'git am': { short: 'iS', why: gitRuns },
  'git commit-tree': { short: 'S', why: gitRuns },
  // Deleting or moving a tag changes the repository (an outside attack: `git tag -d v1.0.0`, `git tag -f v1.0.0 HEAD~5`).
  'git tag': { long: ['verify', 'delete', 'force'], short: 'aesuvdf', why: 'runs another program (an editor or gpg) or changes the repository' },
  // Adding or changing a remote writes .git/config (an outside attack: `git remote set-url origin https://attacker…`).
  'git remote': { short: '', values: /^(?:add|rename|remove|rm|set-head|set-branches|set-url|prune|update)$/, why: "changes the repository's configuration" },
  // `--apply` undoes `--check` and `--stat`: the patch is applied (an outside attack wrote a file through `git apply --check ...`).
  'git apply': { long: ['apply'], short: '', why: 'applies the patch, writing files' },
  // Deleting, renaming or moving a branch, tag or stash entry changes the repository's own files under .git (an outside attack: `-D`).
  'git branch': { long: ['delete', 'move', 'copy', 'force', 'set-upstream-to', 'unset-upstream', 'edit-description'], short: 'cCdDfmMtu', why: 'changes the repository' },
  // Each without a message opens an editor; the others change the repository's notes.
  'git notes': { short: '', values: /^(?:add|append|edit|copy|merge|remove|prune)$/, why: 'runs an editor or changes the repository' },
  npm: packageManagers,
  yarn: packageManagers,
  pnpm: packageManagers,
  bun: packageManagers,
  jest: testRunners,
  vitest: testRunners,
  mocha: testRunners,
  // `--hostname-bin` names a program ripgrep runs to learn the host name for its hyperlinks.
  rg: { long: ['pre-glob', 'hostname-bin'], short: '', why: 'runs another program on each file or for its links' },
  grep: { long: ['pre-glob'], short: '', why: 'runs another program on each file' },
  // sort compresses its temporary files with the program named (`sort -S 1K --compress-program=sh data.txt` ran each line of data.txt).
  sort: { long: ['compress-program'], short: '', why: runsAnother },
  sdiff: { long: ['diff-program'], short: '', why: runsAnother },
  // diff3 (named `diff`, without its number) runs the program named to compare.
  diff: { long: ['diff-program'], short: '', why: runsAnother },
  // A word starting with `+` is a command less runs at start, and `+!cmd` runs a shell command.
  less: { short: '', values: /^\+/, why: runsAnother },
  // pip's `--python` runs pip again under the interpreter named; `--log` writes where it says.
  pip: { long: ['python', 'log*'], short: '', why: 'runs another program or writes files' },
  // `-H`/`--html` opens a browser (the one named, or $BROWSER); `-C` reads another configuration file, `-P` names the pager.
  man: { long: ['html'], short: 'CHP', why: 'runs another program or reads other configuration' },
  // A kubeconfig can name a program to run for credentials (`users[].user.exec`); another server, context or user sends the
  // kubeconfig's credentials elsewhere (an outside attack: `kubectl get pods --server=https://attacker…`).
  kubectl: {
    long: [
      'kubeconfig', 'server', 'context', 'cluster', 'user', 'token', 'as', 'as-group', 'as-uid', 'certificate-authority', 'client-*', 'insecure-skip-tls-verify',
    ],
    short: 's',
    why: 'reads another configuration, which can run a program, or sends its credentials to another server',
  },
  gh: { long: ['web'], short: 'w', why: 'opens a browser' },
  make,
  gmake: make,
  // `-f` another build file, `-C` another folder, `-t` a tool (`-t clean` deletes outputs): an outside attack ran another file's commands.
  ninja: { short: 'Cft', why: 'reads another build file or runs one of its tools' },
  // `-C` compiles a magic file, writing it beside the one named (an outside attack wrote `mymagic.mgc`).
  file: { short: 'C', why: 'writes files' },
  // `--logfile` is the test harness's, after `--`.
  cargo: {
    // `cargo clippy --fix` rewrites the sources (an outside attack).
    long: ['manifest-path', 'target-dir', 'out-dir', 'artifact-dir', 'lockfile-path', 'logfile', 'fix', 'allow-dirty', 'allow-no-vcs', 'allow-staged'],
    short: 'Z',
    why: 'builds another package, changes the sources or writes files elsewhere',
  },
  // The test binary's own options are also given as `-test.<name>` (compared without that prefix); `-ldflags` can name the linker run (`-extld`), and
  // `-gcflags`, `-asmflags` and `-gccgoflags` pass the compiler and assembler options that write files (`-gcflags=-cpuprofile=x`).
  go: {
    long: ['c', 'toolexec', 'vettool', 'modfile', 'overlay', 'coverprofile', 'cpuprofile', 'memprofile', 'blockprofile', 'mutexprofile', 'trace', 'outputdir',
      'pkgdir', 'ldflags', 'gcflags', 'asmflags', 'gccgoflags', 'gocoverdir', 'testlogfile', 'fuzzcachedir'],
    // `go env -w`/`-u` writes the user's go configuration (`GOFLAGS=-toolexec=…`: every later go command runs it), `go get -u` go.mod.
    short: 'wu',
    singleDash: true,
    why: 'writes files or runs another program',
  },
  // mypy writes each report where it is told (`--html-report src`), its cache too, and runs the Python named.
  mypy: {
    long: [
      'html-report', 'linecount-report', 'lineprecision-report', 'any-exprs-report', 'cobertura-xml-report', 'xml-report', 'txt-report', 'xslt-*', 'python-executable',
    ],
    short: '',
    why: 'writes files or runs another program',
  },
  // Formatters whose `-w` (gofmt, shfmt) or `-i` (clang-format) writes the file in place, and rubocop's `-a`/`-A`/`-x` correct it.
  gofmt: { short: 'w', why: 'changes files' },
  shfmt: { short: 'w', why: 'changes files' },
  'clang-format': { short: 'i', why: 'changes files' },
  rubocop: { short: 'aAx', why: 'changes files' },
  // Options of one dash: `-write=true` writes the files `fmt -check` only checks, `-chdir` works in another folder, `-out`/`-state-out` write.
  terraform: { long: ['write', 'chdir', 'out', 'state-out', 'backup', 'plugin-dir'], short: '', singleDash: true, why: 'writes files or works elsewhere' },
  pytest: {
    long: [
      'override-ini', 'rootdir', 'confcutdir', 'basetemp', 'junit-xml', 'debug', 'pastebin', 'result-log', 'log-file', 'cov-report', 'pdbcls', 'html',
      'report-log', 'json-report-file',
    ],
    short: 'cop',
    why: 'loads a plugin, reads other configuration or writes files',
  },
  eslint: linters,
  rspec: { long: ['require', 'options', 'default-path', 'out'], short: 'rIo', why: 'loads code, reads other configuration or writes files' },
  // rake's `-e`/`-p`/`-E` run Ruby code given on the command line.
  rake: { long: ['require', 'libdir', 'rakefile', 'rakelib', 'execute*'], short: 'rIfRepE', why: 'runs other code or another rakefile' },
  prettier: { long: ['write', 'plugin-search-dir', 'ignore-path', 'cache-location'], short: 'cw', why: 'changes files or loads code' },
  tsc: {
    long: ['outdir', 'declaration-dir', 'ts-build-info-file', 'generate-trace', 'generate-cpu-profile', 'init', 'build', 'project', 'plugins'],
    short: 'bp',
    responseFiles: true,
    why: 'writes files or reads other configuration (or more arguments from a file)',
  },
  // `-J` passes an option to the JVM javac runs in (`-J-javaagent:agent.jar` runs that agent).
  javac: {
    long: ['processor-path', 'plugin', 'release'],
    short: 'Jd',
    responseFiles: true,
    why: 'runs other code, reads more arguments or writes files',
  },
  gcc: compilers,
  'g++': compilers,
  cc: compilers,
  clang: compilers,
  'clang++': compilers,
  gradle,
  gradlew: gradle,
  mvn: maven,
  mvnw: maven,
  dotnet: {
    long: ['settings', 'test-adapter-path', 'diag', 'results-directory', 'logger', 'collect'],
    short: 'ads',
    why: 'loads code, reads other configuration or writes files',
  },
  deno: {
    long: ['allow*', 'import-map', 'unsafely-ignore-certificate-errors'],
    short: 'Ac',
    why: 'grants more permissions or reads other configuration',
  },
};

/** What an option takes as its value in the next word: any word, or only a number (make's `-j` takes an optional count). */
type OptionValue = 'word' | 'number';

// The options of make and ninja whose value is the next word.
const makeValued: Readonly<Record<string, OptionValue>> = {
  '-j': 'number', '--jobs': 'number', '-l': 'number', '--load-average': 'number', '--max-load': 'number', '-C': 'word', '--directory': 'word', '-f': 'word',
  '--file': 'word', '--makefile': 'word', '-I': 'word', '--include-dir': 'word', '-o': 'word', '--old-file': 'word', '--assume-old': 'word', '-W': 'word',
  '--what-if': 'word', '--new-file': 'word', '--assume-new': 'word',
};
const gradleValued: Readonly<Record<string, OptionValue>> = {
  '--tests': 'word', '-x': 'word', '--exclude-task': 'word', '--max-workers': 'number', '--console': 'word', '--warning-mode': 'word', '-P': 'word',
  '--project-prop': 'word', '-D': 'word', '--system-prop': 'word', '-p': 'word', '--project-dir': 'word', '-b': 'word', '--build-file': 'word', '-c': 'word',
  '--settings-file': 'word', '-g': 'word', '--gradle-user-home': 'word', '-I': 'word', '--init-script': 'word',
};
const mavenValued: Readonly<Record<string, OptionValue>> = {
  '-pl': 'word', '--projects': 'word', '-P': 'word', '--activate-profiles': 'word', '-T': 'word', '--threads': 'word', '-rf': 'word', '--resume-from': 'word',
  '-f': 'word', '--file': 'word', '-s': 'word', '--settings': 'word', '-gs': 'word', '--global-settings': 'word', '-t': 'word', '--toolchains': 'word',
  '-l': 'word', '--log-file': 'word', '-D': 'word', '--define': 'word', '-b': 'word', '--builder': 'word',
};

/**
 * Build tools whose further words are more targets, goals or tasks to run (`make test install`,
 * `mvn test deploy`, `gradle test publish`), by program name, with the options whose value
 * is the next word (so `make test -j install` runs `install`, and `-j 4` names none).
 */
const buildTargets: Readonly<Record<string, Readonly<Record<string, OptionValue>>>> = {
  make: makeValued,
  gmake: makeValued,
  ninja: { '-j': 'number', '-k': 'number', '-l': 'number', '-C': 'word', '-f': 'word', '-t': 'word', '-d': 'word', '-w': 'word' },
  gradle: gradleValued,
  gradlew: gradleValued,
  mvn: mavenValued,
  mvnw: mavenValued,
  rake: { '-f': 'word', '--rakefile': 'word', '-I': 'word', '--libdir': 'word', '-r': 'word', '--require': 'word', '-j': 'number', '--jobs': 'number' },
  ant: { '-f': 'word', '-file': 'word', '-buildfile': 'word', '-lib': 'word', '-logfile': 'word', '-l': 'word', '-propertyfile': 'word' },
  just: { '-f': 'word', '--justfile': 'word', '-d': 'word', '--working-directory': 'word', '--set': 'word' },
};

/**
 * The positions in `args` of the words that are targets for a build tool with the
 * value-taking options `valued`: neither an option, nor the value of the option before it,
 * nor a variable (`NAME=value`, which make's assignments check asks about).
 */
function targetPositions(args: readonly string[], valued: Readonly<Record<string, OptionValue>>): number[] {
  const positions: number[] = [];
  let takes: OptionValue | undefined;
  for (const [index, word] of args.entries()) {
    const isValue = takes === 'word' || (takes === 'number' && /^\d+(\.\d+)?$/.test(word));
    takes = undefined;
    if (isValue) continue;
    if (Object.hasOwn(valued, word)) takes = valued[word];
    else if (!word.startsWith('-') && !word.includes('=')) positions.push(index);
  }
  return positions;
}

/**
 * The positions of `further` that name another target of the build tool `words[0]`, when
 * the rule (`words`) names a target of its own: one naming none (`make ...`, `./gradlew -q
 * ...`) was made for any target. Empty for every other program.
 */
function furtherTargets(words: readonly string[], further: readonly string[], name: (word: string) => string): ReadonlySet<number> {
  // Stryker disable next-line StringLiteral: a rule has a word; the default is for the type checker only, and no other text names a build tool either
  const program = name(words[0] ?? '');
  const valued = Object.hasOwn(buildTargets, program) ? buildTargets[program] : undefined;
  if (valued === undefined || targetPositions(words.slice(1), valued).length === 0) return new Set();
  // Read on from the rule's words: the rule's last option may take the first further word as its value.
  return new Set(targetPositions([...words.slice(1), ...further], valued).map((index) => index - (words.length - 1)));
}

const interpreters = new Set([
  'node', 'nodejs', 'python', 'py', 'pypy', 'perl', 'ruby', 'php', 'lua', 'luajit', 'java', 'npx', 'pnpx', 'bunx', 'uvx', 'ipython', 'irb',
]);

// Programs and subcommands whose words are code or run programs (a sed script, find's `-exec`, `git config`, `git bisect run`): never with further arguments.
const neverFurther = new Set([
  'sed', 'awk', 'gawk', 'mawk', 'nawk', 'find', 'tar', 'curl', 'wget', 'ssh', 'scp', 'rsync', 'git config', 'git bisect', 'git submodule', 'git filter-branch',
  'git difftool', 'git mergetool', 'git hook', 'git daemon', 'git instaweb', 'git send-email', 'git credential', 'npm config', 'npm set', 'yarn config', 'pnpm config',
  // sqlite3's (named without its version) `.shell`, zip's `-TT` test command, `npm explore dep -- cmd`, a container run's command (an outside attack ran each).
  'sqlite', 'zip', 'npm explore', 'docker container', 'docker compose', 'podman container', 'podman compose',
  // A second operand is the file written (`uniq in package.json`, `xxd in out`); unzip reads `-q-l` as "not -l" and extracts; a stash
  // subcommand drops, pops or applies (an outside attack ran each under a rule ending in `...`).
  'uniq', 'xxd', 'unzip', 'git stash',
  // A rule made to read a remote, a worktree, the go environment or a package's fields would let further words change them
  // (`git remote set-url`, `go env -w`, `npm pkg set`: an outside attack).
  'git worktree', 'go env', 'npm pkg',
  // Python's own modules run as programs (`python3 -m json.tool in.json out.json` overwrote out.json): an operand is written,
  // extracted into, served or opened.
  'json.tool', 'zipfile', 'tarfile', 'gzip', 'compileall', 'py_compile', 'http.server', 'webbrowser',
]);

/**
 * The names under which `words` (a rule's words, already compared by `name`: lower case,
 * last path part) find their programs' risks: each word, and the first two together
 * (`git clone`).
 */
function namesOf(words: readonly string[], name: (word: string) => string): string[] {
  const names = words.map(name);
  return [...names, names.slice(0, 2).join(' ')];
}

/**
 * Why a rule with the words `words` (before its `...`) cannot allow further arguments, or
 * `undefined` when it can: a program whose arguments are code or run programs (`sed`,
 * `find`, `curl`, `git config`, `git bisect`…). `name` gives a word's program name.
 */
export function furtherArgumentsProblem(words: readonly string[], name: (word: string) => string): string | undefined {
  const refused = namesOf(words, name).find((named) => neverFurther.has(named));
  if (refused === undefined) return undefined;
  return `further arguments to ${refused} can write files, run other programs or change its configuration; allow exact commands instead`;
}

/**
 * The first of `further` (the arguments after a rule's words) that writes files, reads
 * configuration or runs another program for the programs `words` name, with what it does,
 * or `undefined` when none does. Every program is checked for the common options (`-o`,
 * `--output`, `--config`, `--exec`, `--require`…); known ones for their own (git's
 * `--upload-pack` and `--ext-diff`, npm's `--prefix` and `--script-shell`, ripgrep's `--pre`,
 * make's `SHELL=…`…), and interpreters for `-e`, `-c`, `-r`. A build tool's further target
 * asks when the rule names a target (`make test ...` does not allow `make test install`;
 * `make ...` allows any). Errs towards asking: an option value that looks like one of these
 * asks too.
 */
export function riskyArgument(
  words: readonly string[],
  further: readonly string[],
  name: (word: string) => string,
): { argument: string; why: string } | undefined {
  const names = namesOf(words, name);
  // The program's own risks first: they say best what the argument does.
  const risks = names.flatMap((named) => programs[named] ?? []);
  if (names.some((named) => interpreters.has(named))) risks.push(interpreterRisks, testRunners);
  if (risks.includes(packageManagers)) risks.push(testRunners, linters);
  risks.push(everyProgram);
  const singleDash = risks.some((risk) => risk.singleDash === true);
  const targets = furtherTargets(words, further, name);
  const ruleOptions = words.slice(1).flatMap((word) => optionKeys(word, singleDash));
  for (const [index, argument] of further.entries()) {
    const risk = risks.find((candidate) => isRisky(argument, candidate, singleDash));
    if (risk !== undefined) return { argument, why: risk.why };
    if (repeatsOption(argument, ruleOptions, singleDash)) {
      return { argument, why: 'sets again an option the rule\'s own words set (it can undo what the rule fixed)' };
    }
    if (targets.has(index)) return { argument, why: 'names another target, goal or task to run besides the one the rule allows' };
    if (namesPathOutside(argument)) return { argument, why: 'names a path outside the workspace' };
  }
  return undefined;
}

// A path that may lead out of the workspace, as a whole word, an option's value (`--parser=/tmp/x.js`, `-F/tmp/x`,
// `-J-javaagent:/tmp/a.jar`), a list's item or a response file (`@/etc/passwd`): absolute (`/`, `~`, `C:\`, `\\server`, `file:`), or going up (`..`).
const outsideStart = /^(?:[/\\~]|\.\.(?:[/\\]|$)|[a-z]:[/\\]|file:)/i;
const upward = /[/\\]\.\.(?:[/\\]|$)/;

/**
 * Whether `argument` names a path that may be outside the workspace: one the program would read,
 * write or run there (`cat /home/u/.ssh/id_rsa`, `git commit -F /tmp/x`, `mocha ../../x.js`,
 * `terraform plan -chdir=/tmp`). Errs towards asking: a search pattern that starts with `/` asks too.
 */
export function namesPathOutside(argument: string): boolean {
  if (upward.test(argument)) return true;
  // What follows a cluster of short options (`-F/tmp/x`, `-I/usr/include`). Any other word stays as it is (a long option's
  // keeps a dash in front), which adds no part the split below does not find.
  const shortValue = argument.replace(/^-[a-z]*/i, '');
  // A value after `:` (`-J-javaagent:/tmp/a.jar`, `-bl:/tmp/x`; not a URL's `://`), and a response file (`@/etc/passwd`).
  const parts = [...argument.split(/[=,]/), shortValue].flatMap((part) => part.split(/:(?!\/\/)/));
  return parts.some((part) => outsideStart.test(part.startsWith('@') ? part.slice(1) : part));
}

/**
 * The names under which `word` sets an option, compared with another word's: none for a word that is no option (`-`, `--`, a
 * value); `-x` for a short option (case kept: `-s` is not `-S`), also the first letter of a cluster or of an attached value
 * (`-n5`); and for a long one its name without dashes, underscores or case, also without a leading `no` (`--no-ext-diff` and
 * `--ext-diff`, `--noEmit` and `--no-emit` set the same option). Where options start with one dash (`singleDash`: Go's
 * `-count`), a word of either dash count is a long name.
 */
function optionKeys(word: string, singleDash: boolean): string[] {
  // `--` gives no key either: its name without dashes is empty.
  if (!word.startsWith('-') || word === '-') return [];
  const name = word.replace(/=.*/s, '');
  const keys: string[] = [];
  const long = name.startsWith('--') || singleDash;
  if (!long) keys.push(name.slice(0, 2));
  if (long || name.length > 2) {
    const folded = name.toLowerCase().replace(/[-_]/g, '');
    if (folded !== '') keys.push(`--${folded}`);
    if (folded.startsWith('no') && folded.length > 2) keys.push(`--${folded.slice(2)}`);
  }
  return keys;
}

/**
 * Whether `argument` sets again an option of `ruleOptions` (`optionKeys` of the rule's words), in any spelling: `--opt`,
 * `--opt=value`, `--opt value`, `--no-opt`, or an abbreviation of a long name (git and npm take `--pref` for `--prefix`).
 * `tsc --noEmit ...` thus never allows `--noEmit false`, which would emit after all.
 */
function repeatsOption(argument: string, ruleOptions: readonly string[], singleDash: boolean): boolean {
  return optionKeys(argument, singleDash).some((key) => ruleOptions.some((option) => option === key || (key.startsWith('--') && option.startsWith(key))));
}

function isRisky(argument: string, risks: ProgramRisks, singleDash: boolean): boolean {
  if (risks.values?.test(argument) === true) return true;
  if (argument.startsWith('@') && risks.responseFiles === true) return true;
  if (!argument.startsWith('-')) return risks.assignments === true && argument.includes('=');
  // Short options: each letter of the cluster (its dash is no table's letter).
  if (!singleDash && !argument.startsWith('--')) return [...argument].some((letter) => risks.short.includes(letter));
  const name = argument.replace(/=.*/s, '');
  if (singleDash && [...risks.short].includes(name.slice(1))) return true;
  // Dashes and underscores dropped, case folded: the tables are written in lower case with dashes. Go's test binary takes
  // `-test.coverprofile` for `-coverprofile`.
  const folded = name.toLowerCase().replace(/[-_]/g, '');
  const unprefixed = singleDash && folded.startsWith('test.') ? folded.slice('test.'.length) : folded;
  // An option of an option (vitest's `--coverage.reportsDirectory=src`, `--outputFile.json=x`) is judged by its own name too,
  // and by the option it belongs to (an outside attack: dotted, they matched no table).
  const dot = unprefixed.indexOf('.');
  const names = dot > 0 ? [unprefixed, unprefixed.slice(0, dot), unprefixed.slice(unprefixed.lastIndexOf('.') + 1)] : [unprefixed];
  // A lone `-` (standard input) or `--` abbreviates nothing.
  return names.some(
    (given) =>
      given !== '' &&
      risks.long?.some((option) => {
        const named = option.replace(/-/g, '');
        // Options of one dash are never abbreviated: `go test -a` is not `-autocorrect`.
        if (named.endsWith('*')) return given.startsWith(named.slice(0, -1)) || (!singleDash && named.startsWith(given));
        return singleDash ? given === named : named.startsWith(given);
      }) === true,
  );
}
