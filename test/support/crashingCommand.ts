import type { CommandResult, CommandRunner } from '../../src/core/commandPorts';

/** What a command that ran to its end returned, saying `stdout`. */
export function finishedCommand(stdout: string): CommandResult {
  return { exitCode: 0, signal: null, stdout, stderr: '', timedOut: false, truncated: false, durationMs: 1 };
}

/**
 * A runner that counts its starts: the first never ends (the process dies while the command runs, as a crash leaves
 * it), each later one finishes with `stdout`.
 */
export function diesOnFirstStart(stdout: string): CommandRunner & { starts: number } {
  const counting = {
    starts: 0,
    describeCwd: async () => '/work/project',
    run: async (): Promise<CommandResult> => {
      counting.starts++;
      return counting.starts === 1 ? new Promise<never>(() => undefined) : finishedCommand(stdout);
    },
  };
  return counting;
}
