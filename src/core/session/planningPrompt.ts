import { stepCount, type SessionPlan } from './sessionPlan';

/** How agents are guided to work (setting `taskPlanner.strategy`); `react` is the default. */
export type PlanningStrategy = 'react' | 'plan_act_reflect' | 'goal_decompose_route_synthesise';
export const planningStrategies: readonly PlanningStrategy[] = ['react', 'plan_act_reflect', 'goal_decompose_route_synthesise'];

const baseInstructions = [
  '## Session plan',
  'Keep a short todo list for this task with the planning tools; the user follows it live in the Plan view.',
  '- For a task of more than two steps, call planning_setup_plan first with the objective (1-240 characters) and the initial steps (title 1-160 characters, optional details up to 512).',
  '- Steps get the ids S001, S002, ... in order; refer to them by id. A new planning_setup_plan replaces the plan and starts again at S001.',
  '- Before working on a step, mark it in_progress with planning_mark_step; mark it done as soon as it is finished, or blocked with a note saying what is missing. Keep one step in_progress at a time.',
  '- Add work you discover with planning_add_step and reword a step with planning_update_step; do not set the plan up again to change it.',
  '- Call planning_read_plan when unsure what remains. When every step is done the plan completes by itself; marking a step back re-opens it.',
  '- If the task changes completely, call planning_clear_plan, then planning_setup_plan.',
  '- All text must be plain ASCII. A refused call changed nothing: read its message, fix the call and try again.',
];

const strategyLines: Record<PlanningStrategy, string[]> = {
  react: [],
  plan_act_reflect: [
    'Strategy: plan, act, reflect.',
    '- Plan: set up the whole plan before the first action.',
    '- Act: work on one step at a time, using the tools it needs.',
    '- Reflect: after each step, compare its result with the objective; add, update or block steps before moving on, and put what you learned in the note when you mark it.',
  ],
  goal_decompose_route_synthesise: [
    'Strategy: goal, decompose, route, synthesise.',
    '- Goal: state the objective as the outcome the user wants, not as an activity.',
    '- Decompose: break the goal into concrete sub-problems before assigning tools to each one; make each step a sub-goal with a checkable result, described in its details.',
    '- Route: say in each step\'s details which tool or agent handles it.',
    '- Synthesise: end with a step that combines the sub-results into the answer; mark it done only when the answer covers the objective.',
  ],
};

/**
 * The strategy's own guidance, without the planning tools' instructions (for an agent
 * that does not have those tools); empty for `react`. Deterministic; ASCII only.
 */
export function renderStrategySection(strategy: PlanningStrategy): string {
  return strategyLines[strategy].join('\n');
}

/**
 * The prompt section that teaches an agent the planning tools under `strategy`, followed
 * by the current plan when there is one. Deterministic (snapshot-tested); ASCII only.
 */
export function renderPlanningSection(strategy: PlanningStrategy = 'react', plan?: SessionPlan): string {
  const lines = [...baseInstructions];
  const extra = strategyLines[strategy];
  if (extra.length > 0) lines.push('', ...extra);
  if (plan) lines.push('', renderSessionPlan(plan));
  return lines.join('\n');
}

/** The plan as compact text: objective and status, then one line per step with its notes. */
export function renderSessionPlan(plan: SessionPlan): string {
  const done = plan.steps.filter((step) => step.status === 'done').length;
  const lines = [`Current plan (${plan.status}, ${stepCount(plan.steps.length)}, ${done} done): ${plan.objective}`];
  for (const step of plan.steps) {
    lines.push(`- ${step.id} [${step.status}] ${step.title}${step.details ? ` -- ${step.details}` : ''}`);
    for (const note of step.notes) lines.push(`  note: ${note}`);
  }
  if (plan.steps.length === 0) lines.push('- (no steps)');
  return lines.join('\n');
}
