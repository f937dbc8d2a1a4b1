import type { Plan } from './planSchema';
import type { Checkpoint } from '../runStorePorts';

/**
 * The steps "Undo from here" takes back for step `from` of `plan`: `from`, every step that
 * depends on it (directly or not), and every step that changed one of their files after
 * the first of their changes (its change was made on top of theirs, so it cannot stay once
 * they are gone), and so on until nothing more joins. `checkpoints` are the run's, in the
 * order they were recorded.
 */
export function undoScope(plan: Pick<Plan, 'steps'>, checkpoints: readonly Checkpoint[], from: string): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const step of plan.steps) {
    for (const dependency of step.dependsOn) dependents.set(dependency, [...(dependents.get(dependency) ?? []), step.id]);
  }
  const scope = new Set<string>();
  const add = (id: string): void => {
    if (scope.has(id)) return;
    scope.add(id);
    for (const dependent of dependents.get(id) ?? []) add(dependent);
  };
  add(from);
  for (let grown = true; grown; ) {
    grown = false;
    const mine = checkpoints.filter((checkpoint) => scope.has(checkpoint.stepId));
    const firstSeq = Math.min(...mine.map((checkpoint) => checkpoint.seq));
    const touched = new Set(mine.map((checkpoint) => checkpoint.path));
    for (const checkpoint of checkpoints) {
      if (checkpoint.seq > firstSeq && touched.has(checkpoint.path) && !scope.has(checkpoint.stepId)) {
        add(checkpoint.stepId);
        grown = true;
      }
    }
  }
  return scope;
}
