import { toolDefinition } from '../agent/agentToolCall';
import type { SkillSummary } from '../capabilities/plannerCatalogue';
import type { Instruction } from '../capabilities/capabilityCatalogue';
import { chatStructured } from '../llm/chatStructured';
import type { LlmUsage } from '../llm/llmTypes';
import { buildReplanPrompt, type FailedStepInfo } from '../planner/prompts/replanPrompt';
import type { TrialInfo } from '../engine/replanRecord';
import { parsePlan } from '../plan/parsePlan';
import { plannerOutputSchema, type Plan } from '../plan/planSchema';
import { validatePlan } from '../plan/validatePlan';
import type { LlmClient } from '../servicePorts';
import type { ToolRegistry } from '../tools/tool';

/** What the replanner needs. */
export interface RepairRequest {
  llm: LlmClient;
  objective: string;
  plan: Plan;
  completed: Readonly<Record<string, unknown>>;
  failed: readonly FailedStepInfo[];
  trials: readonly TrialInfo[];
  tools: ToolRegistry;
  /** The workspace's skills: described to the model, and the repair plan's `Step.skills` checked against them. */
  skills?: readonly SkillSummary[];
  /** The project's instruction files: the repair plan's commands and checks follow them (within a token budget). */
  instructions?: readonly Instruction[];
  signal: AbortSignal;
}

/** A repair plan ready to run, and what getting it took. */
export interface RepairOutcome {
  plan: Plan;
  /** Whether the first answer was invalid and sent back once with its errors. */
  repaired: boolean;
  /** The ids of steps the repair plan added or changed (not completed before). */
  newStepIds: string[];
  requests: number;
  usage: LlmUsage;
}

/**
 * Asks `llm` for a repair plan (structured output with `plannerOutputSchema`, prompt from
 * `buildReplanPrompt`). The answer is parsed and merged so every completed step keeps its
 * id and its original definition (a completed step the model dropped is put back first);
 * the merged plan is validated against `tools`, and an invalid one is sent back ONCE with
 * its validation errors. Throws when the second answer is still invalid, or the client's
 * error. The result has the old plan's id and `version + 1`.
 */
export async function requestRepairPlan(request: RepairRequest): Promise<RepairOutcome> {
  const completedIds = new Set(Object.keys(request.completed));
  const merge = (value: unknown): { plan?: Plan; problems: string[] } => {
    const parsed = parsePlan(value, { id: request.plan.id, createdAt: request.plan.createdAt });
    if (!parsed.ok) return { problems: parsed.errors };
    const plan = mergeCompleted(parsed.plan, request.plan, completedIds, request.objective);
    const problems = validatePlan(plan, { tools: request.tools, ...(request.skills ? { skills: request.skills.map((skill) => skill.name) } : {}) })
      .filter((diagnostic) => diagnostic.severity === 'error')
      .map((diagnostic) => (diagnostic.stepId === undefined ? diagnostic.message : `step ${diagnostic.stepId}: ${diagnostic.message}`));
    return { plan, problems };
  };
  const tools = request.tools.names().flatMap((name) => {
    const tool = request.tools.get(name);
    return tool ? [toolDefinition(tool)] : [];
  });
  const result = await chatStructured(
    request.llm,
    {
      messages: buildReplanPrompt({
        objective: request.objective,
        plan: request.plan,
        completed: request.completed,
        failed: request.failed,
        trials: request.trials,
        tools,
        ...(request.skills ? { skills: request.skills } : {}),
        ...(request.instructions ? { instructions: request.instructions } : {}),
      }),
      signal: request.signal,
      schemaName: 'repair_plan',
      check: (value) => merge(value).problems,
    },
    plannerOutputSchema,
  );
  const merged = merge(result.value);
  if (!merged.plan || result.remainingProblems.length > 0) {
    throw new Error(
      `The replanner's repair plan is still invalid after it was sent back with its errors: ${(merged.plan ? result.remainingProblems : merged.problems).join('; ')}`,
    );
  }
  return {
    plan: merged.plan,
    repaired: result.repaired,
    newStepIds: merged.plan.steps.filter((step) => !completedIds.has(step.id)).map((step) => step.id),
    requests: result.responses.length,
    usage: result.usage,
  };
}

/** `repair` with every completed step of `previous` in its original form, completed ones first when they were dropped. */
function mergeCompleted(repair: Plan, previous: Plan, completedIds: ReadonlySet<string>, objective: string): Plan {
  const original = new Map(previous.steps.map((step) => [step.id, step]));
  const present = new Set(repair.steps.map((step) => step.id));
  const restored = previous.steps.filter((step) => completedIds.has(step.id) && !present.has(step.id));
  const steps = [...restored, ...repair.steps.map((step) => (completedIds.has(step.id) ? (original.get(step.id) ?? step) : step))];
  return {
    ...repair,
    id: previous.id,
    version: previous.version + 1,
    objective,
    createdAt: previous.createdAt,
    agents: { ...previous.agents, ...repair.agents },
    steps,
  };
}
