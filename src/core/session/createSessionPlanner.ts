import { renderPlanningSection, renderSessionPlan } from './planningPrompt';
import type { PlanningStrategy } from './planningPrompt';
import { addSteps, clearPlan, markStep, restorePlan, setupPlan, updateStep } from './sessionPlan';
import type { SessionPlan, SessionPlanResult, SessionStepStatus, StepDraft } from './sessionPlan';
import { ToolValidationError } from './toolValidationError';

/**
 * One session's todo list (docs/architecture.md §10). Every change replaces the current snapshot with a
 * new immutable one; refused calls throw `ToolValidationError` and change nothing.
 */
export interface SessionPlanner {
  setupPlan(input: { objective: string; initialSteps?: StepDraft[] }): SessionPlanResult;
  addStep(input: { steps: StepDraft[] }): SessionPlanResult;
  updateStep(input: { stepId: string; title?: string; details?: string }): SessionPlanResult;
  markStep(input: { stepId: string; status: SessionStepStatus; note?: string }): SessionPlanResult;
  clearPlan(): SessionPlanResult;
  /** The plan and its text rendering; refused when there is no plan. */
  readPlan(): SessionPlanResult;
  /** The current snapshot, `undefined` before the first setup. */
  current(): SessionPlan | undefined;
  /** The planning prompt section for `strategy`, with the current plan. */
  render(strategy?: PlanningStrategy): string;
  /** Called with each new snapshot, e.g. to refresh the Plan view; returns an unsubscribe function. */
  onChange(listener: (plan: SessionPlan) => void): () => void;
}

/**
 * A planner, empty or resuming from a saved snapshot; a snapshot the tools could not have made (a control character,
 * too many steps or notes…) is refused with an `Error`, so what it holds is always within the tools' rules.
 */
export function createSessionPlanner(initial?: SessionPlan): SessionPlanner {
  let plan = initial === undefined ? undefined : restorePlan(initial);
  const listeners = new Set<(plan: SessionPlan) => void>();
  const commit = (result: SessionPlanResult): SessionPlanResult => {
    plan = result.plan;
    for (const listener of listeners) listener(result.plan);
    return result;
  };
  return {
    setupPlan: (input) => commit(setupPlan(input)),
    addStep: (input) => commit(addSteps(plan, input)),
    updateStep: (input) => commit(updateStep(plan, input)),
    markStep: (input) => commit(markStep(plan, input)),
    clearPlan: () => commit(clearPlan(plan)),
    readPlan() {
      if (!plan) throw new ToolValidationError('There is no session plan yet; call planning_setup_plan with an objective and steps first.');
      return { plan, message: renderSessionPlan(plan) };
    },
    current: () => plan,
    render: (strategy) => renderPlanningSection(strategy, plan),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
