import type { PlanChangeView } from '../../shared/panelViewModel';
import type { Plan, Step } from '../plan/planSchema';

/**
 * What changed from `before` to `after`, by step id: steps added, removed, and kept with
 * the fields that differ (compared as JSON). Used to show what Regenerate changed.
 */
export function diffPlans(before: Plan, after: Plan): PlanChangeView {
  const old = new Map(before.steps.map((step) => [step.id, step]));
  const ids = new Set(after.steps.map((step) => step.id));
  const changed: PlanChangeView['changed'] = [];
  const added: string[] = [];
  for (const step of after.steps) {
    const previous = old.get(step.id);
    if (!previous) {
      added.push(step.id);
      continue;
    }
    const fields = changedFields(previous, step);
    if (fields.length > 0) changed.push({ id: step.id, fields });
  }
  const movedIds = orderChanged(before, after, ids);
  for (const id of movedIds) {
    const entry = changed.find((change) => change.id === id);
    if (entry) entry.fields.push('position');
    else changed.push({ id, fields: ['position'] });
  }
  return {
    fromVersion: before.version,
    toVersion: after.version,
    added,
    removed: before.steps.filter((step) => !ids.has(step.id)).map((step) => step.id),
    changed,
    objectiveChanged: before.objective !== after.objective,
  };
}

function changedFields(a: Step, b: Step): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof Step)[]);
  return [...keys].filter((key) => key !== 'id' && JSON.stringify(a[key]) !== JSON.stringify(b[key])).sort();
}

/** Kept steps whose order relative to the other kept steps changed. */
function orderChanged(before: Plan, after: Plan, afterIds: ReadonlySet<string>): string[] {
  const oldOrder = before.steps.map((step) => step.id).filter((id) => afterIds.has(id));
  const kept = new Set(oldOrder);
  const newOrder = after.steps.map((step) => step.id).filter((id) => kept.has(id));
  return newOrder.filter((id, index) => oldOrder[index] !== id);
}
