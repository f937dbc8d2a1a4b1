import type { SessionPlan, SessionStepStatus } from '../session/sessionPlan';
import { spokenRow, type PlanTreeNode } from './planTreeModel';

const statusViews: Record<SessionStepStatus, { icon: string; color: string; label: string }> = {
  pending: { icon: 'circle-large-outline', color: 'disabledForeground', label: 'pending' },
  in_progress: { icon: 'loading~spin', color: 'charts.blue', label: 'in progress' },
  blocked: { icon: 'debug-pause', color: 'charts.yellow', label: 'blocked' },
  done: { icon: 'pass-filled', color: 'testing.iconPassed', label: 'done' },
};

/**
 * The Plan tree for a session plan kept by chat agents through the `planning_*` tools
 * (docs/architecture.md §10): a header with the objective and plan status, then one node per step with
 * its status, details and notes.
 */
export function sessionTreeModel(plan: SessionPlan): PlanTreeNode[] {
  const done = plan.steps.filter((step) => step.status === 'done').length;
  const description = `session plan · ${plan.status} · ${done}/${plan.steps.length} done`;
  const header: PlanTreeNode = {
    id: 'session:objective',
    label: plan.objective,
    description,
    accessibilityLabel: spokenRow(plan.objective, description),
    tooltip: `Kept by a chat agent through the planning_* tools.\nObjective: ${plan.objective}\nStatus: ${plan.status}`,
    icon: plan.status === 'completed' ? 'pass-filled' : plan.status === 'abandoned' ? 'circle-slash' : 'checklist',
    contextValue: 'session.plan',
    children: [],
  };
  return [
    header,
    ...plan.steps.map((step) => {
      const view = statusViews[step.status];
      return {
        id: `session:${step.id}`,
        label: `${step.id} ${step.title}`,
        description: view.label,
        accessibilityLabel: spokenRow(`${step.id} ${step.title}`, view.label),
        tooltip: [`${step.id} · ${view.label}`, step.details ? `Details: ${step.details}` : undefined, ...step.notes.map((note) => `Note: ${note}`)]
          .filter((line): line is string => line !== undefined)
          .join('\n'),
        icon: view.icon,
        color: view.color,
        contextValue: `session.step.${step.status}`,
        children: [],
      };
    }),
  ];
}
