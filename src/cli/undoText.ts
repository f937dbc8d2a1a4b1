import type { Checkpoint } from '../core/runStorePorts';
import { describeUndo, undoLines } from '../core/tools/describeUndo';
import type { UndoReport } from '../core/tools/undoRun';

/** A change an Undo found still to take back: the step that made it, the file it changed, and whether this Undo took it back. */
export interface FoundChange {
  stepId: string;
  path: string;
  tookBack: boolean;
}

/** Most steps named in one part of a sentence; more are counted ("and 3 more"). */
const maxNamedSteps = 5;

/**
 * The changes of `before` (the run's checkpoints in the Undo's scope, listed before it, in run order) that were still to
 * take back, each with whether `after` (the same, listed after it) says this Undo took it back.
 */
export function foundChanges(before: readonly Checkpoint[], after: readonly Checkpoint[]): FoundChange[] {
  const key = (checkpoint: Checkpoint): string => JSON.stringify([checkpoint.runId, checkpoint.seq]);
  const undone = new Set(after.filter((checkpoint) => checkpoint.state === 'undone').map(key));
  return before
    .filter((checkpoint) => checkpoint.state !== 'undone' && checkpoint.state !== 'abandoned')
    .map((checkpoint) => ({ stepId: checkpoint.stepId, path: checkpoint.path, tookBack: undone.has(key(checkpoint)) }));
}

/**
 * What an Undo tells its user on the command line, line by line, as `undoLines` says it, except for a file Undo took back
 * some of the run's changes to and kept others (a task file whose ticks it took back but one, as that line changed since):
 * such a file is said once, in a sentence of its own naming the steps whose changes were taken back and those kept, and
 * why, never as both "restored" and "left alone". `changes`: `foundChanges` of the Undo.
 */
export function undoOutputLines(report: UndoReport, changes: readonly FoundChange[], commandsNotUndone: string | undefined): string[] {
  const restored = new Set(report.restored);
  const partly = [...new Set(report.refused.map((entry) => entry.path))].filter((path) => restored.has(path));
  if (partly.length === 0) return undoLines(report, commandsNotUndone);
  const whole = (path: string): boolean => !partly.includes(path);
  const rest: UndoReport = {
    ...report,
    restored: report.restored.filter(whole),
    removed: report.removed.filter((entry) => whole(entry.path)),
    refused: report.refused.filter((entry) => whole(entry.path)),
  };
  const leftAlone = rest.refused.map(({ path, reason }) => (reason.startsWith(`${path} `) ? reason : `${path}: ${reason}`));
  return [
    ...(rest.restored.length > 0 ? [describeUndo({ ...rest, refused: [] })] : []),
    ...partly.map((path) => partlyUndone(path, report.refused.find((entry) => entry.path === path)?.reason ?? '', changes)),
    ...(leftAlone.length > 0 ? [`Left alone: ${leftAlone.join('; ')}.`] : []),
    ...(commandsNotUndone === undefined ? [] : [commandsNotUndone]),
  ];
}

/** "Undo took back part of the run's changes to tasks.md: those of steps T002 and T003. It kept the change of step T001: <why>." */
function partlyUndone(path: string, reason: string, changes: readonly FoundChange[]): string {
  const ofPath = changes.filter((change) => change.path === path);
  const tookBack = ofPath.filter((change) => change.tookBack);
  const kept = ofPath.filter((change) => !change.tookBack);
  const which = tookBack.length > 0 ? `: ${tookBack.length === 1 ? 'that' : 'those'} of ${steps(tookBack)}` : '';
  // A change the journal holds and no checkpoint records is kept too, and only its reason names its step.
  const keptText = kept.length > 0 ? `It kept the change${kept.length === 1 ? '' : 's'} of ${steps(kept)}` : 'It did not take back the rest';
  return `Undo took back part of the run's changes to ${path}${which}. ${keptText}: ${reason.replace(/\.$/, '')}.`;
}

/** "step T001", "steps T001 and T002", "steps T1, T2, T3, T4, T5 and 2 more": each step once, in run order. */
function steps(changes: readonly FoundChange[]): string {
  const ids = [...new Set(changes.map((change) => change.stepId))];
  if (ids.length === 1) return `step ${ids[0] ?? ''}`;
  if (ids.length > maxNamedSteps) return `steps ${ids.slice(0, maxNamedSteps).join(', ')} and ${ids.length - maxNamedSteps} more`;
  return `steps ${ids.slice(0, -1).join(', ')} and ${ids.at(-1) ?? ''}`;
}
