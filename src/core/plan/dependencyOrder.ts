import type { Step } from './planSchema';
import { PositionHeap } from './positionHeap';

/**
 * `steps` in an order where each comes after the steps it depends on, moving as little as it can: of the steps whose
 * dependencies are placed, the one first in the given order goes next, so an order that already has every dependency
 * first comes back as the same array, and a step given a dependency listed below it moves to just after it (with the
 * steps that wait on it). Dependencies on steps not in `steps` are ignored; `undefined` when they form a cycle.
 * O((steps + edges) log steps).
 */
export function dependencyOrder<S extends Pick<Step, 'id' | 'dependsOn'>>(steps: readonly S[]): readonly S[] | undefined {
  const positionOf = new Map<string, number>();
  steps.forEach((step, index) => {
    if (!positionOf.has(step.id)) positionOf.set(step.id, index);
  });
  const waiting = steps.map(() => 0);
  const dependents: number[][] = steps.map(() => []);
  steps.forEach((step, index) => {
    for (const dep of new Set(step.dependsOn)) {
      const at = positionOf.get(dep);
      if (at === undefined || at === index) continue;
      waiting[index]! += 1;
      dependents[at]!.push(index);
    }
  });
  const ready = new PositionHeap();
  waiting.forEach((count, index) => {
    if (count === 0) ready.push(index);
  });
  const order: number[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    order.push(next);
    for (const dependent of dependents[next]!) if (--waiting[dependent]! === 0) ready.push(dependent);
  }
  if (order.length < steps.length) return undefined;
  return order.every((position, index) => position === index) ? steps : order.map((position) => steps[position]!);
}
