import type { AgentChanges } from '../text/agentChanges';

/**
 * What an executor may resolve to instead of a bare result, when it knows more than the
 * result: the file changes an agent asked for (kept in the step's state and its
 * `step_completed` event), and, for a step with an output schema, why its answer could not
 * be read as JSON (a verification failure). Any other value an executor resolves to is the
 * result itself.
 */
export class StepOutcome {
  constructor(
    readonly result: unknown,
    readonly changes?: AgentChanges,
    /** Under an output schema: no reply was JSON; the diagnosis in words. */
    readonly unreadable?: string,
  ) {}
}
