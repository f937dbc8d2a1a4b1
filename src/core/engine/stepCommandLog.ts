import type { CommandLog } from '../tools/tool';
import { commandKey, type RunEventBody, type RunState } from './runEvents';

/**
 * The `CommandLog` of step `stepId`: a command it starts is journaled (`command_started`) and stored (`flush`) before it
 * starts, and one it started before the run was interrupted may have run (`commandsInterrupted` of its state). The same
 * for the step's own commands and its check commands: a resumed run asks before either runs again.
 */
export function stepCommandLog(stepId: string, state: () => Readonly<RunState>, journal: (body: RunEventBody) => void, flush: () => Promise<void>): CommandLog {
  return {
    mayHaveRun: (argv, cwd) => state().steps[stepId]?.commandsInterrupted?.includes(commandKey(argv, cwd)) ?? false,
    async starting(argv, cwd) {
      journal({ type: 'command_started', stepId, argv: [...argv], cwd });
      await flush();
    },
  };
}
