import type { Step } from '../plan/planSchema';
import type { RunState } from './runEvents';
import type { Interaction } from '../interactionPorts';
import type { ToolContext } from '../tools/tool';

/** What `stepRunner` receives for one attempt of an `agent` or `synthesis_gate` step. */
export interface StepRunnerContext {
  runId: string;
  objective: string;
  /** The step's input, templates resolved, with the verification diagnosis appended on a retry. */
  input: string;
  /** Results of the step's direct dependencies, by id. */
  depends: Record<string, unknown>;
  /** 1-based. */
  attempt: number;
  /** The previous attempt's verification diagnosis, on a retry after one. */
  diagnosis?: string;
  /** Aborted on cancellation, a critical halt or the step's timeout. */
  signal: AbortSignal;
  /** Step-scoped user interaction (requests are journaled and may be deferred). */
  interaction: Interaction;
  /** Streams text to the run's `step_output` events. */
  output(text: string): void;
  /** Says where the attempt stands, one short line (`step_progress`), with its percentage when the work says it; the latest replaces the one before. */
  progress(message: string, percent?: number): void;
}

/**
 * Executes `agent` and `synthesis_gate` steps (docs/architecture.md §11). A thrown error is a step
 * failure with that message; throwing `DeferredError` suspends the step.
 */
export type StepRunner = (step: Step, ctx: StepRunnerContext) => Promise<unknown>;

/**
 * Work the host does as each step completes: after every verification of the attempt
 * passed, before `step_completed`, with the tool context of that attempt, so a file it
 * changes through `changeFile` is asked, checkpointed (undoable) and journaled as the
 * step's own change. A rejection or a refusal never fails the step: it becomes a
 * `step_warning` saying why. It returns `undefined` at once for a step it has nothing to
 * do for: that step completes in the same turn, as without an epilogue. `run`: the run as it
 * stands (its plan, and the steps that completed before this one; this one is not yet).
 */
export type StepEpilogue = (step: Step, tools: ToolContext, signal: AbortSignal, run: Readonly<Pick<RunState, 'plan' | 'steps'>>) => Promise<void> | undefined;
