import { chatStructured, type StructuredMode } from '../llm/chatStructured';
import type { LlmUsage } from '../llm/llmTypes';
import { buildPlanningPrompt, type PlannerToolInfo, type WorkspaceSnapshot } from './prompts/planningPrompt';
import { critiquePlan, type Critique } from '../plan/critiquePlan';
import { parsePlan, type ParsePlanOptions } from '../plan/parsePlan';
import { plannerOutputSchema, type Diagnostic, type Plan } from '../plan/planSchema';
import { validatePlan } from '../plan/validatePlan';
import type { Clock, LlmClient } from '../servicePorts';
import type { PlanningStrategy } from '../session/planningPrompt';
import type { ToolRegistry } from '../tools/tool';
import { toolParameters } from '../tools/toolParameters';
import { createPlanStepStream, type PlannerStep } from './planStepStream';
import type { SkillSummary } from '../capabilities/plannerCatalogue';
import type { Instruction } from '../capabilities/capabilityCatalogue';
import { investigateRequest, type Investigation, type InvestigationOptions } from './investigateRequest';
import { investigatedMessages, investigatedReply } from './investigatedReply';

/** What `generatePlan` needs besides the objective. */
export interface GeneratePlanOptions {
  llm: LlmClient;
  /** The tools steps may use: a registry (schemas are described to the model) or plain descriptions. */
  tools: ToolRegistry | readonly PlannerToolInfo[];
  signal: AbortSignal;
  /** Default `react`. */
  strategy?: PlanningStrategy | undefined;
  workspace?: WorkspaceSnapshot | undefined;
  /** Token budget of the workspace section of the prompt (default 3 000). */
  snapshotTokenBudget?: number | undefined;
  /** The user's feedback on a previous plan (Regenerate). */
  feedback?: string | undefined;
  /** The workspace's skills: described to the model, and `Step.skills` validated against them (without it, skill names are not checked). */
  skills?: readonly SkillSummary[] | undefined;
  /** The project's instruction files: the model plans by them (their test command for command steps and checks), within a token budget. */
  instructions?: readonly Instruction[] | undefined;
  /** Whether the workspace is trusted, for the critique (`CritiquePlanOptions.trusted`); unknown when absent. */
  trusted?: boolean | undefined;
  /**
   * Called with each step as soon as the model has finished writing it (the reply is then
   * streamed). After a retry or the repair round, steps come again from index 0.
   */
  onPartialStep?: ((step: PlannerStep, index: number) => void) | undefined;
  /** Sets the plan's `createdAt` (default: the Unix epoch, so the result is deterministic). */
  clock?: Clock;
  /** The plan's id (default: derived from its content). */
  planId?: string;
  /**
   * Investigate before planning (`investigateRequest`): the model reads the workspace with
   * read-only tools and may ask the user, within the budget, then plans from what it read.
   * Absent: the plan is written from the request and the listing alone.
   */
  investigate?: Omit<InvestigationOptions, 'llm' | 'signal' | 'onDelta'> | undefined;
}

/** A generated plan with its review and what generating it cost. */
export interface GeneratePlanResult {
  plan: Plan;
  critique: Critique;
  /** Parse warnings, validation warnings, and validation errors left after the repair round. */
  warnings: string[];
  /** Every `validatePlan` finding of the returned plan; errors make it unrunnable until edited. */
  diagnostics: Diagnostic[];
  usage: LlmUsage;
  /** `undefined` when the model's price is unknown. */
  costUsd?: number;
  /** Chat requests that succeeded (2 when the repair round was used). */
  requests: number;
  repaired: boolean;
  mode: StructuredMode;
  /** What the model read and was told before the plan, when it investigated; the plan's `basis` says the same. */
  investigation?: Investigation;
}

/**
 * Plans `objective` with a language model (docs/architecture.md §5): the planning prompt (objective,
 * size-bounded workspace snapshot, tools with schemas, strategy guidance), structured output
 * with `plannerOutputSchema`, then `parsePlan`, `validatePlan` against the tools and
 * `critiquePlan`. Schema and validation errors get ONE repair round together; validation
 * errors still left are returned in `warnings` and `diagnostics` (the user reviews and edits
 * the plan before it runs). The plan's objective is `objective` as given. Throws the
 * client's `LlmError`, a `StructuredOutputError` when the reply never matched the schema,
 * or an `Error` when the plan cannot be read at all.
 */
