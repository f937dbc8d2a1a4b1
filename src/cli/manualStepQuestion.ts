import { describeManualStep } from '../core/engine/manualStepText';
import type { ManualStepOutcome, ManualStepRequest } from '../core/interactionPorts';

/** Asks one line on the terminal and resolves to what was typed, trimmed. */
export type AskLine = (question: string, signal: AbortSignal) => Promise<string>;

/**
 * Asks on the terminal whether the person did a manual step: shows its instructions,
 * then "Done? [y]es / [n]o (failed) / [l]ater". Yes asks for an optional note, no for the
 * reason (asked again while empty); later, or an empty answer, defers the step so the run
 * ends `waiting` and `resume --done/--failed` answers it.
 */
export async function askManualStep(ask: AskLine, request: ManualStepRequest, signal: AbortSignal): Promise<ManualStepOutcome | 'defer'> {
  let question = `${describeManualStep(request)}\nDone? [y]es / [n]o (failed) / [l]ater: `;
  for (;;) {
    const answer = (await ask(question, signal)).toLowerCase();
    if (answer === 'y' || answer === 'yes') {
      const note = await ask('Note (optional, it becomes the step result): ', signal);
      return note ? { done: true, note } : { done: true };
    }
    if (answer === 'n' || answer === 'no') {
      for (;;) {
        const reason = await ask('Why could it not be done? ', signal);
        if (reason) return { done: false, reason };
      }
    }
    if (answer === '' || answer === 'l' || answer === 'later') return 'defer';
    question = `Type y (done), n (failed) or l (later): `;
  }
}
