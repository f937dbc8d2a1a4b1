import type { Plan } from './planSchema';

/**
 * The step `stepId` and every step that depends on it, directly or through other steps:
 * what running the plan again from `stepId` (Retry, Run from here, Skip) must run again.
 * Unknown ids yield just `stepId`; a cycle is followed once. Linear in steps + edges.
 */
export function downstreamSteps(plan: Pick<Plan, 'steps'>, stepId: string): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const step of plan.steps) {
    for (const dependency of step.dependsOn) {
      const list = dependents.get(dependency);
      if (list) list.push(step.id);
      else dependents.set(dependency, [step.id]);
    }
  }
  const downstream = new Set([stepId]);
  const queue = [stepId];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const dependent of dependents.get(next) ?? []) {
      if (downstream.has(dependent)) continue;
      downstream.add(dependent);
      queue.push(dependent);
    }
  }
  return downstream;
}

/**
 * The step `stepId` and every step it depends on, directly or through other steps: the steps whose work it ran after.
 * Unknown ids yield just `stepId`; a cycle is followed once. Linear in steps + edges.
 */
export function upstreamSteps(plan: Pick<Plan, 'steps'>, stepId: string): Set<string> {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const upstream = new Set([stepId]);
  const queue = [stepId];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const dependency of byId.get(next)?.dependsOn ?? []) {
      if (upstream.has(dependency)) continue;
      upstream.add(dependency);
      queue.push(dependency);
    }
  }
  return upstream;
}

/**
 * The results a run again from `stepId` keeps (its steps are not re-run): those of steps outside
 * `downstreamSteps(plan, stepId)` and outside the downstream of each step of `undone` (steps whose file changes Undo
 * took back: their results describe files that are no longer there, so they run again, and what depends on them).
 */
export function resultsKeptFrom(
  plan: Pick<Plan, 'steps'>,
  stepId: string,
  results: Readonly<Record<string, unknown>>,
  undone: ReadonlySet<string>,
): Record<string, unknown> {
  const again = new Set([stepId, ...undone].flatMap((id) => [...downstreamSteps(plan, id)]));
  return Object.fromEntries(Object.entries(results).filter(([id]) => !again.has(id)));
}
