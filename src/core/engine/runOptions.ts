import type { PlanningStrategy } from '../session/planningPrompt';
import type { CapabilityCatalogue } from '../capabilities/capabilityCatalogue';
import type { AgentLimits } from '../agent/agentLimits';
import type { BudgetTracker, BudgetUsage } from '../llm/budget';
import type { ModelRoles } from '../llm/modelRoles';
import type { Plan, Step } from '../plan/planSchema';
import type { Clock, Interaction, LlmClient, Logger, RunStore, WorkspaceFs, CheckpointStore, CommandAllowList, CommandRunner, Diagnostics } from '../ports';
import type { CheckCommandConsent } from './checkCommandConsent';
import type { ApprovalPolicy, Tool, ToolContext, ToolRegistry } from '../tools/tool';
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

/** Options of `runPlan` (docs/architecture.md §11). Durations in milliseconds. */
export interface RunOptions {
  /** Tools `tool` steps may call. */
  tools?: ToolRegistry | readonly Tool[];
  /**
   * Runs `agent` and `synthesis_gate` steps; takes priority over `llm`. Without either,
   * such steps fail with a clear message.
   */
  stepRunner?: StepRunner;
  /**
   * The model that runs `agent` steps (a tool-calling loop with the agent's prompt and
   * tools) and `synthesis_gate` steps (one condensing call) when no `stepRunner` is given.
   */
  llm?: LlmClient;
  /**
   * The model of each role on `llm`'s endpoint (`modelRoles.ts`): `agent` runs agent steps
   * and gates (a step's own `model` first), `reviewer` reviews results, `compaction` condenses
   * the rolling summary, `planner` designs repair plans. Absent roles use `llm.model`.
   */
  models?: ModelRoles;
  /**
   * Counts every call of `llm` against the run's limits (docs/architecture.md §5). When a limit is
   * reached, the step about to call the model pauses with a `budget` request and the run
   * ends `waiting`; `budget.raise(...)` and `resumeRun` continue it (usage recorded in the
   * journal is seeded back into the tracker on resume). Absent: no limits.
   */
  budget?: BudgetTracker;
  /** Limits of agent steps and gates; defaults in `defaultAgentLimits`. */
  agentLimits?: Partial<AgentLimits>;
  /**
   * Critical agent steps without a `review` of their own get a model's review of their
   * result after their verification passed (one more call each, counted in the budget).
   * Default false.
   */
  reviewCriticalSteps?: boolean;
  /** The user; without it every request is deferred and the run ends `waiting`. */
  interaction?: Interaction;
  /** Steps running at once, awaiting steps included; default 4, at least 1. */
  maxConcurrency?: number;
  /**
   * What to tell the user when an `agent` or `synthesis_gate` step has neither `stepRunner`
   * nor `llm`, in the host's words (the editor names its command, the CLI its flags);
   * default "Set up a model, or change the step to one you do yourself."
   */
  noModelHint?: string;
  /** Aborting it cancels the run, like `RunHandle.cancel()`. */
  signal?: AbortSignal;
  /**
   * Time and waiting (retry backoff, durations, run ids). The core has no timers of its
   * own: hosts give `timerClock` (src/node), whose entry point `dist/core.js` defaults it.
   */
  clock: Clock;
  /** Where events are journaled; without it the run cannot be resumed. */
  store?: RunStore;
  /** Results of steps that count as completed before the run starts (not re-run). */
  initialResults?: Record<string, unknown>;
  /**
   * The repairs that led to this run, when it is a repair run (`executeWithReplanning` sets
   * it): journaled with its start, and reported in `metadata` when the run is resumed.
   */
  replanHistory?: readonly unknown[];
  /** How the plan was made, when the host planned it from a request: journaled as `plan_generated` right after the start. */
  planOrigin?: PlanOrigin;
  /** The workspace tools act on; tools fail clearly without one. */
  workspace?: WorkspaceFs;
  /** Default `'writesAndCommands'`. */
  approvalPolicy?: ApprovalPolicy;
  /** How agents are guided to work (the planning strategy's section of their prompt); default `'react'`. */
  strategy?: PlanningStrategy;
  /** The workspace's instructions and skills (`readCapabilities`); agent steps get theirs in their prompt. Default: none. */
  capabilities?: CapabilityCatalogue;
  /** Runs `run_command`'s processes (e.g. `createNodeCommandRunner(root)`), and the `command` checks through it. */
  commandRunner?: CommandRunner;
  /** The user's command allow rules: a command (or check command) one of them allows runs without asking. */
  allowedCommands?: CommandAllowList;
  /** The editor's error diagnostics, for `no_new_diagnostics` checks; without it such checks fail as not available. */
  diagnostics?: Diagnostics;
  /**
   * The user's answer at Start to the plan's check commands (`planCheckCommands`): allowed
   * ones run without asking, declined ones fail as not allowed. Absent, or for a command not
   * listed: each check command asks like `run_command`.
   */
  checkCommands?: CheckCommandConsent;
  /** Where file tools checkpoint previous content, so the run can be undone. */
  checkpoints?: CheckpointStore;
  /** What the host does as each step completes (see `StepEpilogue`); default nothing. */
  stepEpilogue?: StepEpilogue;
  logger?: Logger;
  /** Source of run ids; default a random UUID-based id. */
  idSource?: () => string;
  /** Backoff before retry n+1: `retryBaseDelayMs · 2^(n−1)`, capped by `retryMaxDelayMs`. Defaults 1000 and 30000. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Time limit of each `verification`/`when` predicate; default 1000. */
  predicateTimeoutMs?: number;
  /** Events between snapshots; default max(256, 2 × steps). */
  snapshotEvery?: number;
  /**
   * Relative cost of a step for prioritising (longest remaining path); default 1 per step.
   * Give estimated durations when known.
   */
  stepCost?: (step: Step) => number;
}

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
  replanHistory: unknown[];
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

/** The plan a run executes, with options resolved to their defaults. */
export interface ResolvedRunOptions {
  plan: Plan;
  tools: ToolRegistry;
  stepRunner: StepRunner | undefined;
  llm: LlmClient | undefined;
  models: ModelRoles;
  agentLimits: AgentLimits;
  reviewCriticalSteps: boolean;
  interaction: Interaction;
  maxConcurrency: number;
  clock: Clock;
  store: RunStore | undefined;
  workspace: WorkspaceFs;
  approvalPolicy: ApprovalPolicy;
  strategy: PlanningStrategy;
  capabilities: CapabilityCatalogue;
  commandRunner: CommandRunner | undefined;
  allowedCommands: CommandAllowList | undefined;
  diagnostics: Diagnostics | undefined;
  checkCommands: CheckCommandConsent | undefined;
  checkpoints: CheckpointStore | undefined;
  stepEpilogue: StepEpilogue | undefined;
  logger: Logger;
  backoff: { baseDelayMs: number; maxDelayMs: number };
  predicateTimeoutMs: number;
  snapshotEvery: number;
  stepCost: ((step: Step) => number) | undefined;
  noModelHint: string;
}
