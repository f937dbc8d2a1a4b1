import type { RunState } from './runEvents';
import { oneLine } from '../text/oneLine';

/**
 * The steps of the run whose attempt started a command (`command_started`; one interrupted counts too): those repairs
 * replaced first, then the plan's, in run order.
 */
export function stepsThatRanCommands(state: RunState): string[] {
  const ran = (step: RunState['steps'][string]): boolean => (step.commandsStarted?.length ?? 0) > 0 || (step.commandsInterrupted?.length ?? 0) > 0;
  // A step a repair replaced ran its commands all the same (a trial's Undo named the repair's test run, not the first one).
  const replaced = (state.replacedSteps ?? []).filter((entry) => ran(entry.state)).map((entry) => entry.step.id);
  const current = Object.entries(state.steps).filter(([, step]) => ran(step)).map(([id]) => id);
  return [...new Set([...replaced, ...current])];
}

/** Most steps named, and characters of the sentence. */
const limits = { steps: 5, chars: 300 } as const;

/**
 * The sentence that tells an Undo's user what it did not take back: the steps (of `steps`, when given: Undo from here)
 * whose attempt started a command (`command_started`; one interrupted counts too), whose effects no checkpoint holds.
 * At most `limits.steps` named, then "and N more"; `undefined` when no such step ran a command.
 */
export function commandsNotUndone(state: RunState, steps?: ReadonlySet<string>): string | undefined {
  const ran = stepsThatRanCommands(state).filter((id) => steps === undefined || steps.has(id));
  if (ran.length === 0) return undefined;
  const named = ran.slice(0, limits.steps).join(', ');
  const more = ran.length > limits.steps ? ` and ${ran.length - limits.steps} more` : '';
  const which = ran.length === 1 ? `step ${named} ran a command` : `steps ${named}${more} ran commands`;
  const it = ran.length === 1 ? 'it' : 'they';
  return oneLine(`Commands are not undone: ${which}; check what ${it} changed (git status shows it in a repository).`, limits.chars);
}

/** The changes the run's journal holds, by step and file: of every step, or of `steps` (Undo from here). */
export function journaledChanges(state: RunState, steps?: ReadonlySet<string>): { stepId: string; path: string }[] {
  return Object.entries(state.steps)
    .filter(([id]) => steps === undefined || steps.has(id))
    .flatMap(([stepId, step]) => (step.filesChanged ?? []).map((path) => ({ stepId, path })));
}
