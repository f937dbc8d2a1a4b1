import type { AgentLimits } from '../agent/agentLimits';
import { createBudgetTracker, type BudgetLimits, type BudgetTracker } from '../llm/budget';
import type { Clock, Interaction, LlmClient, Logger, RunStore, WorkspaceFs, CheckpointStore, CommandAllowList, CommandRunner, Diagnostics } from '../ports';
import type { ModelRoles } from '../llm/modelRoles';
import type { PlanningStrategy } from '../session/planningPrompt';
import type { CapabilityCatalogue } from '../capabilities/capabilityCatalogue';
import type { ApprovalPolicy, Tool, ToolRegistry } from '../tools/tool';
import type { RunOptions } from './runOptions';
import { toRegistry } from './resolveRunOptions';

/**
 * How far a run may be repaired with new plans (`executeWithReplanning`'s limits);
 * `undefined` keeps its default (3 in all, 2 per step, no wait).
 */
export interface ReplanLimits {
  /** Repair plans per run, in all; 0 turns replanning off. */
  maxTotalReplans: number | undefined;
  /** Repair plans asked for because of the same step. */
  maxReplanAttempts: number | undefined;
  /** Milliseconds to wait before each repair plan is asked for. */
  replanCooldownMs: number | undefined;
}

/**
 * What a host (the editor, the command line) decides for its runs: its adapters and the
 * user's settings. Every field is named, `undefined` where the host has none, so a new
 * run option is a compile error in each host until it says what it gives.
 */
export interface RunHostSetup {
  tools: ToolRegistry | readonly Tool[];
  workspace: WorkspaceFs;
  commandRunner: CommandRunner;
  /** The user's command allow rules; `undefined` where the host has none (every command asks). */
  allowedCommands: CommandAllowList | undefined;
  /** The editor's error diagnostics for `no_new_diagnostics` checks; `undefined` where there are none (the command line). */
  diagnostics: Diagnostics | undefined;
  /** Where runs are journaled, so they can be listed and resumed. */
  store: RunStore;
  /** The user; `undefined` defers every request (the run ends `waiting`). */
  interaction: Interaction | undefined;
  /** Where file changes are checkpointed for Undo; `undefined` when the host offers no undo. */
  checkpoints: CheckpointStore | undefined;
  logger: Logger | undefined;
  /** Time and waiting: real timers (`timerClock` in src/node) outside tests. */
  clock: Clock;
  /** Cancels the run when aborted. */
  signal: AbortSignal | undefined;
  /** The model for agent steps and replanning; `undefined`: such steps fail with `noModelHint`. */
  llm: LlmClient | undefined;
  /** The model of each role on `llm`'s endpoint; `undefined`: `llm`'s model for all. */
  models: ModelRoles | undefined;
  /** Limits of the run's model use; an absent limit is unlimited (the use is counted all the same). */
  budget: BudgetLimits;
  /** `undefined`: `'writesAndCommands'`. */
  approvalPolicy: ApprovalPolicy | undefined;
  /** The planning strategy agents are guided by; `undefined`: `'react'`. */
  strategy: PlanningStrategy | undefined;
  /** The workspace's instructions and skills (`readCapabilities`); `undefined`: none. */
  capabilities: CapabilityCatalogue | undefined;
  /** `undefined`: the engine's default. */
  maxConcurrency: number | undefined;
  agentLimits: Partial<AgentLimits> | undefined;
  /** Limits of repairing the run with new plans. */
  replan: ReplanLimits;
  /** A model's review of critical agent steps (`RunOptions.reviewCriticalSteps`); `undefined`: off. */
  reviewCriticalSteps: boolean | undefined;
  /** How the user gets a model in this host (its command, its flags). */
  noModelHint: string;
}

/**
 * Run options with what every host gives resolved: the tools as a registry, a workspace, a
 * store and a budget tracker; with the replanning limits the host set (what
 * `executeWithReplanning` and `resumeWithReplanning` read).
 */
export type HostRunOptions = RunOptions & { tools: ToolRegistry; workspace: WorkspaceFs; store: RunStore; budget: BudgetTracker } & {
  maxTotalReplans?: number;
  maxReplanAttempts?: number;
  replanCooldownMs?: number;
};

/**
 * The options of a run (`runPlan`, `resumeRun`, `executeWithReplanning`) from a host's
 * setup: the one place where the editor's `RunController` and the command line turn their
 * adapters and settings into run options. The budget becomes a tracker over its limits;
 * fields the host left `undefined` keep the engine's defaults.
 */
export function hostRunOptions(setup: RunHostSetup): HostRunOptions {
  const optional: Partial<RunOptions> = {
    ...(setup.interaction ? { interaction: setup.interaction } : {}),
    ...(setup.checkpoints ? { checkpoints: setup.checkpoints } : {}),
    ...(setup.allowedCommands ? { allowedCommands: setup.allowedCommands } : {}),
    ...(setup.diagnostics ? { diagnostics: setup.diagnostics } : {}),
    ...(setup.logger ? { logger: setup.logger } : {}),
    ...(setup.signal ? { signal: setup.signal } : {}),
    ...(setup.llm ? { llm: setup.llm } : {}),
    ...(setup.models ? { models: setup.models } : {}),
    ...(setup.approvalPolicy ? { approvalPolicy: setup.approvalPolicy } : {}),
    ...(setup.strategy ? { strategy: setup.strategy } : {}),
    ...(setup.capabilities ? { capabilities: setup.capabilities } : {}),
    ...(setup.maxConcurrency === undefined ? {} : { maxConcurrency: setup.maxConcurrency }),
    ...(setup.agentLimits ? { agentLimits: setup.agentLimits } : {}),
    ...(setup.reviewCriticalSteps === undefined ? {} : { reviewCriticalSteps: setup.reviewCriticalSteps }),
  };
  const { maxTotalReplans, maxReplanAttempts, replanCooldownMs } = setup.replan;
  const replan = {
    ...(maxTotalReplans === undefined ? {} : { maxTotalReplans }),
    ...(maxReplanAttempts === undefined ? {} : { maxReplanAttempts }),
    ...(replanCooldownMs === undefined ? {} : { replanCooldownMs }),
  };
  return {
    ...optional,
    ...replan,
    tools: toRegistry(setup.tools),
    clock: setup.clock,
    workspace: setup.workspace,
    commandRunner: setup.commandRunner,
    store: setup.store,
    budget: createBudgetTracker(setup.budget),
    noModelHint: setup.noModelHint,
  };
}
