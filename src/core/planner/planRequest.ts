import type { WorkspaceSnapshot } from './prompts/planningPrompt';
import { withModel, type ModelRoles } from '../llm/modelRoles';
import { critiquePlan, type Critique } from '../plan/critiquePlan';
import type { Attachment, Plan } from '../plan/planSchema';
import type { Clock, LlmClient } from '../servicePorts';
import type { WorkspaceFs } from '../workspacePorts';
import type { PlanOrigin } from '../engine/runEvents';
import type { PlanningStrategy } from '../session/planningPrompt';
import type { ToolRegistry } from '../tools/tool';
import { feedbackNeedsModel } from './feedbackNeedsModel';
import { generatePlan } from './generatePlan';
import { heuristicPlan } from './heuristicPlan';
import { projectTestCommand } from './projectTestCommand';
import { critiqueWithModel, type ModelCritiqueOutcome } from './reviewPlanWithModel';
import type { PlannerStep } from './planStepStream';
import type { SkillSummary } from '../capabilities/plannerCatalogue';
import type { Instruction } from '../capabilities/capabilityCatalogue';
import type { Investigation, InvestigationOptions } from './investigateRequest';

/** Most workspace paths listed to the model when it plans (the prompt's token budget cuts further). */
export const maxSnapshotFiles = 500;

/** What `planRequest` plans with besides the request's text. */
export interface PlanRequestOptions {
  /** The model; `undefined` plans with the heuristic planner. */
  llm: LlmClient | undefined;
  /** The model of each role on `llm`'s endpoint: `planner` writes the plan, `reviewer` critiques it; absent: `llm.model`. */
  models?: ModelRoles;
  /** The tools steps may use: described to the model, and what the critique checks steps against. */
  tools: ToolRegistry;
  signal: AbortSignal;
  /** Dates the plan (`createdAt`), whichever planner makes it. */
  clock: Clock;
  /** Default `react`. */
  strategy?: PlanningStrategy;
  /** The workspace the plan will run in: its files are listed to the model; without a model, its test command is what "run the tests" runs. */
  workspace?: WorkspaceFs;
  /** Files open in editors, listed to the model. */
  openFiles?: readonly string[];
  /**
   * What the request carries (files, selections, images). The heuristic planner puts them on
   * its steps, links left out (a link written in the text goes to the step that mentions it);
   * the model sees all of them.
   */
  attachments?: readonly Attachment[];
  /** How an attachment is sent to the model (the editor inlines images as `data:` URLs); default: as it is. */
  attachmentForModel?: (attachment: Attachment) => Promise<Attachment>;
  /** The user's word on an earlier version (Regenerate); only a model can take it into account. */
  feedback?: string;
  /** What the user can do to get a model, in the host's words; ends the error for `feedback` without one. */
  noModelHint?: string;
  /** Each step as soon as the model has written it (see `GeneratePlanOptions.onPartialStep`). */
  onPartialStep?: (step: PlannerStep, index: number) => void;
  /** The model reviews the plan too (`critiqueWithModel`), its findings joining the static critic's. */
  modelCritique?: boolean;
  /** Longest the model critique may take, in ms; default `modelCritiqueTimeoutMs`. */
  modelCritiqueTimeoutMs?: number;
  /** The workspace's skills, described to the model (see `GeneratePlanOptions.skills`). */
  skills?: readonly SkillSummary[];
  /** The project's instruction files, given to the model that plans and to the model critique, each within a token budget. */
  instructions?: readonly Instruction[];
  /** Whether the workspace is trusted: the critique flags what Restricted Mode will refuse; unknown (nothing flagged) when absent. */
  trusted?: boolean;
  /**
   * With a model and a workspace: the model investigates before it plans (read-only tools,
   * questions through `ask`) within `budget`. Absent, without a model or with no tool calls allowed: no investigation.
   */
  investigate?: Pick<InvestigationOptions, 'budget' | 'stop' | 'progress' | 'ask' | 'ended' | 'writing'>;
}

/** A plan with its critique and the planner's warnings (parse and validation findings). */
export interface PlannedRequest {
  plan: Plan;
  critique: Critique;
  warnings: string[];
  /** When the model critique was asked for: what it cost, and why its findings are missing if they are. */
  modelCritique?: Omit<ModelCritiqueOutcome, 'critique'>;
  /** How the plan was made, for the run's journal (`RunOptions.planOrigin`, journaled as `plan_generated`). */
  origin: PlanOrigin;
  /** What the model read and asked before planning, when it investigated (the plan's `basis` holds what was read). */
  investigation?: Investigation;
}

function originOf(plan: Plan, critique: Critique, llm: LlmClient | undefined): PlanOrigin {
  return {
    planner: llm ? 'model' : 'heuristic',
    ...(llm ? { model: llm.model } : {}),
    steps: plan.steps.length,
    critiqueScore: critique.score,
    findings: critique.issues.length,
  };
}

