import { programRisks, type ProgramRisks } from './programRisks';

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

/**
 * What puts `git branch` and `git tag` in list mode, where their words are patterns (`git branch --list 'feat*'`); without one
 * a word is the name of a branch or tag they make (`git branch evil HEAD~2`, `git tag v9 HEAD~2`: an outside attack). As git
 * 2.39 reads them: `-v`, `--sort` and `--format` do not list (`git branch -v x` made `x`); an abbreviation counts as none.
 */
const listsRefs: Readonly<Record<string, RegExp>> = {
  'git branch': /^(?:-[a-km-zA-Z]*l[a-zA-Z]*|--(?:list|contains|no-contains|merged|no-merged|points-at|show-current)(?:=.*)?)$/s,
  'git tag': /^(?:-[a-kmo-zA-Z]*[ln][a-zA-Z\d]*|--(?:list|contains|no-contains|merged|no-merged|points-at)(?:=.*)?)$/s,
};

/** The first of `further` that names a branch or tag `git branch` or `git tag` would make (`listsRefs`), or `undefined`. */
function madeRef(names: readonly string[], words: readonly string[], further: readonly string[]): string | undefined {
  const lists = names.map((named) => listsRefs[named]).find((pattern) => pattern !== undefined);
  if (lists === undefined || [...words, ...further].some((word) => lists.test(word))) return undefined;
  return further.find((word) => !word.startsWith('-'));
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
  const risks = names.flatMap((named) => programRisks.byProgram[named] ?? []);
  if (names.some((named) => interpreters.has(named))) risks.push(programRisks.interpreter, programRisks.testRunners);
  if (risks.includes(programRisks.packageManagers)) risks.push(programRisks.testRunners, programRisks.linters);
  // The program's own options (`programRisks.ownOptions`), by its name and subcommand only, never another word's.
  const own = [names[0], names.at(-1)].flatMap((named) => (named === undefined ? [] : (programRisks.ownOptions[named] ?? [])));
  const ownLetters = own.map((options) => options.short).join('');
  const every = programRisks.every;
  risks.push(ownLetters === '' ? every : { ...every, short: [...every.short].filter((letter) => !ownLetters.includes(letter)).join('') });
  const singleDash = risks.some((risk) => risk.singleDash === true);
  const targets = furtherTargets(words, further, name);
  const ruleOptions = words.slice(1).flatMap((word) => optionKeys(word, singleDash));
  const whole = new Set(own.flatMap((options) => options.long).map((option) => option.replace(/-/g, '')));
  const made = madeRef(names, words, further);
  for (const [index, argument] of further.entries()) {
    if (argument === made) return { argument, why: `makes a ${names.includes('git tag') ? 'tag' : 'branch'} of the name given, changing the repository` };
    const risk = risks.find((candidate) => isRisky(argument, candidate, singleDash, whole));
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
  // What follows a cluster of short options (`-F/tmp/x`, `-I/usr/include`), digits being options too (grep's `-1f/tmp/x`
  // is `-1 -f /tmp/x`: an outside attack). Any other word stays as it is (a long option's keeps a dash in front), which
  // adds no part the split below does not find.
  const shortValue = argument.replace(/^-[a-z\d]*/i, '');
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

/** `whole`: the program's own whole options (`programRisks.ownOptions`, dashes dropped), never taken for abbreviations. */
function isRisky(argument: string, risks: ProgramRisks, singleDash: boolean, whole: ReadonlySet<string>): boolean {
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
        const abbreviates = !singleDash && !whole.has(given) && named.startsWith(given);
        if (named.endsWith('*')) return given.startsWith(named.slice(0, -1)) || abbreviates;
        return given === named || abbreviates;
      }) === true,
  );
}
