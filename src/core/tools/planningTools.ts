import { z } from 'zod';
import type { Tool, ToolContext } from './tool';
import type { SessionPlanner } from '../session/createSessionPlanner';
import { sessionStepStatuses, sessionTextLimits } from '../session/sessionPlan';
import type { SessionPlanResult, SessionStepStatus } from '../session/sessionPlan';

// The schemas only check shapes: trimming, limits and ASCII are the planner's rules, so
// the model gets the planner's precise messages.
const stepDraft = z.strictObject({
  title: z.string().describe(`Short imperative title, 1-${sessionTextLimits.title} ASCII characters.`),
  details: z.string().optional().describe(`Optional details, up to ${sessionTextLimits.details} ASCII characters.`),
});

const schemas = {
  setup: z.strictObject({
    objective: z.string().describe(`What the task must achieve, 1-${sessionTextLimits.objective} ASCII characters.`),
    initialSteps: z.array(stepDraft).optional().describe('The steps known now, in order.'),
  }),
  add: z.strictObject({ steps: z.array(stepDraft).describe('Steps to append, in order.') }),
  update: z.strictObject({
    stepId: z.string().describe('Id of the step, such as S002.'),
    title: z.string().optional().describe('New title.'),
    details: z.string().optional().describe('New details; an empty string removes them.'),
  }),
  mark: z.strictObject({
    stepId: z.string().describe('Id of the step, such as S002.'),
    status: z.enum(sessionStepStatuses as [SessionStepStatus, ...SessionStepStatus[]]).describe('New status.'),
    note: z.string().optional().describe(`Optional note appended to the step, up to ${sessionTextLimits.note} ASCII characters.`),
  }),
  none: z.strictObject({}),
};

/**
 * The six `planning_*` tools over the session planner `plannerFor(ctx)` returns (one per
 * session). They change only the session's todo list, never the workspace, so they ask no
 * approval. Each returns `{ plan, message }`; a refused call fails with the planner's
 * `ToolValidationError` message.
 */
export function createPlanningTools(plannerFor: (ctx: ToolContext) => SessionPlanner): Tool[] {
  const tool = <I>(
    name: string,
    description: string,
    inputSchema: z.ZodType<I>,
    call: (planner: SessionPlanner, input: I) => SessionPlanResult,
  ): Tool<I, SessionPlanResult> => ({
    name,
    description,
    inputSchema,
    effects: 'read',
    run: async (ctx, input, signal) => {
      signal.throwIfAborted();
      return call(plannerFor(ctx), input);
    },
  });
  return [
    tool(
      'planning_setup_plan',
      'Start the session plan (replacing any other) with an objective and initial steps; ids restart at S001.',
      schemas.setup,
      (planner, input) => planner.setupPlan({ objective: input.objective, ...(input.initialSteps ? { initialSteps: input.initialSteps } : {}) }),
    ),
    tool('planning_add_step', 'Append one or more steps to the active session plan.', schemas.add, (planner, input) => planner.addStep(input)),
    tool('planning_update_step', 'Change the title and/or details of a step of the active session plan.', schemas.update, (planner, input) =>
      planner.updateStep(input),
    ),
    tool(
      'planning_mark_step',
      "Set a step's status (pending, in_progress, blocked, done), optionally with a note. The plan completes when every step is done.",
      schemas.mark,
      (planner, input) => planner.markStep(input),
    ),
    tool('planning_clear_plan', 'Abandon the session plan and drop its steps.', schemas.none, (planner) => planner.clearPlan()),
    tool('planning_read_plan', 'Read the session plan: objective, status, and every step with its status and notes.', schemas.none, (planner) =>
      planner.readPlan(),
    ),
  ] as Tool[];
}