/**
 * Plans `request` for the editor and the command line alike (docs/architecture.md §2): with
 * `options.llm`, `generatePlan` over a snapshot of the workspace (its first
 * `maxSnapshotFiles` paths, an unreadable workspace listed as empty, the open files and the
 * attachments); without one, the deterministic `heuristicPlan` with the attachments on its
 * steps and the workspace's test command (`projectTestCommand`, what "run the tests" runs).
 * Either way the plan is dated by `options.clock` and critiqued against
 * `options.tools`. Throws a `RangeError` for an empty request or for `feedback` without a
 * model (the heuristic planner would glue the feedback to the objective), and what the
 * model's planning threw.
 */
export async function planRequest(request: string, options: PlanRequestOptions): Promise<PlannedRequest> {
  const createdAt = new Date(options.clock.now()).toISOString();
  if (!options.llm) {
    if (options.feedback !== undefined) throw new RangeError(feedbackNeedsModel(options.noModelHint ?? 'set up a model, or edit the steps yourself.'));
    const attachments = (options.attachments ?? []).filter((attachment) => attachment.kind !== 'link');
    const testCommand = options.workspace ? await projectTestCommand(options.workspace, options.signal) : undefined;
    const plan = heuristicPlan(request, { createdAt, attachments, model: false, testCommand });
    const critique = critiquePlan(plan, { tools: options.tools, trusted: options.trusted });
    const origin = originOf(plan, critique, undefined);
    if (!options.modelCritique) return { plan, critique, warnings: [], origin };
    const error = 'The model critique needs a model; the review shows the static critic\'s findings.';
    const modelCritique = { usage: { promptTokens: 0, completionTokens: 0 }, costUsd: 0, error };
    return { plan, critique, warnings: [], modelCritique, origin };
  }
  const generated = await generatePlan(request, {
    llm: withModel(options.llm, options.models?.planner),
    tools: options.tools,
    signal: options.signal,
    clock: options.clock,
    workspace: await workspaceSnapshot(options),
    strategy: options.strategy,
    feedback: options.feedback,
    onPartialStep: options.onPartialStep,
    skills: options.skills,
    instructions: options.instructions,
    trusted: options.trusted,
    // A budget of no tool calls (`--investigate-calls 0`) is no investigation, never one that "reached its tool call limit".
    ...(options.investigate && options.workspace && options.investigate.budget.maxToolCalls > 0
      ? { investigate: { ...options.investigate, workspace: options.workspace, tools: options.tools, clock: options.clock } }
      : {}),
  });
  const plan = withRequestAttachments(generated.plan, options.attachments ?? []);
  const investigation = generated.investigation ? { investigation: generated.investigation } : {};
  if (!options.modelCritique) {
    return { plan, critique: generated.critique, warnings: generated.warnings, origin: originOf(plan, generated.critique, options.llm), ...investigation };
  }
  const { critique, ...modelCritique } = await critiqueWithModel(plan, generated.critique, withModel(options.llm, options.models?.reviewer), {
    signal: options.signal,
    clock: options.clock,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    ...(options.skills ? { skills: options.skills } : {}),
    ...(options.modelCritiqueTimeoutMs === undefined ? {} : { timeoutMs: options.modelCritiqueTimeoutMs }),
  });
  return { plan, critique, warnings: generated.warnings, modelCritique, origin: originOf(plan, critique, options.llm), ...investigation };
}

/**
 * `plan` with the request's attachments on each agent step: the model planned with them in
 * view, and the agents that do the work need them too. (The planner's output schema has no
 * attachments, so a model's step has none of its own.)
 */
function withRequestAttachments(plan: Plan, attachments: readonly Attachment[]): Plan {
  if (attachments.length === 0) return plan;
  return { ...plan, steps: plan.steps.map((step) => (step.kind === 'agent' ? { ...step, attachments: [...attachments] } : step)) };
}

async function workspaceSnapshot(options: PlanRequestOptions): Promise<WorkspaceSnapshot> {
  const forModel = options.attachmentForModel ?? ((attachment: Attachment) => Promise.resolve(attachment));
  // The listing only informs the model: a workspace that cannot be listed plans as an empty one.
  const listed = options.workspace ? await options.workspace.list(undefined, options.signal).catch(() => undefined) : undefined;
  const files = (listed?.files ?? []).slice(0, maxSnapshotFiles);
  return {
    ...(options.workspace ? { rootLabel: options.workspace.rootLabel } : {}),
    files,
    openFiles: (options.openFiles ?? []).map((path) => ({ path })),
    attachments: await Promise.all((options.attachments ?? []).map(forModel)),
  };
}
