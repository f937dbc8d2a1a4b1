import type { CommandResult } from '../commandPorts';

/**
 * What kind of failure a command's end is (docs/architecture.md §4): the program is not
 * there or cannot be executed, it refused its command line (a usage error), the tests it
 * ran failed, some other exit code; or a time-out, a signal or a network error, the only
 * ones another attempt of the same command line may get past.
 */
export const commandFailureKinds = ['not_found', 'not_executable', 'usage', 'tests_failed', 'exit', 'timed_out', 'signal', 'network'] as const;
/** A kind of command failure. */
export type CommandFailureKind = (typeof commandFailureKinds)[number];

// Why the same command line, run again on the same files, would end the same way; `undefined`: it may end otherwise.
const notRetriedBecause: Readonly<Record<CommandFailureKind, string | undefined>> = {
  not_found: 'another attempt would not find it either.',
  not_executable: 'another attempt would not start it either.',
  usage: 'the same command line fails the same way.',
  tests_failed: 'the same tests on the same code fail again.',
  exit: 'the same command line on the same files ends the same way (only a time-out, a signal or a network error is retried).',
  timed_out: undefined,
  signal: undefined,
  network: undefined,
};

/** A command's failure: its kind, whether another attempt may help, and what to tell the user (and a model). */
export interface CommandFailure {
  kind: CommandFailureKind;
  transient: boolean;
  /** What it means and what to do, without the output; absent when the exit code and output say it all. */
  diagnosis?: string;
  /** Why another attempt would end the same way; absent when it is transient. */
  notRetried?: string;
}

/** Most characters of output quoted in a diagnosis (a usage message, the line naming a missing module). */
const maxQuotedChars = 300;

/** Programs that run test suites (by their name, without a folder or `.exe`/`.cmd`). */
const testRunners = new Set(['pytest', 'py.test', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'karma', 'phpunit', 'rspec', 'tox', 'nox', 'ctest', 'nosetests']);
/** Programs whose `test` subcommand runs the tests (`npm test`, `go test`, `cargo test`, `make check`). */
const testSubcommands = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'go',
  'cargo',
  'dotnet',
  'mvn',
  'mvnw',
  'gradle',
  'gradlew',
  'swift',
  'make',
  'just',
  'rake',
  'mix',
]);

const networkError =
  /\b(?:ECONNRESET|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|ENETDOWN)\b|socket hang up|could not resolve host|temporary failure in name resolution|name or service not known|network is unreachable|connection (?:reset|refused|timed out)|failed to connect|TLS handshake timeout|i\/o timeout|\b(?:502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out|429 Too Many Requests)\b/i;
const usageMessage =
  /\busage:|unrecognized (?:arguments?|option)|unknown (?:option|argument|command|flag|switch)|invalid (?:option|argument|choice)|illegal option|no such (?:option|command)|(?:missing|requires an?) (?:required )?argument|error: argument /i;
const missingModule = /No module named '?([\w.]+)'?/;
// pytest's exit 2 after it could not import a test module ("Interrupted: 1 error during collection"): no test ran.
const collectionError = /\berrors? during collection\b/;

/**
 * Why a program could not start, from the runner's rejection (`CommandRunner.run`, whose
 * message says where it looked and how to get it): its `code` `ENOENT` (no such program) or
 * `EACCES`/`ENOEXEC`/`EPERM` (not executable, with a sentence on what to do), neither worth another attempt; `undefined`
 * for any other reason (then nothing is known about retrying).
 */
export function classifyStartFailure(error: unknown): CommandFailure | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'ENOENT') return failure('not_found');
  if (code === 'EACCES' || code === 'ENOEXEC' || code === 'EPERM') {
    return failure('not_executable', 'Make it executable (chmod +x) or run it through its interpreter.');
  }
  return undefined;
}

/**
 * What a command that ended badly (`result`: a time-out, a signal or a non-zero exit) tells:
 * exit 127 and Python's "No module named x" are something not installed, 126 something
 * not executable; pytest's exit 2 with errors during collection, tests that could not be
 * collected (an import error: not found); exit 2 or 64 with a usage message, and pytest's 4 and 5, a command line
 * the program refused; a test runner's other exit codes, failing tests; output naming a
 * network error, a network error; a time-out or a signal, themselves. Only the last three
 * are transient.
 */
