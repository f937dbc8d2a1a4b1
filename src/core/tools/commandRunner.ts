/** One process to start, argv without a shell. Durations in milliseconds, sizes in bytes. */
export interface CommandSpec {
  /** Program and arguments; `argv[0]` is looked up on `PATH`. Never passed to a shell. */
  argv: string[];
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
}

/**
 * Starts processes for `run_command` (a port: the Node one lives in `src/node`). Must run
 * without a shell, inside the workspace, with secret-looking environment variables removed,
 * and kill the whole process tree on timeout or when `signal` aborts (within 1 s), then
 * resolve with what it has; it rejects only when the process cannot be started.
 */
export interface CommandRunner {
  /** The absolute working directory `cwd` resolves to, for showing the user. */
  describeCwd(cwd: string): Promise<string>;
  run(spec: CommandSpec, signal: AbortSignal): Promise<CommandResult>;
}
