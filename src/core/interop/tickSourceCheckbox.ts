import type { StepEpilogue } from '../engine/runOptions';
import { changeFile } from '../tools/fileChange';
import type { ToolContext } from '../tools/tool';
import { checkboxTicks, originsOf, type TickTarget } from './checkboxTicks';
import { readOrigin, type SourceOrigin } from './sourceOrigin';
import { taskIdentity, tickTaskLine, type TickedText } from './tickTaskLine';
import type { Step } from '../plan/planSchema';

/**
 * The `stepEpilogue` that ticks an imported step's checkbox in its task file once the step
 * completes, for the steps whose origin says the user chose it at import (`SourceOrigin.tick`);
 * every other step is left alone. The tick is an ordinary file change (`changeFile`): under
 * the file's lock, so ticks of parallel steps never overwrite each other; asked with its
 * diff as the approval policy says; checkpointed, so undoing the run unticks it. The task is
 * found again in the file as it is now (`tickTaskLine`); a task no longer there, a file
 * deleted or outside the workspace is refused with a message saying so, the file unchanged. A task with sub-tasks is
 * ticked once they are done, by the last of them to complete (`checkboxTicks`), in the same change as its own tick. Which
 * sub-tasks are done is decided under the file's lock, a sub-task ticked in the file counting as done: two sub-tasks that
 * completed at the same moment each saw the other still running, and their task stayed unticked.
 */
export const tickSourceCheckbox: StepEpilogue = (step, tools, signal, run) => {
  const steps = run.plan?.steps ?? [step];
  const origin = step.input === undefined ? undefined : readOrigin(step.input).origin;
  if (origin === undefined || !origin.tick) return undefined;
  const completed = (id: string): boolean => run.steps[id]?.status === 'completed';
  const { origins, lineOf } = tasksOf(steps);
  return tick(origin, step.title, tools, signal, lineOf, (current) => {
    const tickedIn = (id: string): boolean => {
      const other = steps.find((each) => each.id === id);
      const its = other?.input === undefined ? undefined : readOrigin(other.input).origin;
      const ticked = its === undefined ? undefined : lineOf(current, other!, its);
      return ticked?.ok === true && ticked.text === current;
    };
    return checkboxTicks(step, steps, (id) => completed(id) || tickedIn(id), origins);
  });
};

/** `tickTaskLine` for a step of `steps` from its `origin`, told apart from the other steps of the plan that come from tasks of the same text. */
type LineTicker = (text: string, step: Step, origin: SourceOrigin) => TickedText;

/**
 * The origins of a plan's steps and its `LineTicker`, read once for each plan a run holds: read again as each step completed,
 * they made the ticks of a run of 1,000 tasks take 11 s, growing with their square.
 */
const planTasks = new WeakMap<readonly Step[], { origins: (SourceOrigin | undefined)[]; lineOf: LineTicker }>();

function tasksOf(steps: readonly Step[]): { origins: (SourceOrigin | undefined)[]; lineOf: LineTicker } {
  let tasks = planTasks.get(steps);
  if (tasks === undefined) {
    const origins = originsOf(steps);
    tasks = { origins, lineOf: tasksInFile(steps, origins) };
    planTasks.set(steps, tasks);
  }
  return tasks;
}

function tasksInFile(steps: readonly Step[], origins: readonly (SourceOrigin | undefined)[]): LineTicker {
  const byIdentity = new Map<string, { id: string; line: number }[]>();
  for (const [index, each] of steps.entries()) {
    const origin = origins[index];
    const identity = origin === undefined ? undefined : taskIdentity(origin, each.title);
    if (origin === undefined || identity === undefined) continue;
    const same = byIdentity.get(identity) ?? [];
    same.push({ id: each.id, line: origin.line });
    byIdentity.set(identity, same);
  }
  for (const same of byIdentity.values()) same.sort((one, other) => one.line - other.line);
  return (text, step, origin) => {
    const identity = taskIdentity(origin, step.title);
    const same = identity === undefined ? undefined : byIdentity.get(identity);
    const index = same === undefined ? -1 : same.findIndex((each) => each.id === step.id);
    return tickTaskLine(text, origin, step.title, index < 0 ? undefined : { index, of: same!.length });
  };
}

/** Ticks, in one change of the task file `origin` (of the step titled `title`) names, the checkboxes `ticksOf` finds in the file as it is now. */
async function tick(
  origin: SourceOrigin,
  title: string,
  tools: ToolContext,
  signal: AbortSignal,
  lineOf: LineTicker,
  ticksOf: (current: string) => TickTarget[],
): Promise<void> {
  // The tick is the run's own change of the task file, not the step's: it is within the step's files, so it asks as the
  // approval policy says (outside them it asked under every policy, "outside the files the step said it would change", and
  // without a terminal, under --allow-file-changes, it was deferred and lost).
  const scoped: ToolContext = tools.writeScope === undefined ? tools : { ...tools, writeScope: [...tools.writeScope, origin.file] };
  await changeFile(
    scoped,
    {
      path: origin.file,
      operation: 'edit',
      propose(current) {
        if (current === undefined) throw new Error(`${origin.file} is gone, so the checkbox of "${title}" could not be ticked.`);
        let text = current;
        for (const target of ticksOf(current)) {
          const ticked = lineOf(text, target.step, target.origin);
          if (!ticked.ok) throw new Error(ticked.problem);
          text = ticked.text;
        }
        return text;
      },
    },
    signal,
  );
}
