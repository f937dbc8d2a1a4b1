import type { RunResult } from '../core/engine/runOptions';
import type { PendingRequest } from '../core/engine/runEvents';
import { visibleControls } from '../shared/visibleCharacters';
import { capText } from '../core/text/capText';
import { oneLine } from '../core/text/oneLine';
import { markdownText } from '../core/view/planMarkdown';
import { describeApprovalForTerminal } from './terminalInteraction';
import { stepStateView, stoppedRun } from '../core/view/stepStatusView';
import { allowRuleProblem } from '../core/tools/commandAllowRules';
import { shownCommandWord } from '../core/tools/commandApprovalText';

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
 * The job summary (GitHub Markdown) of the action's run: status, each step (by its id and its title in `titles`), the changed
 * files and, for a waiting run, what each pending request wanted and which input would
 * allow it. Every text from the plan, a model, a file or a tool is bounded and made inert:
 * escaped on one line (no link, image, HTML or heading can be formed from it), or in a
 * fenced block whose fence is longer than any backtick run inside.
 */
export function actionSummary(result: RunResult | ActionFailure, changedFiles: readonly string[], titles: ReadonlyMap<string, string> = new Map()): string {
  if (!('runId' in result)) {
    return `## Task Planner: the plan did not run\n\nExit code ${result.code}.\n\n${fenced(capText(result.message, actionSummaryLimits.detail))}\n`;
  }
  const lines = [`## Task Planner: run ${safeText(result.runId)} ${statusWords[result.status]}`, ''];
  if (result.metadata.reason !== undefined) lines.push(`Reason: ${safeText(result.metadata.reason)}`, '');
  const steps = Object.values(result.steps);
  if (steps.length > 0) {
    // In the CLI's words ("failed (did not stop the run)", "yours to do"), with why a step failed (a newcomer saw a bare "skipped").
    lines.push('| Step | Status | Attempts | Why |', '| --- | --- | --- | --- |');
    for (const step of steps.slice(0, actionSummaryLimits.steps)) {
      const view = stepStateView(step, stoppedRun(result.status));
      const why = view.label.startsWith('failed') && step.error !== undefined ? cellText(step.error) : '';
      // Named by its title too: a checklist's steps are S1…S6, which say nothing on their own (a newcomer's trial).
      const title = titles.get(step.id);
      const named = title === undefined || title === step.id ? cellText(step.id) : `${cellText(step.id)}: ${cellText(title)}`;
      lines.push(`| ${named} | ${view.label} | ${step.attempts} | ${why} |`);
    }
    if (steps.length > actionSummaryLimits.steps) lines.push(`| … ${steps.length - actionSummaryLimits.steps} more | | | |`);
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
      lines.push(`- **${safeText(request.stepId)}** (${requestWords[request.kind]}): ${safeText(request.prompt)}`);
      const detail = requestDetail(request);
      if (detail !== undefined) lines.push('', fenced(capText(detail, actionSummaryLimits.detail)).replace(/^/gm, '  '), '');
      lines.push(`  To allow it: ${allowHintOf(request)}`);
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

/** What a waiting step waits for, in the user's words. */
export const requestWords: Readonly<Record<PendingRequest['kind'], string>> = {
  approval: 'an approval',
  clarification: 'an answer',
  review: 'a review',
  manual: 'yours to do',
  budget: 'more budget',
};

/** Which input of the workflow would let the run go past a request of each kind. */
const allowHint: Readonly<Record<PendingRequest['kind'], string>> = {
  approval:
    'add the command to the `allow-commands` input (one rule a line), set `allow-file-changes: true` for file changes, ' +
    'or, only for a plan you trust completely, `dangerously-approve-everything: true`.',
  clarification: 'the step asks a question no workflow can answer; answer it in the plan (its input) and run again.',
  review: 'the step asks a person to review its result; remove the review from the plan to run it unattended.',
  manual:
    'the step is a person\'s to do; do it before the workflow runs (in a task list, tick its box: a ticked task is skipped as done), ' +
    'or give the plan a model so an agent does it.',
  budget: 'raise the model budget of the run.',
};

/**
 * Which input would let the run past `request`, for its own command or file where one input would do (a newcomer was told
 * to set `allow-file-changes: true`, already set, for a change outside the step's files, which no input but the plan's
 * `writes` answers); else what any request of its kind needs.
 */
function allowHintOf(request: PendingRequest): string {
  const inner = request.request;
  if (request.kind !== 'approval' || inner === undefined || !('kind' in inner)) return allowHint[request.kind];
  if (inner.kind === 'file' && inner.outsideScope === true) {
    return (
      `add ${safeText(inner.proposal.path)} to the \`writes\` of step ${safeText(inner.stepId)} in the plan: a change outside the files a step said it ` +
      'would change asks even with `allow-file-changes: true`.'
    );
  }
  if (inner.kind === 'file' && inner.interrupted !== true) return 'set `allow-file-changes: true`.';
  if (inner.kind !== 'command' || inner.shell || inner.mayHaveRun === true || inner.program !== undefined || inner.helper !== undefined) {
    return allowHint.approval;
  }
  if (inner.changedInRun !== undefined) {
    return 'the run changed a file that defines what this command does, so no rule allows it; only `dangerously-approve-everything: true` does.';
  }
  // A command whose own word is "..." would be suggested a rule that allows any further arguments (attack).
  if (inner.argv.includes('...')) return 'no rule can allow exactly this command (it has the word "..."); only `dangerously-approve-everything: true` does.';
  const problem = allowRuleProblem(inner.argv);
  if (problem !== undefined) return `no rule can allow it (${safeText(problem)}); only \`dangerously-approve-everything: true\` does.`;
  const plain = inner.argv.every((word) => shownCommandWord(word) === word);
  return `add this line to the \`allow-commands\` input: ${safeText(plain ? inner.argv.join(' ') : JSON.stringify(inner.argv))}`;
}

/** What a pending approval would run or change, as the terminal shows it; `undefined` for other kinds. */
function requestDetail(request: PendingRequest): string | undefined {
  const inner = request.request;
  if (request.kind !== 'approval' || inner === undefined || !('kind' in inner)) return undefined;
  return describeApprovalForTerminal(inner);
}

/**
 * `text` on one bounded line as inert GitHub Markdown (`markdownText`, as the plan's Markdown export writes it): every
 * character a terminal or a text view acts on or hides shown as its escape, every word GitHub links or pings after parsing
 * (a mention, an e-mail address, a URL, an issue reference) in a code span, every other character Markdown acts on (math's
 * `$` included) backslash-escaped.
 */
export function safeText(text: string): string {
  return markdownText(oneLine(text, actionSummaryLimits.line), Number.POSITIVE_INFINITY);
}

/**
 * `safeText` for a table cell: GitHub splits a row at each `|` no backslash precedes before it reads code spans, so a `|`
 * inside a code span is escaped too (the span still shows it as `|`).
 */
function cellText(text: string): string {
  return safeText(text).replace(/(?<!\\)\|/g, '\\|');
}

/** `text` in a fenced code block no backtick run inside it can close, controls shown as escapes. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${visibleControls(text)}\n${fence}`;
}