export function classifyCommandEnd(
  argv: readonly string[],
  result: Pick<CommandResult, 'exitCode' | 'signal' | 'stdout' | 'stderr' | 'timedOut'>,
): CommandFailure {
  if (result.timedOut) return failure('timed_out');
  if (result.exitCode === null) return failure('signal');
  const code = result.exitCode;
  const output = `${result.stderr}\n${result.stdout}`;
  const name = programName(argv);
  const pytest = runsPytest(argv);
  const module = missingModule.exec(result.stderr)?.[1];
  // Before "No module named" in stderr: pytest prints its import error on stdout, and it is rarely a package to install.
  if (pytest && code === 2 && collectionError.test(output)) return collectionFailure(missingModule.exec(result.stdout)?.[1]);
  if (code === 127) return failure('not_found', `a program it runs was not found: ${name} or what it starts is not installed or not on PATH.`);
  if (code === 126) return failure('not_executable', 'a program it runs cannot be executed: make it executable or run it through its interpreter.');
  if (module !== undefined) {
    const python = argv[0] ?? 'python3';
    return failure(
      'not_found',
      `the Python module ${module} is not installed for ${python}: install it there (${python} -m pip install ${module.split('.')[0]}) or run the project's environment's Python.`,
    );
  }
  if (pytest && code === 5) return failure('usage', 'pytest collected no tests: check the paths and names it was given.');
  if ((pytest && code === 4) || ((code === 2 || code === 64) && usageMessage.test(output))) {
    const said = quotedUsage(output);
    return failure('usage', `${name} did not accept its command line (a usage error)${said ? `: ${said}` : ''}. Fix the arguments.`);
  }
  const network = networkError.exec(output)?.[0];
  if (network !== undefined) return failure('network', `a network error (${network}); another attempt may get through.`);
  if (runsTests(argv, pytest)) {
    return failure(
      'tests_failed',
      'the tests ran and some failed. Fix what fails (the output says which), then run them again.',
    );
  }
  return failure('exit');
}

/** pytest could not collect the tests (a newcomer's trial read "the tests ran and some failed" for an import error of the package). */
function collectionFailure(module: string | undefined): CommandFailure {
  if (module === undefined) {
    const why = 'a test module failed to import or has a syntax error (see the output)';
    return failure('exit', `pytest could not collect the tests, so none ran: ${why}. Fix it, then run them again.`);
  }
  return failure(
    'not_found',
    `pytest could not import ${module} while collecting the tests, so none ran: when it is the project's own package, install it in this environment ` +
      `(pip install -e .) or run pytest as python -m pytest from the project's folder; otherwise install ${module.split('.')[0]} where pytest runs.`,
  );
}

function failure(kind: CommandFailureKind, diagnosis?: string): CommandFailure {
  const notRetried = notRetriedBecause[kind];
  return { kind, transient: notRetried === undefined, ...(diagnosis === undefined ? {} : { diagnosis }), ...(notRetried === undefined ? {} : { notRetried }) };
}

/** The program's name without a folder or a Windows extension, lower case. */
function baseName(program: string): string {
  return (program.split(/[\\/]/).pop() ?? program).replace(/\.(?:exe|cmd|bat)$/i, '').toLowerCase();
}

/** The name to give the program in a diagnosis: `python3 -m pytest` is pytest. */
function programName(argv: readonly string[]): string {
  const module = moduleRun(argv);
  return module ?? argv[0] ?? 'the program';
}

/** The module of `python -m module …`, when that is what runs. */
function moduleRun(argv: readonly string[]): string | undefined {
  if (!/^python[\d.]*$|^py$/.test(baseName(argv[0] ?? ''))) return undefined;
  const flag = argv.indexOf('-m');
  return flag > 0 ? argv[flag + 1] : undefined;
}

function runsPytest(argv: readonly string[]): boolean {
  const program = baseName(argv[0] ?? '');
  const module = moduleRun(argv);
  return (
    program === 'pytest' ||
    program === 'py.test' ||
    module === 'pytest' ||
    ((program === 'uv' || program === 'poetry' || program === 'pipenv') && argv.includes('pytest'))
  );
}

function runsTests(argv: readonly string[], pytest: boolean): boolean {
  if (pytest) return true;
  const program = baseName(argv[0] ?? '');
  const module = moduleRun(argv);
  if (testRunners.has(program) || module === 'unittest' || module === 'nose2') return true;
  if ((program === 'npx' || program === 'pnpx' || program === 'bunx') && testRunners.has(baseName(argv[1] ?? ''))) return true;
  if (!testSubcommands.has(program)) return false;
  const words = argv.slice(1).filter((word) => !word.startsWith('-'));
  const first = words[0] === 'run' ? words[1] : words[0];
  return first !== undefined && /^(?:t|test|tests|check)(?::[\w-]+)?$/.test(first);
}

/** The lines of `output` that say what was wrong with the command line: its "error:" line, then its "usage:" line. */
function quotedUsage(output: string): string {
  const lines = output.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  const error = lines.find((line) => /\berror\b/i.test(line)) ?? lines.find((line) => usageMessage.test(line));
  const usage = lines.find((line) => /\busage:/i.test(line));
  const said = [...new Set([error, usage].filter((line): line is string => line !== undefined))].join(' / ');
  return said.length > maxQuotedChars ? `${said.slice(0, maxQuotedChars - 1)}…` : said;
}
