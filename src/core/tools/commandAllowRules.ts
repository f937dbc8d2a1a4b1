import { z } from 'zod';
import { directionControlClass } from '../../shared/vocabulary';
import { visibleControls, visibleEscape } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';
import { shownCommandWord } from './commandApprovalText';
import { furtherArgumentsProblem, riskyArgument } from './riskyArguments';

/**
 * A command allow rule: an exact argv. `["npm", "test"]` allows `npm test` and nothing
 * else: never `npm test --prefix x`, `npm testx`, `npm` alone, `NPM test` or
 * `sh -c "npm test"`. A rule whose last word is `...` (`furtherArguments`) allows its
 * other words followed by any further arguments, except arguments that write files, read
 * configuration or run another program (`riskyArgument`): those always ask.
 */
export type CommandAllowRule = readonly string[];

/** The last word of a rule that allows further arguments: `npm test ...`. */
export const furtherArguments = '...';

/** Most entries read from one source, most words in a rule, longest word (characters), most problems reported per source. */
export const allowRuleLimits = { rules: 200, words: 64, wordChars: 1000, problems: 10 } as const;

/** A command as the rules look at it: argv (through a shell only when `shell`) in the workspace-relative folder `cwd` (`''`: the workspace folder). */
export interface RuledCommand {
  argv: readonly string[];
  cwd: string;
  shell: boolean;
  /**
   * The program `argv[0]` resolved to when it comes from the project's own folders rather
   * than `PATH` (`ProjectProgram.shown`: `.venv/bin/git`): a rule allows it only if its
   * first word is that path, never a rule for the bare name.
   */
  program?: string;
}

