import { findCycles } from './findCycles';
import type { Plan } from './planSchema';
import { topologicalOrder } from './topologicalOrder';

/** Steps grouped by dependency level, or the cycle that makes levels impossible. */
export type PlanLevels = { ok: true; levels: string[][] } | { ok: false; cycle: string[] };

/**
 * Groups steps into dependency levels: level 0 has no dependencies; a step's level is one
 * more than its deepest dependency's. Order inside a level follows plan order. Unknown
 * dependencies are ignored (`validatePlan` reports them); a step whose id repeats an
 * earlier one is placed once. Linear in steps + edges; never loops on a cycle (the cycle is
 * returned, each step depending on the next).
 */
export function planLevels(plan: Pick<Plan, 'steps'>): PlanLevels {
  const sorted = topologicalOrder(plan.steps);
  if (!sorted.ok) return { ok: false, cycle: findCycles(plan.steps)[0] ?? sorted.unplaced };
  const level = new Int32Array(plan.steps.length);
  let deepest = -1;
  for (const index of sorted.order) {
    let value = 0;
    for (const dep of sorted.depIndexes[index]!) value = Math.max(value, level[dep]! + 1);
    level[index] = value;
    deepest = Math.max(deepest, value);
  }
  const levels: string[][] = Array.from({ length: deepest + 1 }, () => []);
  const seen = new Set<string>();
  plan.steps.forEach((step, index) => {
    if (seen.has(step.id)) return;
    seen.add(step.id);
    levels[level[index]!]!.push(step.id);
  });
  return { ok: true, levels };
}
