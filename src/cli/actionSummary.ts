import type { RunResult } from '../core/engine/runOptions';
import type { PendingRequest } from '../core/engine/runEvents';
import { visibleControls } from '../shared/visibleCharacters';
import { capText } from '../core/text/capText';
import { oneLine } from '../core/text/oneLine';
import { describeApprovalForTerminal } from './terminalInteraction';

/** Bounds of the job summary: characters of one line of text, of one request's detail, steps and files listed. */
export const actionSummaryLimits = { line: 200, detail: 4000, steps: 100, files: 100, pending: 20 } as const;

/** What `actionSummary` says about a run it could not start or read. */
export interface ActionFailure {
  /** The CLI's exit code. */
  code: number;
  /** What went wrong, as the CLI said it (its error stream's end). */
  message: string;
}

/**
 * The job summary (GitHub Markdown) of the action's run: status, each step, the changed
 * files and, for a waiting run, what each pending request wanted and which input would
 * allow it. Every text from the plan, a model, a file or a tool is bounded and made inert:
 * escaped on one line (no link, image, HTML or heading can be formed from it), or in a
 * fenced block whose fence is longer than any backtick run inside.
 */
export function actionSummary(result: RunResult | ActionFailure, changedFiles: readonly string[]): string {
  if (!('runId' in result)) {
    return `## Task Planner: the plan did not run\n\nExit code ${result.code}.\n\n${fenced(capText(result.message, actionSummaryLimits.detail))}\n`;
  }
  const lines = [`## Task Planner: run ${safeText(result.runId)} ${statusWords[result.status]}`, ''];
  if (result.metadata.reason !== undefined) lines.push(`Reason: ${safeText(result.metadata.reason)}`, '');
  const steps = Object.values(result.steps);
  if (steps.length > 0) {
    lines.push('| Step | Status | Attempts |', '| --- | --- | --- |');
    for (const step of steps.slice(0, actionSummaryLimits.steps)) lines.push(`| ${safeText(step.id)} | ${step.status} | ${step.attempts} |`);
    if (steps.length > actionSummaryLimits.steps) lines.push(`| … ${steps.length - actionSummaryLimits.steps} more | | |`);
    lines.push('');
  }
  if (changedFiles.length > 0) {
    lines.push('### Changed files', '');
    for (const file of changedFiles.slice(0, actionSummaryLimits.files)) lines.push(`- ${safeText(file)}`);
    if (changedFiles.length > actionSummaryLimits.files) lines.push(`- … and ${changedFiles.length - actionSummaryLimits.files} more`);
    lines.push('');
  }
  const pending = result.pending ?? [];
  if (result.status === 'waiting' && pending.length > 0) {
    lines.push('### Waiting: what the run wanted', '', 'Nothing that asks was done without your permission. The run stopped at:', '');
    for (const request of pending.slice(0, actionSummaryLimits.pending)) {
      lines.push(`- **${safeText(request.stepId)}** (${request.kind}): ${safeText(request.prompt)}`);
      const detail = requestDetail(request);
      if (detail !== undefined) lines.push('', fenced(capText(detail, actionSummaryLimits.detail)).replace(/^/gm, '  '), '');
      lines.push(`  To allow it: ${allowHint[request.kind]}`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

const statusWords: Readonly<Record<RunResult['status'], string>> = {
  completed: 'completed',
  failed: 'failed',
  waiting: 'is waiting',
  partial: 'finished partly done',
  cancelled: 'was cancelled',
  interrupted: 'was interrupted',
};

/** Which input of the workflow would let the run go past a request of each kind. */
const allowHint: Readonly<Record<PendingRequest['kind'], string>> = {
  approval:
    'add the command to the `allow-commands` input (one rule a line), set `allow-file-changes: true` for file changes, ' +
    'or, only for a plan you trust completely, `dangerously-approve-everything: true`.',
  clarification: 'the step asks a question no workflow can answer; answer it in the plan (its input) and run again.',
  review: 'the step asks a person to review its result; remove the review from the plan to run it unattended.',
  manual: 'the step is a person\'s to do; do it before the workflow runs, or give the plan a model so an agent does it.',
  budget: 'raise the model budget of the run.',
};

/** What a pending approval would run or change, as the terminal shows it; `undefined` for other kinds. */
function requestDetail(request: PendingRequest): string | undefined {
  const inner = request.request;
  if (request.kind !== 'approval' || inner === undefined || !('kind' in inner)) return undefined;
  return describeApprovalForTerminal(inner);
}

/** `text` on one bounded line with every character Markdown or HTML acts on escaped. */
export function safeText(text: string): string {
  return visibleControls(oneLine(text, actionSummaryLimits.line)).replace(/[\\`*_{}[\]()<>#+\-.!|~&:@]/g, (character) => `\\${character}`);
}

/** `text` in a fenced code block no backtick run inside it can close, controls shown as escapes. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${visibleControls(text)}\n${fence}`;
}
