import type { RunEvent } from '../engine/runEvents';
import type { Critique } from '../plan/critiquePlan';
import type { Plan, Step } from '../plan/planSchema';
import type { RequestKind } from '../../shared/vocabulary';
import { skippedStepText } from '../../shared/stepStatusLabels';
import { capText } from '../text/capText';
import { visibleLine } from './planMarkdown';
import type { RunSummary } from './runSummary';
import { stepRunnerLabel } from './stepRunnerLabel';

/** Most characters the chat shows of one text from a plan, a model, a file or a tool, before escaping (then cut, marked). */
export const chatLimits = { title: 200, objective: 500, line: 300, answer: 4_000, steps: 100 } as const;

// The ASCII characters a chat's Markdown gives a meaning: escapes, code, emphasis, links and
// images, raw HTML and entities, headings, tables, strikethrough and math, and the ones it
// needs to make links of bare addresses (`www.…`, `https://…`, `name@host`), list markers
// (`1.`, `-`, `+`) and setext headings (`===`), and `^` (superscript). CommonMark lets any
// ASCII punctuation be backslash-escaped, which shows the character itself and breaks each
// of those forms (unlike a GitHub page, the chat links nothing once Markdown is parsed).
const chatSignificant = /[\\`*_[\]()<>#|~&$!+\-./:=@^]/g;

/**
 * `text` as inert inline Markdown for the chat: at most `maxChars` characters (cut
 * visibly), on one line, controls and direction controls shown as `\uXXXX`, and every
 * ASCII punctuation character backslash-escaped, so text from a plan, a model, a file or a
 * tool cannot add a link (bare addresses included), an image, HTML, a command URI, a
 * heading or a list item to the chat.
 */
export function chatText(text: string, maxChars: number): string {
  return visibleLine(text, maxChars).replace(chatSignificant, (char) => `\\${char}`);
}

/** A step as far as the chat shows it while the model writes it, or as planned. */
export interface ChatStepLike {
  id: string;
  title: string;
}

/** One ordered-list item for step `index` (0-based): its title and id, and who does it when known. Ends with a newline. */
export function chatStepLine(step: ChatStepLike & Partial<Pick<Step, 'kind' | 'tool' | 'agent'>>, index: number): string {
  const runner = step.kind === undefined ? '' : ` — _${chatText(stepRunnerLabel(step as Step), chatLimits.title)}_`;
  return `${index + 1}. ${chatText(step.title, chatLimits.title)} (${chatText(step.id, chatLimits.title)})${runner}\n`;
}

/**
 * The plan as the chat shows it once planned: the objective and the step count, each step
 * (the first `chatLimits.steps`, then how many more) unless `withSteps` is false (they were
 * streamed already), and the critic's score and summary.
 */
export function chatPlanMarkdown(plan: Plan, critique?: Critique, withSteps = true): string {
  const count = `${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}`;
  const lines = [`**${chatText(plan.objective, chatLimits.objective)}** (${count})\n\n`];
  if (withSteps) plan.steps.slice(0, chatLimits.steps).forEach((step, index) => lines.push(chatStepLine(step, index)));
  if (withSteps && plan.steps.length > chatLimits.steps) lines.push(`\n…and ${plan.steps.length - chatLimits.steps} more steps.\n`);
  if (critique) lines.push(`${withSteps ? '\n' : ''}Critic: ${chatText(critique.summary, chatLimits.line)}\n`);
  return lines.join('');
}

/** What a waiting step waits for, and where in the editor the user gives it. */
const waitsFor: Readonly<Record<RequestKind, string>> = {
  approval: "your approval: Approve or Reject it in the editor's diff or dialog (the Plan view's step reopens it)",
  clarification: "your answer: answer the question the editor asks (the Plan view's step reopens it)",
  review: "your review: answer it in the editor (the notification, or the Plan view's step)",
  budget: "your decision on the model budget: answer it in the editor's notification",
  manual: 'you: do it yourself, then mark it Done or Failed (the Plan view, the plan panel or the status bar)',
};

/**
 * What the chat says of one run event, as a Markdown list item (ending with a newline), or
 * `undefined` for events it leaves to the progress line and the summary: a step completed,
 * failed (with its error), skipped (with the reason), waiting for the user (what for:
 * the question itself stays an editor prompt, answered there), or a repair plan started.
 * `titleOf` gives a step's title from its id (the id itself when unknown).
 */
export function chatEventMarkdown(event: RunEvent, titleOf: (stepId: string) => string): string | undefined {
  const title = (stepId: string): string => chatText(titleOf(stepId), chatLimits.title);
  switch (event.type) {
    case 'step_completed':
      return `- ✓ ${title(event.stepId)}\n`;
    case 'step_failed':
      return `- ✗ ${title(event.stepId)} (attempt ${event.attempt}): ${chatText(event.error, chatLimits.line)}\n`;
    case 'step_skipped': {
      return `- ↷ ${title(event.stepId)} ${skippedStepText(event.cause, event.reason, (detail) => chatText(detail, chatLimits.line))}\n`;
    }
    case 'approval_requested':
    case 'clarification_requested':
    case 'review_requested':
    case 'manual_requested':
    case 'budget_exhausted':
      return `- ‖ ${title(event.stepId)} waits for ${waitsFor[event.request.kind]}.\n`;
    case 'replan_started':
      return `- ↻ ${title(event.stepId)} failed; a repair plan is being made: ${chatText(event.reason, chatLimits.line)}\n`;
    case 'replan_failed':
      return `- ✗ ${title(event.stepId)}: ${chatText(event.reason, chatLimits.line)}\n`;
    default:
      return undefined;
  }
}

/**
 * The run's summary for the chat: its headline, each step (the first `summaryLimits.steps`)
 * with its status and what it produced or why it failed, the failures' errors and the files
 * kept from the model. Changed files are left to the host (it links them). Every text from the run is escaped.
 */
export function chatSummaryMarkdown(summary: RunSummary): string {
  const lines = [`**${chatText(summary.objective, chatLimits.objective)}**: ${chatText(summary.headline, chatLimits.line)}\n\n`];
  if (summary.reason !== undefined) lines.push(`${chatText(summary.reason, chatLimits.line)}\n\n`);
  for (const step of summary.steps) {
    const mark = step.status === 'completed' ? '✓' : step.status === 'failed' ? '✗' : '·';
    lines.push(`- ${mark} ${chatText(step.title, chatLimits.title)} — ${chatText(step.line, chatLimits.line)}\n`);
    if (step.checks !== undefined) lines.push(`  - checks: ${chatText(step.checks, chatLimits.line)}\n`);
  }
  if (summary.moreSteps > 0) lines.push(`- …and ${summary.moreSteps} more steps\n`);
  for (const failure of summary.failures) {
    lines.push(`\n**${chatText(failure.title, chatLimits.title)}** failed: ${chatText(failure.diagnosis ?? failure.error, chatLimits.line)}\n`);
  }
  if (summary.keptFromModel !== undefined) lines.push(`\n${chatText(summary.keptFromModel, chatLimits.line)}\n`);
  return lines.join('');
}

/**
 * A model's answer for the chat: at most `chatLimits.answer` characters (cut visibly),
 * each of its lines escaped as `chatText` does (so it shows as the plain text the model
 * wrote, without links, images or HTML), kept as separate lines. Ends with a newline.
 */
export function chatAnswerMarkdown(text: string): string {
  const lines = capText(text.trim(), chatLimits.answer).split(/\r\n|[\n\r\u2028\u2029]/);
  return `${lines.map((line) => (line.trim() === '' ? '' : chatText(line, chatLimits.answer))).join('  \n')}\n`;
}
