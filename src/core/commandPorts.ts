// Ports of the processes a run starts: the command runner and the user's allow rules.
// Every port of the core is in a `*Ports.ts` file at the root of src/core (docs/architecture.md, Ports).

/**
 * Where a program named without a path (`mypy`) was found when it comes from one of the
 * project's own program folders instead of `PATH` (see `CommandRunner.describeProgram`).
 */
export interface ProjectProgram {
  /** The absolute path of the file that runs. */
  path: string;
  /**
   * The program as shown and as an allow rule names it: workspace-relative
   * (`.venv/bin/mypy`) when it lies in the workspace folder, else absolute.
   */
  shown: string;
  /** Where it comes from: the workspace's Python virtual environment, the one the Python extension selected, or `node_modules/.bin`. */
  from: 'virtualEnvironment' | 'selectedPythonEnvironment' | 'nodeModules';
}

/** A helper a program runs for its subcommand (`git-lfs` for `git lfs`) found in the project's own program folders. */
export interface ProgramHelper extends ProjectProgram {
  /** The helper's name as the program looks it up (`git-lfs`). */
  name: string;
}

/** One process to start, argv without a shell. Durations in milliseconds, sizes in bytes. */
export interface CommandSpec {
  /** Program and arguments; `argv[0]` is looked up on `PATH`. Never passed to a shell. */
  argv: string[];
  /**
   * The absolute path `CommandRunner.describeProgram` found for `argv[0]` and the user was
   * shown: the runner starts exactly that file (`argv[0]` stays the process's name).
   */
  program?: string;
  /**
   * The user was shown `argv[0]` as the program on their own `PATH` (`describeProgram` found none of the project's): the
   * runner looks it up on `PATH` only, never in a project folder (`.venv/bin`, `node_modules/.bin`) that appeared while
   * the question was open. The command's environment stays the project's.
   */
  programOnPath?: true;
  /** Workspace-relative working directory (`''` for the root); the runner confines it. */
  cwd: string;
  /** Killed (with its whole process tree) after this long. */
  timeoutMs: number;
  /** Per stream (stdout, stderr): beyond it the middle is dropped, head and tail kept. */
  maxOutputBytes: number;
  /** Text written to the process's standard input, which is then closed. */
  stdin?: string;
  /** Called with output as it arrives (stdout and stderr interleaved). */
  onOutput?(text: string): void;
  /**
   * Runs with the user's own `PATH`, without the workspace's program folders (`.venv/bin`, `node_modules/.bin`) or its
   * virtual environment: for a command nobody was shown (an allow rule ran it), whose rule is for the programs on the
   * user's `PATH`, so that no program it starts by name (`node` from npm's `#!/usr/bin/env node`, git's `ssh`) is the
   * repository's. Absent: the runner's environment, the workspace's own programs first where it gives them.
   */
  withoutProjectPrograms?: boolean;
  /**
   * What the repository's own git configuration makes git run for this command, as
   * `CommandRunner.describeRepositoryPrograms` gave it and the user was shown (absent: nothing was shown). A git
   * command whose repository names any other (a `.git/config` changed while the question was open, or nobody was
   * asked) is not started: the runner rejects it, naming them.
   */
  repositoryPrograms?: readonly string[];
}

/** How a process ended. `exitCode` is `null` when it was killed by a signal. */
export interface CommandResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when some output was dropped to stay under `maxOutputBytes`. */
  truncated: boolean;
  durationMs: number;
  /** The program that ran when it came from a project folder rather than `PATH` (`ProjectProgram.shown`: `.venv/bin/mypy`). */
  program?: string;
}

/**
 * Starts processes for `run_command` (the Node one lives in `src/node`). Must run
 * without a shell, inside the workspace, with secret-looking environment variables removed,
 * and kill the whole process tree on timeout or when `signal` aborts (within 1 s), then
 * resolve with what it has; it rejects only when the process cannot be started, with an
 * error whose `code` is the system's reason when known (`ENOENT`: no such program; `EACCES`:
 * not executable), which `run_command` does not retry.
 */
export interface CommandRunner {
  /** The absolute working directory `cwd` resolves to, for showing the user. */
  describeCwd(cwd: string): Promise<string>;
  /**
   * Where `program` (`argv[0]`) run in the workspace-relative `cwd` comes from when it is
   * one of the project's own programs (its Python virtual environment, `node_modules/.bin`)
   * rather than one `PATH` leads to; `undefined` otherwise (on `PATH`, a path, not found).
   */
  describeProgram?(program: string, cwd: string): Promise<ProjectProgram | undefined>;
  /**
   * For a git command (`argv`) run in the workspace-relative `cwd`, the programs the repository's own configuration
   * makes git run for it, in the user's words (`diff.evil.textconv = ./conv.sh (.git/config)`, `the hook pre-commit
   * (.git/hooks/pre-commit)`): its diff drivers, filters, editors, credential helpers, hooks…, which a repository
   * unpacked from an archive, or written by another program, can name. Empty for other programs and when it names none.
   */
  describeRepositoryPrograms?(argv: readonly string[], cwd: string): Promise<string[]>;
  run(spec: CommandSpec, signal: AbortSignal): Promise<CommandResult>;
}

/**
 * The user's command allow rules in force: exact argv prefixes (`["npm", "test"]`) that
 * `run_command` runs without asking (see `matchingAllowRule`). Read at every command, so a
 * rule removed, a setting changed or trust withdrawn applies to the next one; the editor's
 * leaves the workspace's own rules out in Restricted Mode.
 */
export interface CommandAllowList {
  rules(): readonly (readonly string[])[];
}
