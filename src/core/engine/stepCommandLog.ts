import type { CommandLog } from '../tools/tool';
import { StepFailure } from '../tools/stepFailure';
import { commandKey, type RunEventBody, type RunState } from './runEvents';

/**
 * The `CommandLog` of step `stepId`: a command it starts is journaled (`command_started`) and stored (`flush`) before it
 * starts, and one it started before the run was interrupted may have run (`commandsInterrupted` of its state). The same
 * for the step's own commands and its check commands: a resumed run asks before either runs again. A command whose start
 * the store refused (a full disk) does not start: the step fails, not retried, since a resumed run could not tell it ran.
 */
export function stepCommandLog(
  stepId: string,
  state: () => Readonly<RunState>,
  journal: (body: RunEventBody) => void,
  flush: () => Promise<boolean>,
): CommandLog {
  return {
    mayHaveRun: (argv, cwd) => state().steps[stepId]?.commandsInterrupted?.includes(commandKey(argv, cwd)) ?? false,
    async starting(argv, cwd) {
      journal({ type: 'command_started', stepId, argv: [...argv], cwd });
      // Started unjournaled, a crash would leave no trace of it, and a resumed run would run it again unasked (an outside attack).
      if (!(await flush())) {
        throw new StepFailure(
          'The command was not started: the run journal could not be written (is the disk full?), so a resumed run could not tell that it ran. Free some space, then resume the run.',
          false,
        );
      }
    },
  };
}
