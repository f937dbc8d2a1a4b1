import type { AgentLimits } from '../agent/agentLimits';
import type { BudgetUsage } from '../llm/budget';
import type { Plan, Step } from '../plan/planSchema';
import type { Clock, Interaction } from '../ports';
import type { CheckCommandConsent } from './checkCommandConsent';
import type { Tool, ToolContext, ToolRegistry } from '../tools/tool';
import type { ReplanRecord } from './replanRecord';
import type { RunEnvironment } from './runEnvironment';
import type { RunPolicy } from './runPolicy';
import type { ManualAnswer, PendingRequest, PlanOrigin, RunEvent, RunState, RunStatus, StepState } from './runEvents';

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
 * do for: that step completes in the same turn, as without an epilogue.
 */
export type StepEpilogue = (step: Step, tools: ToolContext, signal: AbortSignal) => Promise<void> | undefined;

/**
 * What one run is given besides its environment and its policy. Absent: no cancellation
 * signal, no completed results, not a repair run, not planned from a request, each check
 * command asks, a new run id.
 */
export interface RunInputs {
  /** Aborting it cancels the run, like `RunHandle.cancel()`. */
  signal?: AbortSignal;
  /** Results of steps that count as completed before the run starts (not re-run). */
  initialResults?: Record<string, unknown>;
  /**
   * The repairs that led to this run, when it is a repair run (`executeWithReplanning` sets
   * it): journaled with its start, and reported in `metadata` when the run is resumed.
   */
  replanHistory?: readonly ReplanRecord[];
  /** How the plan was made, when the host planned it from a request: journaled as `plan_generated` right after the start. */
  planOrigin?: PlanOrigin;
  /**
   * The user's answer at Start to the plan's check commands (`planCheckCommands`): allowed
   * ones run without asking, declined ones fail as not allowed. Absent, or for a command not
   * listed: each check command asks like `run_command`.
   */
  checkCommands?: CheckCommandConsent;
  /** Source of run ids; default `run-<base36 time>-<8 hex>`. */
  idSource?: () => string;
}

/**
 * Options of `runPlan` (docs/architecture.md §11): the run's inputs, its `RunEnvironment` and
 * its `RunPolicy`, whole (what a host gives) or in part: what is left out is the null
 * object of `bareEnvironment` and the default of `defaultRunPolicy`. `tools` may be a list.
 */
export type RunOptions = RunInputs &
  Partial<Omit<RunEnvironment, 'clock' | 'tools'>> &
  Partial<RunPolicy> & { clock: Clock; tools?: ToolRegistry | readonly Tool[] };

/**
 * Extra options of `resumeRun`: answers to the run's pending requests, by step id. An
 * approval is yes or no, or a rejection with the user's feedback (`ApprovalDecision.feedback`).
 */
export interface ResumeOptions extends RunOptions {
  approvals?: Record<string, boolean | { approved: false; feedback: string }>;
  answers?: Record<string, string>;
  reviews?: Record<string, { approved: boolean; notes?: string }>;
  /** Manual steps the person did (`done`, with an optional `note`) or could not do (`reason`). */
  manual?: Record<string, ManualAnswer>;
}

/** How a run ended, with what it produced. */
export interface RunResult {
  runId: string;
  status: Exclude<RunStatus, 'running'>;
  /** Results of completed steps, by id. */
  results: Record<string, unknown>;
  steps: Record<string, StepState>;
  /** Requests the run waits on (status `waiting`). */
  pending?: PendingRequest[];
  metadata: RunMetadata;
}

/** Figures about a run; times in milliseconds. */
export interface RunMetadata {
  startedAt: number | undefined;
  endedAt: number | undefined;
  totalDurationMs: number;
  /** Attempts started across all steps. */
  executionAttempts: number;
  replanCount: number;
  replanHistory: ReplanRecord[];
  /** Steps that failed under a `replan` policy, for `executeWithReplanning`. */
  replanRequests: string[];
  /** Why the run failed or was cancelled. */
  reason?: string;
  warnings: string[];
  resumeCount: number;
  /** LLM use of the whole run, when it was counted (`executeWithReplanning` does). */
  llmUsage?: BudgetUsage;
}

/** A started run. Subscribe right after `runPlan` returns: the run starts on the next microtask. */
export interface RunHandle {
  runId: string;
  events: { subscribe(listener: (event: RunEvent) => void): () => void };
  result: Promise<RunResult>;
  /** Stops new steps and aborts running ones; the journal stays resumable. Idempotent. */
  cancel(reason?: string): void;
  /** The current snapshot (a copy). */
  state(): RunState;
}

/**
 * The plan a run executes with its whole environment and policy, as the engine reads them:
 * `llm` counted by the budget, the backoff as one object, `snapshotEvery` a number, the
 * agent limits resolved.
 */
export type ResolvedRunOptions = RunEnvironment &
  Omit<RunPolicy, 'retryBaseDelayMs' | 'retryMaxDelayMs' | 'snapshotEvery' | 'agentLimits' | 'maxTotalReplans' | 'maxReplanAttempts' | 'replanCooldownMs'> & {
    plan: Plan;
    agentLimits: AgentLimits;
    backoff: { baseDelayMs: number; maxDelayMs: number };
    snapshotEvery: number;
    checkCommands: CheckCommandConsent | undefined;
  };
