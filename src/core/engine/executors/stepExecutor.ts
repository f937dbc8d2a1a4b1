import type { CommandLog } from '../../tools/tool';
import type { AgentJournal } from '../../agent/agentTranscript';
import type { ReferenceText } from '../../plan/expandTemplates';
import type { Plan, Step } from '../../plan/planSchema';
import type { Interaction } from '../../interactionPorts';
import type { RunState } from '../runEvents';
import type { ResolvedRunOptions } from '../runOptions';

/** What preparing a step's input needs: completed results and the last diagnosis. */
export interface PrepareContext {
  step: Step;
  plan: Plan;
  results: Readonly<Record<string, unknown>>;
  /** The text a template or a reference inside a longer string gets for a result (`resultTextFor`). */
  resultText: ReferenceText;
  diagnosis?: string;
}

/** A step's input with templates resolved, and the placeholders that stayed verbatim. */
export interface PreparedInput {
  input: unknown;
  unresolved: string[];
}

/** Everything one attempt of a step may use. */
/** One update of the rolling context summary; token counts of summary + new fact before, and of the summary after. */
export interface ContextCompaction {
  stepId: string;
  summary: string;
  beforeTokens: number;
  afterTokens: number;
  method: 'append' | 'llm' | 'fallback';
  /** Why a model summary was asked for and not used (the deterministic fallback ran instead). */
  fallbackReason?: string;
}

export interface ExecuteContext {
  runId: string;
  step: Step;
  plan: Plan;
  /** 1-based. */
  attempt: number;
  diagnosis?: string;
  /** Results of the step's direct dependencies, by id. */
  depends: Record<string, unknown>;
  /** Aborted on cancellation, a critical halt or the step's timeout. */
  signal: AbortSignal;
  /** Step-scoped: requests are journaled, answered from `resumeRun` answers first, may defer. */
  interaction: Interaction;
  options: ResolvedRunOptions;
  output: (text: string) => void;
  /**
   * Says where the attempt stands, one short line (journaled as `step_progress`, cut to `maxProgressChars`), with how far
   * its work says it is (0–100) when it says so; throttled (`progressThrottle`).
   */
  progress: (message: string, percent?: number) => void;
  /** Reports that the rolling context summary was updated (journaled as `context_compacted`). */
  compacted: (report: ContextCompaction) => void;
  /** The live run state (statuses, completed results); read it, never change it. */
  state(): Readonly<RunState>;
  /** The step's journal of started commands (see `CommandLog`). */
  commandLog: CommandLog;
  /** Journals that a tool kept the workspace-relative `path` from the model (`file_withheld`), once per path in the attempt. */
  withheld: (path: string) => void;
  /** Where an agent attempt journals its conversation, with the interrupted attempt's it continues (`step_started` `continues`). */
  agentJournal?: AgentJournal;
}

/**
 * How one step kind runs. `prepare` is pure (it feeds `step_started` and the predicate's
 * `input` binding); `execute` resolves to the step's result or throws: a `StepFailure`
 * to control retrying, a `DeferredError` to suspend, any other error to fail the attempt.
 */
export interface StepExecutor {
  prepare(ctx: PrepareContext): PreparedInput;
  execute(ctx: ExecuteContext, input: unknown): Promise<unknown>;
}

/** Most characters of one `step_progress` message. */
export const maxProgressChars = 200;

/**
 * The text appended to an input when the previous attempt failed verification (docs/architecture.md §4):
 * the diagnosis, then what to do about it.
 */
export function withDiagnosis(input: string, diagnosis: string | undefined): string {
  return diagnosis === undefined ? input : `${input}\n\nYour previous attempt failed verification: ${diagnosis}\n\n${retryAdvice}`;
}

/** What a retry after a failed verification is asked to do, after the diagnosis. */
export const retryAdvice = 'Adjust your approach to satisfy this requirement.';
