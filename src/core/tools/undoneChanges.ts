import type { Checkpoint } from '../runStorePorts';
import type { UndoneExtent } from '../../shared/runStatusLabels';

/**
 * What Undo has taken back of a run, as its checkpoints say: the steps and the paths whose every change that
 * landed is `undone`. A step or path with one change still in place (refused by Undo, or never undone) is in
 * neither set; changes that never landed (`abandoned`) do not count either way.
 */
export interface UndoneChanges {
  steps: ReadonlySet<string>;
  paths: ReadonlySet<string>;
  /** Whether some change that landed (or may have) is not undone yet: Undo has something left to take back or refuse. */
  anyLeft: boolean;
}

/** The steps and paths of a run whose landed changes Undo has all taken back (see `UndoneChanges`). */
export function undoneChanges(checkpoints: readonly Checkpoint[]): UndoneChanges {
  const steps = new Map<string, boolean>();
  const paths = new Map<string, boolean>();
  let anyLeft = false;
  for (const checkpoint of checkpoints) {
    if (checkpoint.state === 'abandoned') continue;
    const undone = checkpoint.state === 'undone';
    anyLeft ||= !undone;
    steps.set(checkpoint.stepId, (steps.get(checkpoint.stepId) ?? true) && undone);
    paths.set(checkpoint.path, (paths.get(checkpoint.path) ?? true) && undone);
  }
  const allUndone = (entries: Map<string, boolean>): Set<string> => new Set([...entries].filter(([, undone]) => undone).map(([key]) => key));
  return { steps: allUndone(steps), paths: allUndone(paths), anyLeft };
}

/**
 * The paths of `changes` (checkpoints of the runs `chain`: a run and its repairs, newest first, as `runChain` gives them)
 * whose first change found no file, in the order first changed: the run created them, so what Undo puts back there is
 * no file at all. Linear in `changes` times the runs of the chain.
 */
export function createdPaths(changes: readonly Checkpoint[], chain: readonly string[]): string[] {
  const first = new Map<string, Checkpoint>();
  for (const runId of [...chain].reverse()) {
    for (const change of changes) if (change.runId === runId && !first.has(change.path)) first.set(change.path, change);
  }
  return [...first.values()].filter((change) => !change.before.exists).map((change) => change.path);
}

/** How much of a run Undo took back, as the views say it: nothing (`undefined`), all of it, or some with changes left. */
export function undoneExtent(undone: Pick<UndoneChanges, 'steps' | 'anyLeft'> | undefined): UndoneExtent | undefined {
  if (undone === undefined || undone.steps.size === 0) return undefined;
  return undone.anyLeft ? 'some' : 'all';
}

/**
 * The steps of `plan` (in its order) whose every change Undo took back: a run waiting with such a step must not go on,
 * as its next steps would start from files that are no longer there; run it again from the first of them instead.
 */
export function undoneSteps(plan: { steps: readonly { id: string }[] }, undone: UndoneChanges): string[] {
  return plan.steps.map((step) => step.id).filter((id) => undone.steps.has(id));
}
