/** The name that marks an abort reason as an interruption (checked by name: the editor and the engine are separate bundles). */
const interruptionName = 'RunInterrupted';

/**
 * The abort reason for a run stopped because its host went away (a window closing or
 * reloading), not by the user: the run ends `interrupted` instead of `cancelled`, and the
 * host offers to resume it. `message` says what happened, for people.
 */
export function runInterruption(message: string): Error {
  const error = new Error(message);
  error.name = interruptionName;
  return error;
}

/** Whether `reason` (an abort reason) came from `runInterruption`. */
export function isRunInterruption(reason: unknown): boolean {
  return reason instanceof Error && reason.name === interruptionName;
}
