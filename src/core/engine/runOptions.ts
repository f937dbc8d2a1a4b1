import type { AgentLimits } from '../agent/agentLimits';
import type { BudgetUsage } from '../llm/budget';
import type { Plan } from '../plan/planSchema';
import type { Clock } from '../servicePorts';
import type { CheckCommandConsent } from './checkCommandConsent';
import type { Tool, ToolRegistry } from '../tools/tool';
import type { ReplanRecord } from './replanRecord';
import type { RunEnvironment } from './runEnvironment';
import type { RunPolicy } from './runPolicy';
import type { ManualAnswer, PendingRequest, PlanOrigin, RunEvent, RunState, RunStatus, StepState } from './runEvents';

export type { StepEpilogue, StepRunner, StepRunnerContext } from './stepHooks';

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
   * The files each step of `initialResults` changed in the run it was kept from (Retry, Run from here, a repair run), by
   * step id (`keptChangesOf`): they count as changed by that step in this run too, so a whole-file write over one by a
   * step that does not depend on it is refused, and a command they define asks.
   */
  keptChanges?: Readonly<Record<string, readonly string[]>>;
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
