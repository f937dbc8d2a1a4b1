import { findCycles } from './findCycles';
import type { Plan } from './planSchema';

/** Steps grouped by dependency level, or the cycle that makes levels impossible. */
export type PlanLevels = { ok: true; levels: string[][] } | { ok: false; cycle: string[] };

/**
 * Groups steps into dependency levels: level 0 has no dependencies; a step's level is one
 * more than its deepest dependency's. Order inside a level follows plan order. Unknown
 * dependencies are ignored (`validatePlan` reports them). Linear in steps + edges; never
 * loops on a cycle (the cycle is returned, each step depending on the next).
 */
export function planLevels(plan: Pick<Plan, 'steps'>): PlanLevels {
  const cycle = findCycles(plan.steps)[0];
  if (cycle) return { ok: false, cycle };
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const level = new Map<string, number>();
  const levelOf = (startId: string): number => {
    // Explicit stack: plans can be chains of tens of thousands of steps.
    const stack = [startId];
    while (stack.length > 0) {
      const id = stack[stack.length - 1]!;
      if (level.has(id)) {
        stack.pop();
        continue;
      }
      const pending = (byId.get(id)?.dependsOn ?? []).filter((dep) => byId.has(dep) && !level.has(dep));
      if (pending.length > 0) {
        stack.push(...pending);
        continue;
      }
      const deps = (byId.get(id)?.dependsOn ?? []).filter((dep) => byId.has(dep));
      level.set(id, deps.length === 0 ? 0 : 1 + Math.max(...deps.map((dep) => level.get(dep)!)));
      stack.pop();
    }
    return level.get(startId)!;
  };
  const levels: string[][] = [];
  const seen = new Set<string>();
  for (const step of plan.steps) {
    if (seen.has(step.id)) continue;
    seen.add(step.id);
    const index = levelOf(step.id);
    while (levels.length <= index) levels.push([]);
    levels[index]!.push(step.id);
  }
  return { ok: true, levels };
}
