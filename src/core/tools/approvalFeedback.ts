import { visibleControls } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';

/** Most characters of a rejection's feedback that reach a step's agent, the journal and the screen. */
export const feedbackMaxChars = 2_000;

/**
 * The user's feedback on a rejected change (Reject with feedback…) made safe to pass on:
 * trimmed, cut to `feedbackMaxChars` (visibly), and with every character a terminal or a
 * text view would act on shown as its escape (`visibleControls`), since it reaches a model's
 * prompt, the journal and the terminal; the escapes count towards the cap. `undefined` when
 * nothing but white space was given (a plain rejection).
 */
export function boundedFeedback(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  return capText(visibleControls(capText(trimmed, feedbackMaxChars)), feedbackMaxChars);
}

/** How a step's agent is told what the user asked instead (in a tool result and in the next attempt's input). */
export function feedbackInstruction(feedback: string): string {
  return `The user rejected the change and said: ${JSON.stringify(feedback)}. Propose the change again, revised as they ask (a new call with the revised arguments).`;
}
