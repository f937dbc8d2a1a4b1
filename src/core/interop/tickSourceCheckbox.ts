import type { StepEpilogue } from '../engine/runOptions';
import { changeFile } from '../tools/fileChange';
import type { ToolContext } from '../tools/tool';
import { checkboxTicks, type TickTarget } from './checkboxTicks';
import { readOrigin, type SourceOrigin } from './sourceOrigin';
import { tickTaskLine } from './tickTaskLine';

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
  return tick(origin, step.title, tools, signal, (current) => {
    const tickedIn = (id: string): boolean => {
      const other = steps.find((each) => each.id === id);
      const its = other?.input === undefined ? undefined : readOrigin(other.input).origin;
      const ticked = its === undefined ? undefined : tickTaskLine(current, its, other!.title);
      return ticked?.ok === true && ticked.text === current;
    };
    return checkboxTicks(step, steps, (id) => completed(id) || tickedIn(id));
  });
};

/** Ticks, in one change of the task file `origin` (of the step titled `title`) names, the checkboxes `ticksOf` finds in the file as it is now. */
async function tick(
  origin: SourceOrigin,
  title: string,
  tools: ToolContext,
  signal: AbortSignal,
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
          const ticked = tickTaskLine(text, target.origin, target.step.title);
          if (!ticked.ok) throw new Error(ticked.problem);
          text = ticked.text;
        }
        return text;
      },
    },
    signal,
  );
}
