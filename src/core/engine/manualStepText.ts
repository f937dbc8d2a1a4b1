import { readableValue } from '../text/readableValue';
import { changeResultLine, commandOutputText, describedResult } from '../text/stepResultText';
import { collapseBlankLines } from '../text/collapseBlankLines';
import { capText, textCaps } from '../text/capText';
import { oneLine } from '../text/oneLine';
import type { ManualStepRequest } from '../interactionPorts';

/** Longest text of one dependency's result in a manual step's request, in characters. */
export const manualResultPreviewLength = 600;

/** Longest step title or attachment name in a manual step's text, in characters (each on one line). */
const maxNameLength = 200;


/**
 * A dependency's result as text for a person (a file or folder change in words, `changeResultLine`; a command's as the
 * run's summary says it, "exit code 0, tests: 1 passed in 3.70s"; else `readableValue`:
 * a tool's result one `key: value` line per field, a file's content with its line breaks, never escaped JSON), cut to
 * `manualResultPreviewLength` characters (ending in `…` when cut).
 */
export function manualResultPreview(value: unknown): string {
  // A file change in words, "created hello.txt": a trial's "Done?" question showed "path: …, operation: created, …".
  // A command in words too: its fields ("signal: null / timedOut: false / durationMs: 8508") read as internals (a trial).
  const command = commandOutputText(value) === undefined ? undefined : describedResult(value, manualResultPreviewLength);
  const text = changeResultLine(value) ?? command ?? readableValue(value);
  return text.length <= manualResultPreviewLength ? text : `${text.slice(0, manualResultPreviewLength - 1)}…`;
}

/**
 * What a manual step asks of the person, as plain text: a first line naming the step,
 * the instructions, the attachments and the results of the steps before it. Every view
 * (editor, panel, terminal, journal) shows this text and adds its own ways to answer.
 * Bounded: the title and each attachment name on one line of at most 200 characters, the
 * instructions at most `textCaps.message` characters, runs of blank lines collapsed
 * (`collapseBlankLines`).
 */
export function describeManualStep(request: ManualStepRequest): string {
  const title = oneLine(request.title, maxNameLength);
  const instructions = capText(collapseBlankLines(request.instructions), textCaps.message);
  // A step without instructions of its own is asked with its title: said once.
  const lines = [`Step ${request.stepId} is yours to do: ${title}`, ...(instructions.trim() === request.title.trim() ? [] : [instructions])];
  if (request.attachments.length > 0) {
    lines.push('', `Attached: ${request.attachments.map((attachment) => oneLine(attachment.label ?? attachment.ref, maxNameLength)).join(', ')}`);
  }
  if (request.checks.length > 0) lines.push('', `Once you say it is done, these checks run: ${request.checks.join('; ')}`);
  const results = Object.entries(request.depends);
  if (results.length > 0) {
    lines.push('', 'Results of the steps before it:');
    for (const [id, result] of results) lines.push(`${id}: ${collapseBlankLines(result)}`);
  }
  return lines.join('\n');
}
