import { directionControlClass } from '../../shared/vocabulary';
import { visibleControls, visibleEscape } from '../../shared/visibleCharacters';
import type { ApprovalRequest } from '../interactionPorts';
import { capText } from '../text/capText';
import { oneLine } from '../text/oneLine';

/** Most characters of a tool call's arguments shown in its question; the rest is cut with a marker. */
export const maxShownToolInputChars = 4000;

// Characters JSON leaves as they are that a dialog would act on: DEL, the C1 controls, the line and paragraph separators and the direction controls.
const unsafeInJson = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${directionControlClass}]`, 'g');

/**
 * The question before a tool another program runs (or one that reaches the network) is
 * called: a `message` naming the step, the tool and who runs it on one line, and a
 * `detail` with the arguments as indented JSON, at most `maxShownToolInputChars`
 * characters, every control and text-direction control shown as its `\uXXXX` escape, so
 * nothing a model or a server wrote can forge a line of the question or reverse it.
 */
export function toolCallApprovalText(request: Extract<ApprovalRequest, { kind: 'tool' }>): { message: string; detail: string } {
  return {
    message: `Step "${visibleControls(oneLine(request.title, 200))}" wants to call ${toolCallTarget(request)}.`,
    detail: `Arguments:\n${shownToolInput(request.input)}`,
  };
}

/** "<tool> (<source>)" on one line, each part bounded, controls escaped. */
export function toolCallTarget(request: Extract<ApprovalRequest, { kind: 'tool' }>): string {
  return visibleControls(`${oneLine(request.tool, 100)} (${oneLine(request.source, 200)})`);
}

/**
 * Why a call with `input` cannot be asked about, or `undefined`: its arguments, as indented
 * JSON, are longer than `maxShownToolInputChars`, so the question would show them cut and
 * an approval would cover what the user never saw. Said to the model as what to do.
 */
export function toolInputTooLongToAsk(input: unknown): string | undefined {
  let length: number;
  try {
    length = (JSON.stringify(input ?? {}, undefined, 2) ?? '').length;
  } catch {
    return undefined;
  }
  if (length <= maxShownToolInputChars) return undefined;
  return (
    `The arguments of this call are ${length} characters long as its question would show them; at most ${maxShownToolInputChars} can be shown whole, ` +
    'so it cannot be asked about. Call it with shorter arguments (long text can go in a file whose path the tool is given, when it takes one).'
  );
}

/** A tool call's arguments as indented JSON, bounded and with every control escaped (see `toolCallApprovalText`). */
export function shownToolInput(input: unknown): string {
  let shown: string;
  try {
    shown = JSON.stringify(input ?? {}, undefined, 2) ?? 'nothing';
  } catch {
    shown = 'arguments that cannot be shown as JSON';
  }
  return capText(shown, maxShownToolInputChars).replace(unsafeInJson, visibleEscape);
}
