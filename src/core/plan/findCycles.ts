import type { Step } from './planSchema';
import { topologicalOrder } from './topologicalOrder';

/**
 * Finds dependency cycles: one per strongly connected component, each as step ids in
 * order where every step depends on the next and the last on the first. A step that
 * depends on itself is a cycle of one. Dependencies on unknown steps are ignored.
 * Iterative Tarjan: linear in steps + edges, safe for very deep plans.
 */
export function findCycles(steps: readonly Pick<Step, 'id' | 'dependsOn'>[]): string[][] {
  // The common case, an acyclic plan, is settled by one cheap topological pass.
  if (topologicalOrder(steps).ok) return [];
  const edges = new Map<string, string[]>();
  for (const step of steps) {
    if (!edges.has(step.id)) edges.set(step.id, step.dependsOn);
  }
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const sccStack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;

  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { id: string; next: number }[] = [{ id: root, next: 0 }];
    index.set(root, counter);
    lowLink.set(root, counter++);
    sccStack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const deps = edges.get(frame.id)!;
      if (frame.next < deps.length) {
        const dep = deps[frame.next++]!;
        if (!edges.has(dep)) continue;
        if (!index.has(dep)) {
          index.set(dep, counter);
          lowLink.set(dep, counter++);
          sccStack.push(dep);
          onStack.add(dep);
          work.push({ id: dep, next: 0 });
        } else if (onStack.has(dep)) {
          lowLink.set(frame.id, Math.min(lowLink.get(frame.id)!, index.get(dep)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) lowLink.set(parent.id, Math.min(lowLink.get(parent.id)!, lowLink.get(frame.id)!));
      if (lowLink.get(frame.id) !== index.get(frame.id)) continue;
      const component = new Set<string>();
      let member: string;
      do {
        member = sccStack.pop()!;
        onStack.delete(member);
        component.add(member);
      } while (member !== frame.id);
      const selfLoop = component.size === 1 && deps.includes(frame.id);
      if (component.size > 1 || selfLoop) cycles.push(cycleWithin(component, frame.id, edges));
    }
  }
  return cycles;
}

/** A shortest cycle through `start` using only edges inside `component` (breadth-first). */
function cycleWithin(component: Set<string>, start: string, edges: Map<string, string[]>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    for (const dep of edges.get(id) ?? []) {
      if (!component.has(dep)) continue;
      if (dep === start) {
        const path = [id];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(dep)) {
        previous.set(dep, id);
        queue.push(dep);
      }
    }
  }
  return [start];
}
