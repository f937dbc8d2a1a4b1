import { z } from 'zod';
import { editPlan, type PlanEdit } from './editPlan';
import type { Plan, Step } from './planSchema';
import type { ValidatePlanOptions } from './validatePlan';
import { oneLine } from '../text/oneLine';
import type { Tool } from '../tools/tool';
import { ToolValidationError } from '../session/toolValidationError';

/** Most characters of a step's input, and of its title, that `plan_read_plan` shows the model. */
export const planReadLimits = { title: 300, input: 600, steps: 200 } as const;

/** A plan being edited in a conversation: the model's tools over it, the current version and what changed. */
export interface PlanEditSession {
  /** The `plan_*` tools: read the plan, and edit it through `editPlan` (each edit re-validated; a refusal changes nothing). */
  tools: Tool[];
  /** The plan with every accepted edit, the one given when none was. */
  plan(): Plan;
  /** One line per accepted edit, oldest first ("Removed step R2 (Update the README)."). */
  changes(): string[];
}

const stepId = z.string().describe('Id of the step, as plan_read_plan shows it.');

const schemas = {
  none: z.strictObject({}),
  remove: z.strictObject({
    stepId,
    dropDependencies: z.boolean().optional().describe('Also remove it from the steps that depend on it: they then wait for what it waited for.'),
  }),
  update: z.strictObject({
    stepId,
    title: z.string().optional().describe('New title.'),
    input: z.string().optional().describe('New instructions of the step (what its agent, reviewer or person is asked to do).'),
  }),
  move: z.strictObject({ stepId, position: z.number().int().describe('New position, 1 for the first step.') }),
  dependencies: z.strictObject({ stepId, dependsOn: z.array(z.string()).describe('Ids of the steps it waits for; empty for none.') }),
  skip: z.strictObject({ stepId }),
};

/**
 * Tools with which a model edits `initial` for the user (the same `Tool` mechanism as the
 * session planner's `planning_*` tools): `plan_read_plan`, `plan_remove_step`,
 * `plan_update_step`, `plan_move_step`, `plan_set_dependencies`, `plan_skip_step` and
 * `plan_unskip_step`. Every change goes through `editPlan` with `options` (so it is
 * re-validated, and one that would break the plan is refused with `editPlan`'s reason as a
 * `ToolValidationError`, the plan unchanged). They touch no file and ask no approval.
 */
export function createPlanEditSession(initial: Plan, options: ValidatePlanOptions = {}): PlanEditSession {
  let plan = initial;
  const changes: string[] = [];
  const titleOf = (id: string): string => oneLine(plan.steps.find((step) => step.id === id)?.title ?? id, 80);
  // `note` is worded before the edit (a removed step's title) or, as a function, after it (a new title).
  const apply = (edit: PlanEdit, note: string | (() => string)): { message: string; plan: string } => {
    const result = editPlan(plan, edit, options);
    if (!result.ok) throw new ToolValidationError(result.error);
    plan = result.plan;
    const message = typeof note === 'string' ? note : note();
    changes.push(message);
    return { message, plan: planText(plan) };
  };
  const tool = <I>(name: string, description: string, inputSchema: z.ZodType<I>, run: (input: I) => unknown): Tool<I, unknown> => ({
    name,
    description,
    inputSchema,
    effects: 'read',
    run: async (_ctx, input, signal) => {
      signal.throwIfAborted();
      return run(input);
    },
  });
  const tools = [
    tool('plan_read_plan', "Read the plan: its objective and every step with its id, kind, title, dependencies and instructions.", schemas.none, () => ({
      plan: planText(plan),
    })),
    tool('plan_remove_step', 'Remove a step from the plan.', schemas.remove, (input) =>
      apply(
        { type: 'removeStep', stepId: input.stepId, dropEdges: input.dropDependencies === true },
        `Removed step ${input.stepId} (${titleOf(input.stepId)}).`,
      ),
    ),
    tool('plan_update_step', "Change a step's title and/or instructions.", schemas.update, (input) => {
      if (input.title === undefined && input.input === undefined) throw new ToolValidationError('Give a new title or new instructions; nothing was changed.');
      if (input.title !== undefined && input.title.trim() === '') throw new ToolValidationError('The title cannot be empty; nothing was changed.');
      const patch = { ...(input.title === undefined ? {} : { title: input.title.trim() }), ...(input.input === undefined ? {} : { input: input.input }) };
      return apply({ type: 'updateStep', stepId: input.stepId, patch }, () => `Changed step ${input.stepId} (${titleOf(input.stepId)}).`);
    }),
    tool('plan_move_step', 'Move a step to another position in the plan (its dependencies must still come before it).', schemas.move, (input) =>
      apply({ type: 'moveStep', stepId: input.stepId, toIndex: input.position - 1 }, `Moved step ${input.stepId} to position ${input.position}.`),
    ),
    tool('plan_set_dependencies', 'Set the steps a step waits for.', schemas.dependencies, (input) =>
      apply(
        { type: 'setDependencies', stepId: input.stepId, dependsOn: input.dependsOn },
        `Step ${input.stepId} now waits for ${input.dependsOn.length === 0 ? 'no step' : input.dependsOn.join(', ')}.`,
      ),
    ),
    tool('plan_skip_step', 'Keep a step in the plan but skip it when the plan runs.', schemas.skip, (input) =>
      apply({ type: 'skipStep', stepId: input.stepId }, `Step ${input.stepId} (${titleOf(input.stepId)}) will be skipped.`),
    ),
    tool('plan_unskip_step', 'Run a step that was marked to be skipped.', schemas.skip, (input) =>
      apply({ type: 'unskipStep', stepId: input.stepId }, `Step ${input.stepId} (${titleOf(input.stepId)}) will run again.`),
    ),
  ] as Tool[];
  return { tools, plan: () => plan, changes: () => [...changes] };
}

/**
 * The plan as the model reads it: the objective, then one line per step (position, id,
 * kind, title, what it waits for, skipped), its instructions indented below; every text
 * bounded (`planReadLimits`).
 */
function planText(plan: Plan): string {
  const lines = [`Objective: ${oneLine(plan.objective, planReadLimits.input)}`, `Version ${plan.version}, ${plan.steps.length} steps:`];
  plan.steps.slice(0, planReadLimits.steps).forEach((step, index) => lines.push(...stepText(step, index)));
  if (plan.steps.length > planReadLimits.steps) lines.push(`(${plan.steps.length - planReadLimits.steps} more steps not shown)`);
  return lines.join('\n');
}

function stepText(step: Step, index: number): string[] {
  const after = step.dependsOn.length > 0 ? ` (after ${step.dependsOn.join(', ')})` : '';
  const what = step.kind === 'tool' ? `${step.kind}: ${step.tool ?? '?'}` : step.kind;
  const lines = [`${index + 1}. ${step.id} [${what}] ${oneLine(step.title, planReadLimits.title)}${after}${step.skipped ? ' (skipped)' : ''}`];
  const detail = step.input ?? (step.args === undefined ? undefined : JSON.stringify(step.args));
  if (detail !== undefined && detail.trim() !== '') lines.push(`   ${oneLine(detail, planReadLimits.input)}`);
  return lines;
}
