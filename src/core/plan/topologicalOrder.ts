import type { Step } from './planSchema';

/** Steps in an order where every dependency comes first, or the ids that no such order can place. */
export type TopologicalOrder = { ok: true; order: number[]; depIndexes: number[][] } | { ok: false; unplaced: string[] };

/**
 * Kahn's algorithm over plan positions: linear in steps + edges. Dependencies on unknown
 * steps are ignored; duplicate ids resolve to the first step with that id. `order` holds
 * positions in `steps`, ties broken by plan order; `depIndexes[i]` are step i's known
 * dependencies as positions.
 */
export function topologicalOrder(steps: readonly Pick<Step, 'id' | 'dependsOn'>[]): TopologicalOrder {
  const positionOf = new Map<string, number>();
  steps.forEach((step, index) => {
    if (!positionOf.has(step.id)) positionOf.set(step.id, index);
  });
  const depIndexes = steps.map((step) => step.dependsOn.map((dep) => positionOf.get(dep)).filter((dep): dep is number => dep !== undefined));
  const waiting = new Int32Array(steps.length);
  // Stryker disable next-line ArrayDeclaration: a non-numeric entry in a list of dependents never counts down to 0, so it is never placed
  const dependents: number[][] = steps.map(() => []);
  depIndexes.forEach((deps, index) => {
    waiting[index] = deps.length;
    for (const dep of deps) dependents[dep]!.push(index);
  });
  const order: number[] = [];
  // Stryker disable next-line EqualityOperator: waiting[steps.length] is undefined, never 0
  for (let index = 0; index < steps.length; index++) if (waiting[index] === 0) order.push(index);
  for (let head = 0; head < order.length; head++) {
    for (const dependent of dependents[order[head]!]!) {
      if (--waiting[dependent]! === 0) order.push(dependent);
    }
  }
  if (order.length === steps.length) return { ok: true, order, depIndexes };
  return { ok: false, unplaced: steps.filter((_, index) => waiting[index]! > 0).map((step) => step.id) };
}
