import type { Step } from '../plan/planSchema';
import { readOrigin, type SourceOrigin } from './sourceOrigin';

/** A step and where it came from in its task file. */
export interface TickTarget {
  step: Step;
  origin: SourceOrigin;
}

/**
 * The checkboxes the completion of `step` ticks, `step`'s first: its own once none of its sub-tasks is left to do (the
 * steps after it from the same file, deeper than it, until one that is not: Kiro's `2.1` under `2.`, a nested checklist
 * item), then each task above it that completed and has none left either, innermost first. A task is done with its
 * sub-tasks, as Kiro marks a parent done: a trial's parent was ticked first and stayed ticked above sub-tasks that then
 * failed. A sub-task done in the file or optional is none left to do. Only steps whose origin says to tick them
 * (`SourceOrigin.tick`) are ticked; `completed` says which steps completed before this one; `origins` are those of `steps`
 * (`originsOf`), when the caller has read them already. Pure; linear in the steps.
 */
export function checkboxTicks(
  step: Step,
  steps: readonly Step[],
  completed: (id: string) => boolean,
  origins: readonly (SourceOrigin | undefined)[] = originsOf(steps),
): TickTarget[] {
  const at = steps.findIndex((each) => each.id === step.id);
  const own = at < 0 ? undefined : origins[at];
  if (own === undefined || !own.tick) return [];
  const done = (index: number): boolean => index === at || completed(steps[index]!.id);
  const leftToDo = (index: number): boolean => {
    const depth = origins[index]!.depth;
    for (let next = index + 1; next < steps.length; next++) {
      const origin = origins[next];
      if (origin === undefined || origin.file !== own.file || origin.depth <= depth) return false;
      const sub = steps[next]!;
      if (sub.skipped !== true && sub.critical && !done(next)) return true;
    }
    return false;
  };
  if (leftToDo(at)) return [];
  const ticks: TickTarget[] = [{ step, origin: own }];
  let depth = own.depth;
  for (let above = at - 1; above >= 0 && depth > 0; above--) {
    const origin = origins[above];
    if (origin === undefined || origin.file !== own.file) break;
    if (origin.depth >= depth) continue;
    depth = origin.depth;
    // A task above that has not completed (not yet, or not at all) is not ticked, nor is any above it.
    if (!origin.tick || !done(above) || leftToDo(above)) break;
    ticks.push({ step: steps[above]!, origin });
  }
  return ticks;
}

/** The origin of each of `steps` (`readOrigin`), in their order; `undefined` for a step that came from no task file. */
export function originsOf(steps: readonly Step[]): (SourceOrigin | undefined)[] {
  return steps.map((each) => (each.input === undefined ? undefined : readOrigin(each.input).origin));
}
