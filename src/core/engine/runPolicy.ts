import { defaultAgentLimits, type AgentLimits } from '../agent/agentLimits';
import type { ModelRoles } from '../llm/modelRoles';
import type { Step } from '../plan/planSchema';
import type { PlanningStrategy } from '../session/planningPrompt';
import type { ApprovalPolicy } from '../tools/tool';
import { defaultBackoff } from './failurePolicy';

/**
 * The settings of a run (docs/architecture.md §11): every field required, each one's default
 * declared once, in `defaultRunPolicy`. A host builds the whole object (`satisfies RunPolicy`),
 * so a new setting is a compile error in the table and in each host until it says what it
 * gives. Durations in milliseconds.
 */
export interface RunPolicy {
  /** Steps running at once, awaiting steps included; at least 1 (whole steps; a number that is not finite is refused). */
  maxConcurrency: number;
  /** Which tool calls ask the user first. */
  approvalPolicy: ApprovalPolicy;
  /** How agents are guided to work (the planning strategy's section of their prompt). */
  strategy: PlanningStrategy;
  /**
   * Critical agent steps without a `review` of their own get a model's review of their
   * result after their verification passed (one more call each, counted in the budget).
   */
  reviewCriticalSteps: boolean;
  /** Limits of agent steps and gates; each must be positive (`resolveAgentLimits`). */
  agentLimits: Partial<AgentLimits>;
  /**
   * The model of each role on the environment's `llm` endpoint (`modelRoles.ts`): `agent` runs
   * agent steps and gates (a step's own `model` first), `reviewer` reviews results,
   * `compaction` condenses the rolling summary, `planner` designs repair plans. Absent roles use `llm.model`.
   */
  models: ModelRoles;
  /**
   * What to tell the user when an `agent` or `synthesis_gate` step has neither a `stepRunner`
   * nor an `llm`, in the host's words (the editor names its command, the CLI its flags).
   */
  noModelHint: string;
  /** Backoff before retry n+1: `retryBaseDelayMs · 2^(n−1)`, capped by `retryMaxDelayMs`. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  /** Time limit of each `verification`/`when` predicate. */
  predicateTimeoutMs: number;
  /** Events between journal snapshots (at least 1); `'planSize'`: max(256, 2 × steps). */
  snapshotEvery: number | 'planSize';
  /** Relative cost of a step for prioritising (longest remaining path); give estimated durations when known. */
  stepCost: (step: Step) => number;
  /** Repair plans per run, in all (`executeWithReplanning`); 0 turns replanning off. */
  maxTotalReplans: number;
  /** Repair plans asked for because of the same step id. */
  maxReplanAttempts: number;
  /** Wait (on the run's `Clock`) after `replan_started`, before each repair plan is asked for. Cancelling the run ends the wait. */
  replanCooldownMs: number;
}

/** The one table of the run settings' defaults. */
export const defaultRunPolicy: RunPolicy = {
  maxConcurrency: 4,
  approvalPolicy: 'writesAndCommands',
  strategy: 'react',
  reviewCriticalSteps: false,
  agentLimits: defaultAgentLimits,
  models: {},
  noModelHint: 'Set up a model, or change the step to one you do yourself.',
  retryBaseDelayMs: defaultBackoff.baseDelayMs,
  retryMaxDelayMs: defaultBackoff.maxDelayMs,
  predicateTimeoutMs: 1000,
  snapshotEvery: 'planSize',
  stepCost: () => 1,
  maxTotalReplans: 3,
  maxReplanAttempts: 2,
  replanCooldownMs: 0,
};

/**
 * The longest wait before a repair plan (package.json's `replan.cooldownSeconds` maximum, the CLI's `--replan-cooldown`):
 * a longer one holds a run for days, and past a timer's largest delay (about 24.8 days) the timer fires at once.
 */
export const maxReplanCooldownMs = 600_000;

/** How far a run may be repaired with new plans (`executeWithReplanning`'s limits). */
export type ReplanLimits = Pick<RunPolicy, 'maxTotalReplans' | 'maxReplanAttempts' | 'replanCooldownMs'>;

/** The settings `given` chose over `defaultRunPolicy`; a field given as `undefined` keeps its default. */
export function runPolicyOf(given: Partial<RunPolicy>): RunPolicy {
  const chosen = Object.fromEntries(Object.entries(given).filter(([key, value]) => value !== undefined && Object.hasOwn(defaultRunPolicy, key)));
  return { ...defaultRunPolicy, ...chosen };
}
