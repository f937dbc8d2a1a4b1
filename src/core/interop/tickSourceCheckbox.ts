import type { StepEpilogue } from '../engine/runOptions';
import { changeFile } from '../tools/fileChange';
import type { Step } from '../plan/planSchema';
import type { ToolContext } from '../tools/tool';
import { checkboxTicks } from './checkboxTicks';
import type { SourceOrigin } from './sourceOrigin';
import { tickTaskLine } from './tickTaskLine';

/**
 * The `stepEpilogue` that ticks an imported step's checkbox in its task file once the step
 * completes, for the steps whose origin says the user chose it at import (`SourceOrigin.tick`);
 * every other step is left alone. The tick is an ordinary file change (`changeFile`): under
 * the file's lock, so ticks of parallel steps never overwrite each other; asked with its
 * diff as the approval policy says; checkpointed, so undoing the run unticks it. The task is
 * found again in the file as it is now (`tickTaskLine`); a task no longer there, a file
 * deleted or outside the workspace is refused with a message saying so, the file unchanged. A task with sub-tasks is
 * ticked once they are done, by the last of them to complete (`checkboxTicks`); sub-tasks that complete at the same time
 * each see the other still going, and leave their task unticked (Kiro's and checklists' sub-tasks run one after another).
 */
export const tickSourceCheckbox: StepEpilogue = (step, tools, signal, run) => {
  const ticks = checkboxTicks(step, run.plan?.steps ?? [step], (id) => run.steps[id]?.status === 'completed');
  if (ticks.length === 0) return undefined;
  return (async () => {
    for (const target of ticks) await tick(target.step, target.origin, tools, signal);
  })();
};

async function tick(step: Step, origin: SourceOrigin, tools: ToolContext, signal: AbortSignal): Promise<void> {
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
        if (current === undefined) throw new Error(`${origin.file} is gone, so the checkbox of "${step.title}" could not be ticked.`);
        const ticked = tickTaskLine(current, origin, step.title);
        if (!ticked.ok) throw new Error(ticked.problem);
        return ticked.text;
      },
    },
    signal,
  );
}