// Every character that is not shown as itself: C0 and C1 controls (tab and line feed too), DEL, the line and paragraph separators, the direction controls.
const invisible = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029${directionControlClass}]`);

// Programs that run whatever command follows them: no rule may start with one, since it would allow every command.
const wrappers = new Set([
  'env', 'sudo', 'doas', 'su', 'runuser', 'pkexec', 'xargs', 'nohup', 'timeout', 'nice', 'ionice', 'time', 'exec', 'command', 'builtin',
  'eval', 'strace', 'ltrace', 'watch', 'chroot', 'setsid', 'unshare', 'nsenter', 'flock', 'stdbuf', 'taskset', 'busybox', 'start', 'script',
  'prlimit', 'setpriv', 'chrt', 'xvfb-run', 'firejail', 'bwrap', 'proot', 'fakeroot', 'systemd-run', 'unbuffer', 'faketime', 'dbus-run-session',
  'ssh-agent', 'parallel', 'valgrind', 'catchsegv', 'sg', 'schroot', 'cross-env', 'env-cmd', 'dotenv', 'concurrently', 'watchexec', 'entr',
  'setarch', 'linux', 'perf', 'gdb', 'lldb', 'eatmydata', 'numactl', 'mpirun', 'mpiexec', 'hyperfine', 'dbus-launch', 'wsl', 'tmux',
  'screen', 'vim', 'vi', 'nvim', 'ed', 'ex', 'emacs',
]);

// Shells, interpreters and package runners: what they run is named by the word after them (a script, a module, a package), which the rule must name.
const interpreters = new Set([
  'sh', 'bash', 'zsh', 'fish', 'dash', 'ksh', 'mksh', 'csh', 'tcsh', 'ash', 'pwsh', 'powershell', 'cmd', 'node', 'nodejs',
  'python', 'py', 'pypy', 'perl', 'ruby', 'php', 'lua', 'luajit', 'tclsh', 'wish', 'rscript', 'osascript', 'wscript', 'cscript', 'java',
  'npx', 'pnpx', 'bunx', 'uvx', 'tsx', 'ts-node', 'ts-node-esm', 'r', 'julia', 'awk', 'gawk', 'mawk', 'nawk', 'groovy', 'jshell', 'elixir',
  'escript', 'racket', 'guile', 'rbash', 'ipython', 'irb', 'bpython',
]);

// Tools whose subcommands run a program or code named after them: such a rule must name the tool's subcommand, and after one of these also what it runs.
const runnerSubcommands: Readonly<Record<string, readonly string[]>> = {
  // `run` too: npm and yarn have a script of their own, `env`, that runs whatever follows it (`npm run env -- perl -e …`).
  npm: ['exec', 'x', 'run', 'run-script', 'rum', 'urn'],
  pnpm: ['exec', 'dlx', 'run'],
  yarn: ['exec', 'dlx', 'node', 'run'],
  bun: ['x', 'exec', 'run', 'eval'],
  deno: ['run', 'eval', 'x', 'repl'],
  uv: ['run', 'tool'],
  pipx: ['run'],
  poetry: ['run'],
  pipenv: ['run'],
  git: [],
  cargo: [],
  go: ['run'],
  dotnet: ['exec', 'run'],
  bundle: ['exec'],
  docker: ['run', 'exec', 'container', 'compose'],
  podman: ['run', 'exec', 'container', 'compose'],
};

// Options of an interpreter that name what it runs in the word after them (`python -m pytest`, `java -jar app.jar`).
const namingOptions: Readonly<Record<string, readonly string[]>> = { python: ['-m'], py: ['-m'], pypy: ['-m'], java: ['-jar'] };

/**
 * Why `rule` cannot be an allow rule, in the user's words (naming the rule), or
 * `undefined` when it can. Refused: an empty rule (it would allow every command), a
 * blank or padded program name, more than `allowRuleLimits` words or characters, an
 * invisible character (a control, a direction mark: the rule would not show what it
 * allows), a program that runs whatever command follows it (`env`, `sudo`, `xargs`…), and
 * a shell, interpreter or package runner without the script, module or package it runs
 * (`node`, `bash -c`, `python -c`, `npx`, `npm exec`): each would allow any code.
 */
export function allowRuleProblem(rule: CommandAllowRule): string | undefined {
  if (rule.length === 0) return 'an empty rule would allow every command';
  if (rule.length > allowRuleLimits.words) return `${shown(rule)} has more than ${allowRuleLimits.words} words`;
  if (rule.some((word) => word.length > allowRuleLimits.wordChars)) return `${shown(rule)} has a word longer than ${allowRuleLimits.wordChars} characters`;
  const program = rule[0] ?? '';
  if (program === '' || program.trim() !== program) return `${shown(rule)} needs a program name without spaces around it as its first word`;
  if (rule.some((word) => invisible.test(word) || visibleControls(word) !== word)) {
    return `${shown(rule)} contains an invisible character (a control, a direction mark, or one that shows nothing)`;
  }
  const name = programName(program);
  if (wrappers.has(name)) return `${shown(rule)} starts with ${program}, which runs whatever command follows it; allow that command itself instead`;
  const words = ruleWords(rule);
  if (words.includes(furtherArguments) || words.length === 0) {
    return `${shown(rule)} may have "${furtherArguments}" only as its last word, after the program and its arguments`;
  }
  const target = targetIndex(words, name);
  if (target !== undefined) {
    const word = words[target];
    if (word === undefined || word.startsWith('-')) {
      return `${shown(rule)} would let ${program} run any code; name what it runs as well (its script, module, package or subcommand)`;
    }
  }
  const further = words.length < rule.length ? furtherArgumentsProblem(words, programName) : undefined;
  return further === undefined ? undefined : `${shown(rule)}: ${further}`;
}

/**
 * The first of `rules` that allows `command`, or `undefined`. A rule allows a command run
 * without a shell whose argv is the rule's words, each equal code unit for code unit (no
 * case folding, no Unicode normalization, no trimming), so a look-alike word never
 * matches; a rule ending in `...` allows its words followed by further arguments none of
 * which `riskyArgument` finds (`--output`, `--prefix`, `--script-shell`…). A rule whose
 * program is a relative path (`./gradlew`, `bin/test`) allows it only in the workspace
 * folder itself, where that path leads to the file the rule was made for. A command whose
 * program comes from the project's own folders (`RuledCommand.program`: a repository's
 * `.venv/bin/git`) is allowed only by a rule naming that path, never by one made for the
 * program on `PATH`. A rule `allowRuleProblem` refuses never allows anything, whatever its source.
 */
export function matchingAllowRule(rules: readonly CommandAllowRule[], command: RuledCommand): CommandAllowRule | undefined {
  return rules.find((rule) => ruleVerdict(rule, command) === true);
}

/**
 * Why no rule allows `command` although a rule ending in `...` starts like it: the first
 * such rule and the argument that asks, with what it does, in the user's words; or
 * `undefined` (a rule allows it, or none comes close).
 */
export function argumentLeftToAsk(rules: readonly CommandAllowRule[], command: RuledCommand): string | undefined {
  if (matchingAllowRule(rules, command) !== undefined) return undefined;
  for (const rule of rules) {
    const verdict = ruleVerdict(rule, command);
    if (typeof verdict === 'object') {
      return `the rule "${describeAllowRule(rule)}" does not cover ${shownCommandWord(verdict.argument)}, which ${verdict.why}`;
    }
  }
  return undefined;
}

/** `rule` as the user reads it: plain words as they are, others as JSON strings with invisible characters escaped; at most 300 characters. */
export function describeAllowRule(rule: CommandAllowRule): string {
  return capText(rule.map(shownCommandWord).join(' '), 300);
}

/** What `rule` allows, in the user's words: the exact command, or the command with further arguments and what still asks. */
export function allowRuleMeaning(rule: CommandAllowRule): string {
  const words = ruleWords(rule);
  const command = capText(words.map(shownCommandWord).join(' '), 300);
  return words.length === rule.length
    ? `runs "${command}" exactly as written without asking (add ${furtherArguments} at the end to allow further arguments)`
    : `runs "${command}" with any further arguments without asking, except arguments that write files, read configuration or run another program (those ask)`;
}

/** The value of the `taskPlanner.commands.allowed` setting: command lines (`"npm test"`) or argv arrays (`["npm", "test"]`). */
export const allowRuleEntrySchema = z.union([z.string(), z.array(z.string())]);

/**
 * The rules of a setting's `value` (`allowRuleEntrySchema` entries), each checked by
 * `allowRuleProblem`; a command line is split at spaces and may hold only plain words
 * (letters, digits and `_@%+=:,./-`), the array form being the one for other arguments.
 * `problems` names each entry left out, in the user's words, starting with `where`
 * (e.g. the setting's name); every other entry is kept. At most `allowRuleLimits.rules`
 * entries are read and `allowRuleLimits.problems` problems named (then how many more).
 */
export function readAllowRules(value: unknown, where: string): { rules: CommandAllowRule[]; problems: string[] } {
  if (value === undefined || value === null) return { rules: [], problems: [] };
  if (!Array.isArray(value)) {
    const problem = `${where} must be a list of commands, each a command line such as "npm test" or a list of words such as ["npm", "test"]; it was ignored.`;
    return { rules: [], problems: [problem] };
  }
  const rules: CommandAllowRule[] = [];
  const problems: string[] = [];
  const entries = value as unknown[];
  for (const [index, entry] of entries.slice(0, allowRuleLimits.rules).entries()) {
    const label = `${where}, entry ${index + 1}`;
    if (Array.isArray(entry) && entry.length > allowRuleLimits.words) {
      problems.push(`${label}: has more than ${allowRuleLimits.words} words; it was ignored.`);
      continue;
    }
    const parsed = allowRuleEntrySchema.safeParse(entry);
    if (!parsed.success) {
      problems.push(`${label}: must be a command line such as "npm test" or a list of words such as ["npm", "test"]; it was ignored.`);
      continue;
    }
    const rule = typeof parsed.data === 'string' ? ruleOfCommandLine(parsed.data) : parsed.data;
    if (typeof rule === 'string') {
      problems.push(`${label}: ${rule}; it was ignored.`);
      continue;
    }
    const problem = allowRuleProblem(rule);
    if (problem === undefined) rules.push(rule);
    else problems.push(`${label}: ${problem}; it was ignored.`);
  }
  if (entries.length > allowRuleLimits.rules) problems.push(`${where} holds more than ${allowRuleLimits.rules} entries; the rest were ignored.`);
  const more = problems.length - allowRuleLimits.problems;
  return { rules, problems: more > 0 ? [...problems.slice(0, allowRuleLimits.problems), `…and ${more} more problems in ${where}.`] : problems };
}

/** Two rules are the same rule when their words are. */
export function sameAllowRule(a: CommandAllowRule, b: CommandAllowRule): boolean {
  return a.length === b.length && a.every((word, index) => b[index] === word);
}

/**
 * The rule a command line typed by the user makes (split at spaces, plain words only, as
 * in the setting), or why it cannot be one (`allowRuleProblem`), in the user's words.
 */
export function allowRuleOfCommandLine(line: string): { rule: CommandAllowRule } | { problem: string } {
  const rule = ruleOfCommandLine(line);
  if (typeof rule === 'string') return { problem: rule };
  const problem = allowRuleProblem(rule);
  return problem === undefined ? { rule } : { problem };
}

/** Whether `rule` allows `command`, or the argument that keeps a rule ending in `...` from allowing it. */
function ruleVerdict(rule: CommandAllowRule, ruled: RuledCommand): boolean | { argument: string; why: string } {
  // A project's program is ruled by its path, relative to the workspace folder whatever the command's folder.
  const command = ruled.program === undefined ? ruled : { ...ruled, argv: [ruled.program, ...ruled.argv.slice(1)], cwd: '' };
  if (command.shell || (isRelativePath(rule[0] ?? '') && command.cwd !== '') || allowRuleProblem(rule) !== undefined) return false;
  const words = ruleWords(rule);
  // A rule longer than the argv compares a word with `undefined`: never equal.
  if (!words.every((word, index) => command.argv[index] === word)) return false;
  if (words.length === rule.length) {
    const extra = command.argv[rule.length];
    // An exact rule followed by more words: say which, so the user sees why a command that looks allowed asks.
    return (
      extra === undefined || {
        argument: extra,
        why: `comes after the words the rule allows exactly (a rule ending in ${furtherArguments} allows further arguments)`,
      }
    );
  }
  return riskyArgument(words, command.argv.slice(words.length), programName) ?? true;
}

/** The words a command must start with: the rule without its trailing `...`. */
function ruleWords(rule: CommandAllowRule): readonly string[] {
  return rule.at(-1) === furtherArguments ? rule.slice(0, -1) : rule;
}

function ruleOfCommandLine(line: string): CommandAllowRule | string {
  // No words: the empty rule, which `allowRuleProblem` refuses.
  const words = line.split(' ').filter((word) => word !== '');
  if (!words.every((word) => /^[\w@%+=:,./-]+$/.test(word))) {
    return `${JSON.stringify(capText(line, 200)).replace(new RegExp(invisible.source, 'g'), visibleEscape)} is not a plain command line (only letters, digits, spaces and _@%+=:,./- are read); write it as a list of words, such as ["npm", "test", "--", "--grep", "two words"]`;
  }
  return words;
}

/**
 * The program's name as the checks above compare it: its last path part, lower case,
 * without a Windows extension or a version suffix (`python3.12`: `python`).
 */
export function programName(program: string): string {
  const base = program.split(/[/\\]/).pop() ?? program;
  return base
    .toLowerCase()
    .replace(/\.(exe|cmd|bat|com|ps1)$/, '')
    .replace(/(?<![\d.])[\d.]+$/, '');
}

/** Where `words` must name what its program runs: after an interpreter (after `-m` for a Python), after a runner's subcommand, or the subcommand itself. */
function targetIndex(words: readonly string[], name: string): number | undefined {
  const next = words[1] ?? '';
  if (interpreters.has(name) && !Object.hasOwn(runnerSubcommands, name)) return namingOptions[name]?.includes(next) ? 2 : 1;
  const subcommands = runnerSubcommands[name];
  if (subcommands === undefined) return undefined;
  return subcommands.includes(next) ? 2 : 1;
}

function isRelativePath(program: string): boolean {
  return /[/\\]/.test(program) && !program.startsWith('/') && !/^[A-Za-z]:[/\\]/.test(program) && !program.startsWith('\\\\');
}

function shown(rule: CommandAllowRule): string {
  return `the rule "${describeAllowRule(rule)}"`;
}
