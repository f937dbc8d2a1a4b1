import type { Plan } from '../plan/planSchema';
import { terminalStepStatuses, type StepState } from './runEvents';

/** The plan's graph in the shape the scheduler needs; built once per run. */
export interface PlanGraph {
  /** Step ids in plan order. */
  order: readonly string[];
  /** Position of each step in plan order (the tie-breaker between equal priorities). */
  position: ReadonlyMap<string, number>;
  dependencies: ReadonlyMap<string, readonly string[]>;
  dependents: ReadonlyMap<string, readonly string[]>;
  /** Longest remaining path from the step to the end of the plan, the step itself included. */
  priority: ReadonlyMap<string, number>;
}

/**
 * Builds the graph and each step's priority: the cost of the longest path from the step
 * to a sink, summing `cost(step)` (default 1 per step) along it. Throws on an unknown
 * dependency or a cycle, naming it; `runPlan` validates the plan before this.
 */
export function buildPlanGraph(plan: Pick<Plan, 'steps'>, cost: (stepId: string) => number = () => 1): PlanGraph {
  const order = plan.steps.map((step) => step.id);
  const position = new Map(order.map((id, index) => [id, index]));
  const dependencies = new Map<string, readonly string[]>();
  const dependents = new Map<string, string[]>(order.map((id) => [id, []]));
  for (const step of plan.steps) {
    dependencies.set(step.id, step.dependsOn);
    for (const dependency of step.dependsOn) {
      const list = dependents.get(dependency);
      if (!list) throw new Error(`Step ${step.id} depends on ${dependency}, which is not in the plan; fix the plan before running it.`);
      list.push(step.id);
    }
  }
  const priority = new Map<string, number>();
  for (const id of reverseTopologicalOrder(order, dependents)) {
    let longest = 0;
    for (const dependent of dependents.get(id) ?? []) longest = Math.max(longest, priority.get(dependent) ?? 0);
    priority.set(id, longest + cost(id));
  }
  return { order, position, dependencies, dependents, priority };
}

/** Sinks first; throws when the graph has a cycle. */
function reverseTopologicalOrder(order: readonly string[], dependents: ReadonlyMap<string, readonly string[]>): string[] {
  const remaining = new Map(order.map((id) => [id, dependents.get(id)?.length ?? 0]));
  const dependencies = new Map<string, string[]>(order.map((id) => [id, []]));
  for (const id of order) for (const dependent of dependents.get(id) ?? []) dependencies.get(dependent)?.push(id);
  const queue = order.filter((id) => remaining.get(id) === 0);
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head] as string;
    for (const dependency of dependencies.get(id) ?? []) {
      const left = (remaining.get(dependency) ?? 0) - 1;
      remaining.set(dependency, left);
      if (left === 0) queue.push(dependency);
    }
  }
  if (queue.length !== order.length) {
    const stuck = order.filter((id) => (remaining.get(id) ?? 0) > 0);
    throw new Error(`The plan has a dependency cycle among ${stuck.join(', ')}; break the cycle before running it.`);
  }
  return queue;
}

/** Number of dependencies of `stepId` not yet completed. */
export function unmetDependencies(graph: PlanGraph, stepId: string, steps: Readonly<Record<string, StepState>>): number {
  let count = 0;
  for (const dependency of graph.dependencies.get(stepId) ?? []) if (steps[dependency]?.status !== 'completed') count++;
  return count;
}

/** The first dependency of `stepId` that ended failed or skipped (other than for `ignoredCause`), if any. */
export function failedDependency(
  graph: PlanGraph,
  stepId: string,
  steps: Readonly<Record<string, StepState>>,
  ignoredCause?: StepState['skipCause'],
): string | undefined {
  return (graph.dependencies.get(stepId) ?? []).find((id) => {
    const status = steps[id]?.status;
    return status === 'failed' || (status === 'skipped' && (ignoredCause === undefined || steps[id]?.skipCause !== ignoredCause));
  });
}

/**
 * Every transitive dependent of `stepId` that has not ended, in breadth-first order, each
 * with the dependency through which it was reached (for the "dependency X failed" reason).
 */
export function dependentsToSkip(
  graph: PlanGraph,
  stepId: string,
  steps: Readonly<Record<string, StepState>>,
  /** Walks on through dependents already skipped for a dependency (a resume finishing a skip the journal cut short). */
  throughSkipped = false,
): { stepId: string; via: string }[] {
  const found: { stepId: string; via: string }[] = [];
  const seen = new Set<string>([stepId]);
  const queue = [stepId];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as string;
    for (const dependent of graph.dependents.get(current) ?? []) {
      if (seen.has(dependent)) continue;
      seen.add(dependent);
      const status = steps[dependent]?.status;
      if (status !== undefined && terminalStepStatuses.has(status)) {
        if (throughSkipped && status === 'skipped' && steps[dependent]?.skipCause === 'dependency') queue.push(dependent);
        continue;
      }
      found.push({ stepId: dependent, via: current });
      queue.push(dependent);
    }
  }
  return found;
}

/** Orders ready steps: higher priority first, then plan order. */
export function comparePriority(graph: PlanGraph, a: string, b: string): number {
  const byPriority = (graph.priority.get(b) ?? 0) - (graph.priority.get(a) ?? 0);
  return byPriority !== 0 ? byPriority : (graph.position.get(a) ?? 0) - (graph.position.get(b) ?? 0);
}
