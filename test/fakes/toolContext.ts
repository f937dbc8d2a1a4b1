import type { Interaction } from '../../src/core/interactionPorts';
import type { CheckpointStore } from '../../src/core/runStorePorts';
import type { Logger } from '../../src/core/servicePorts';
import type { WorkspaceFs } from '../../src/core/workspacePorts';
import { createMemoryCheckpointStore } from '../../src/core/tools/checkpointStore';
import type { CommandLog, ToolContext } from '../../src/core/tools/tool';
import { ManualClock } from './manualClock';
import { ScriptedInteraction } from './scriptedInteraction';
import { createMemoryWorkspace } from './memoryWorkspace';

/** A logger that keeps nothing. */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A `ToolContext` for tests: memory workspace, approving interaction, manual clock, memory checkpoints, unless given. */
export function makeToolContext(overrides: Partial<ToolContext> & { workspace?: WorkspaceFs; interaction?: Interaction; checkpoints?: CheckpointStore } = {}): ToolContext {
  return {
    runId: 'run-1',
    stepId: 'S1',
    stepTitle: 'Test step',
    workspace: createMemoryWorkspace(),
    interaction: ScriptedInteraction.approvingAll(),
    approvalPolicy: 'writesAndCommands',
    clock: new ManualClock(),
    logger: silentLogger,
    checkpoints: createMemoryCheckpointStore(),
    ...overrides,
  };
}

/** A signal that never aborts. */
export const neverAborted = new AbortController().signal;

/** A `CommandLog` of a step that started no command before (nothing may have run) and journals nothing. */
export const freshCommandLog: CommandLog = { mayHaveRun: () => false, starting: () => Promise.resolve() };