export async function generatePlan(objective: string, options: GeneratePlanOptions): Promise<GeneratePlanResult> {
  if (objective.trim() === '') throw new RangeError('The request is empty. Describe the task you want planned.');
  const toolInfos = describeTools(options.tools);
  const validationTools = isRegistry(options.tools) ? options.tools : toolInfos.map((tool) => tool.name);
  const validation = { tools: validationTools, ...(options.skills ? { skills: options.skills.map((skill) => skill.name) } : {}) };
  const parseOptions: ParsePlanOptions = { createdAt: options.clock && new Date(options.clock.now()).toISOString(), id: options.planId || undefined };
  const messages = buildPlanningPrompt({
    objective,
    tools: toolInfos,
    strategy: options.strategy ?? 'react',
    workspace: options.workspace,
    feedback: options.feedback,
    skills: options.skills,
    instructions: options.instructions,
    snapshotTokenBudget: options.snapshotTokenBudget,
  });

  const check = (value: unknown): string[] => {
    const parsed = parsePlan(value, parseOptions);
    if (!parsed.ok) return parsed.errors;
    return validatePlan(parsed.plan, validation)
      .filter((diagnostic) => diagnostic.severity === 'error')
      .map((diagnostic) => (diagnostic.stepId === undefined ? diagnostic.message : `step ${diagnostic.stepId}: ${diagnostic.message}`));
  };
  const streamSteps = options.onPartialStep ? createPlanStepStream(options.onPartialStep) : undefined;
  const investigation = options.investigate
    ? await investigateRequest(messages, { ...options.investigate, llm: options.llm, signal: options.signal, ...(streamSteps ? { onDelta: streamSteps } : {}) })
    : undefined;
  const firstReply = investigatedReply(investigation);
  const result = await chatStructured(
    options.llm,
    {
      messages: investigation ? [...messages, ...investigatedMessages(investigation)] : messages,
      signal: options.signal,
      schemaName: 'task_plan',
      check,
      ...(firstReply === undefined ? {} : { firstReply }),
      ...(streamSteps ? { stream: true, onDelta: streamSteps } : {}),
    },
    plannerOutputSchema,
  );

  const parsed = parsePlan(result.value, parseOptions);
  if (!parsed.ok) throw new Error(`The model's plan could not be used, even after a repair round: ${parsed.errors.join('; ')}`);
  const basis = investigation?.basis;
  const grounded = basis !== undefined && basis.files.length + basis.searches.length + basis.answers.length > 0;
  const plan: Plan = { ...parsed.plan, objective: objective.trim(), ...(grounded ? { basis } : {}) };
  const diagnostics = validatePlan(plan, validation);
  const warnings = [
    ...parsed.warnings,
    ...diagnostics.map(
      (diagnostic) =>
        `${diagnostic.severity === 'error' ? 'Error' : 'Warning'}${diagnostic.stepId === undefined ? '' : ` in step ${diagnostic.stepId}`}: ${diagnostic.message}`,
    ),
  ];
  return {
    plan,
    critique: critiquePlan(plan, { tools: validationTools, trusted: options.trusted }),
    warnings,
    diagnostics,
    usage: investigation ? sumUsage(investigation.usage, result.usage) : result.usage,
    ...costOf(investigation, result),
    requests: result.responses.length + (investigation?.requests ?? 0),
    repaired: result.repaired,
    mode: result.mode,
    ...(investigation ? { investigation } : {}),
  };
}

function isRegistry(tools: GeneratePlanOptions['tools']): tools is ToolRegistry {
  // Stryker disable next-line LogicalOperator,ConditionalExpression: the options type allows only an array or a registry, and a registry always has names()
  return !Array.isArray(tools) && typeof (tools as ToolRegistry).names === 'function';
}

/** Tool descriptions for the prompt; a registry's zod input schemas become JSON Schema. */
function describeTools(tools: GeneratePlanOptions['tools']): PlannerToolInfo[] {
  if (!isRegistry(tools)) return [...tools];
  return tools.names().flatMap((name) => {
    const tool = tools.get(name);
    if (!tool) return [];
    return [{ name: tool.name, description: tool.description, parameters: toolParameters(tool) }];
  });
}

function sumUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens };
}

/** The cost of the investigation and the plan requests together; none when either is unknown. */
function costOf(investigation: Investigation | undefined, result: { costUsd?: number }): { costUsd?: number } {
  if (investigation === undefined) return result.costUsd === undefined ? {} : { costUsd: result.costUsd };
  return investigation.costUsd === undefined || result.costUsd === undefined ? {} : { costUsd: investigation.costUsd + result.costUsd };
}
