import type { RunState } from '../engine/runEvents';
import { describeCheck } from '../plan/describeCheck';
import type { Plan, Step } from '../plan/planSchema';
import { directionControlClass } from '../../shared/vocabulary';
import { visibleControls, visibleEscape } from '../../shared/visibleCharacters';
import { capText } from '../text/capText';
import { runStatusLabel } from '../../shared/runStatusLabels';
import { stepStatusLabels } from '../../shared/stepStatusLabels';
import { stepStateView, stoppedRun } from './stepStatusView';
import { stepRunnerLabel } from './stepRunnerLabel';

/** Longest objective the checklist shows, in characters (then cut, marked). */
export const maxObjectiveChars = 2_000;
/** Longest step title or id the checklist shows, in characters (then cut, marked). */
export const maxTitleChars = 300;

// Line breaks (and the Unicode line and paragraph separators) become spaces: one step is one line.
const lineBreaks = /\r\n|[\n\r\u2028\u2029\u0085\u000b\u000c]/g;
// Every other control, DEL, C1 control and direction control is shown as its escape.
const controls = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${directionControlClass}]`, 'g');
// The ASCII characters Markdown (CommonMark and GitHub's) gives a meaning inside a line:
// escapes, code, emphasis, links and images, raw HTML and entities, issue references,
// tables, strikethrough and math, and the dot, with which VS Code's preview (linkify) makes a
// link of a bare domain ("evil.example/?q=…"; an escaped dot is not part of one). Each is
// backslash-escaped, which shows the character itself. Characters that matter only at the
// start of a line (list markers, headings' underlines) are escaped only where the text starts
// (see `markdownText`).
const markdownSignificant = /[\\`*_[\]()<>#|~&$.]/g;

// What GitHub turns into a link or a notification after Markdown is parsed, so escapes cannot stop it:
// mentions and e-mail addresses, bare URLs (scheme:// or www.), issue references (#12, owner/repo#12, GH-12).
// Each whole-word alternative starts at a word's start only, and a scheme is matched from its last letter (the same
// words match): a long word costs linear time.
const autolinked = /(?<!\S)(?:\S*@\S+|\S*(?:[a-z][0-9+.-]*:\/\/|www\.)\S*|\S*#\d+\S*)|\bGH-\d+\S*/gi;

/**
 * `text` as inert inline Markdown: at most `maxChars` characters (cut visibly), on one
 * line, with every control and direction control shown as `\uXXXX`, every word GitHub
 * would link or notify on its own (an `@mention`, an e-mail address, a bare URL, an issue
 * reference) in a code span, and every other Markdown-significant character (the dot of a
 * bare domain, and a list marker or an underline it starts with, included) backslash-escaped,
 * so text from a plan cannot add a link, an image, HTML, a heading or a list item to the
 * document it is pasted in, nor ping anyone: in the plan's Markdown export and in the GitHub
 * Action's job summary alike.
 */
export function markdownText(text: string, maxChars: number): string {
  const flat = visibleLine(text, maxChars);
  let shown = '';
  let last = 0;
  for (const match of flat.matchAll(autolinked)) {
    shown += escapeMarkdown(flat.slice(last, match.index)) + codeSpan(match[0]);
    last = match.index + match[0].length;
  }
  // Where the text starts a line's content (a list of file paths), a list marker or an underline would start a list, a rule
  // or a heading: "- x", "+ x", "---", "===" (the dot of "1. x" is escaped with the others).
  return (shown + escapeMarkdown(flat.slice(last))).replace(/^( *)([-+=])/, '$1\\$2');
}

/**
 * `text` at most `maxChars` characters long (cut visibly), on one line (line breaks become
 * spaces), with every control (tabs too), DEL, C1 control and direction control shown as `\uXXXX`, and every character
 * that shows nothing (zero-width and tag characters, with which a model can spell words no reader sees: `visibleControls`).
 */
export function visibleLine(text: string, maxChars: number): string {
  return visibleControls(capText(text, maxChars).replace(lineBreaks, ' ').replace(controls, visibleEscape));
}

function escapeMarkdown(text: string): string {
  return text.replace(markdownSignificant, (char) => `\\${char}`);
}

/** `text` verbatim in a code span whose fence is longer than any run of backticks in it. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A plan as a Markdown checklist for a pull request or an issue: the objective as a
 * heading, then one task-list item per step in plan order — `- [x]` for a step the run
 * completed, `- [ ]` for any other — with its id, title, who does it and, when `run`
 * is given (a run of this plan), every other status in words; under each step the steps
 * it waits for and its checks. Every text from the plan goes through `markdownText`.
 * The text ends with a newline.
 */
export function planMarkdown(plan: Plan, run?: RunState): string {
  const objective = plan.objective.trim() === '' ? 'Plan' : markdownText(plan.objective, maxObjectiveChars);
  const runLine = run ? ` · run ${runStatusLabel(run.status, Object.values(run.steps))}` : '';
  const steps = `${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}`;
  const lines = [`# ${objective}`, '', `_Task Planner plan, version ${plan.version}, ${steps}${runLine}_`, ''];
  for (const step of plan.steps) lines.push(...stepLines(step, run));
  return `${lines.join('\n')}\n`;
}

function stepLines(step: Step, run: RunState | undefined): string[] {
  const status = run?.steps[step.id]?.status;
  const skipCause = run?.steps[step.id]?.skipCause;
  // A task ticked in the file it was imported from is done, by the run or before it.
  const done = status === 'completed' || skipCause === 'source';
  const note =
    status !== undefined && !done
      ? stepStateView({ status, skipCause }, stoppedRun(run?.status)).label
      : run === undefined && step.skipped === true
        ? stepStatusLabels.skipped
        : undefined;
  const title = step.title.trim() === '' ? '' : ` ${markdownText(step.title, maxTitleChars)}`;
  const lines = [
    `- [${done ? 'x' : ' '}] **${markdownText(step.id, maxTitleChars)}**${title} (${markdownText(stepRunnerLabel(step), maxTitleChars)})${note ? ` — ${note}` : ''}`,
  ];
  if (step.dependsOn.length > 0) lines.push(`  - after ${step.dependsOn.map((id) => markdownText(id, maxTitleChars)).join(', ')}`);
  for (const check of step.checks ?? []) lines.push(`  - check: ${markdownText(describeCheck(check), maxTitleChars)}`);
  return lines;
}
