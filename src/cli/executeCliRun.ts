import { resolve } from 'node:path';
import type { RunResult } from '../core/engine/runOptions';
import { ExecutionFold } from '../core/replan/executionFold';
import { initialRunState } from '../core/engine/reduceRunEvent';
import { terminalStepStatuses, type PendingRequest, type RunEvent, type RunState } from '../core/engine/runEvents';
import { capText, textCaps } from '../core/text/capText';
import { runInterruption } from '../core/engine/runInterruption';
import { collapseBlankLines } from '../core/text/collapseBlankLines';
import { oneLine } from '../core/text/oneLine';
import { runSummary } from '../core/view/runSummary';
import { summaryText } from './summaryText';
import type { Plan } from '../core/plan/planSchema';
import { type CliIo, warningLine } from './cliIo';
import { progressReporter } from './progressReporter';
import { describeApprovalForTerminal } from './terminalInteraction';
import { runResultJson } from './runResultJson';
import { carriedFlags, type CarriedOptions } from './cliModel';
import { shellWord } from './shellWord';

/**
 * Exit code of a finished run (see the help text): 0 only when every step is done (or
 * skipped as planned), 5 when it ran to its end with steps failed or skipped.
 */
export function exitCodeOf(result: RunResult): number {
  const codes: Record<RunResult['status'], number> = { completed: 0, failed: 1, waiting: 3, cancelled: 4, interrupted: 4, partial: 5 };
  return codes[result.status];
}

/** What an execution is started with: its cancellation and where its events go. */
export interface ExecutionHooks {
  signal: AbortSignal;
  onEvent: (event: RunEvent) => void;
}

/**
 * Follows an execution (a run and the repair runs after it): progress on stderr, from the
 * steps of `plan` that `stored` (a resumed run's journaled state) had ended, a new count for
 * each repair plan; Ctrl+C cancels, SIGTERM or a closed terminal (SIGHUP) interrupts (see
 * `onStopSignals`; either way the commands are killed and the journal stays resumable). Resolves to the
 * execution's result, its final state, folded from its events, and the ids of its runs (the
 * run, then each repair run) in order.
 */
export async function followExecution(
  execute: (hooks: ExecutionHooks) => Promise<RunResult>,
  plan: Plan,
  io: CliIo,
  options: { json: boolean; stored?: RunState; resumeFlags?: string },
): Promise<{ result: RunResult; state: RunState; runIds: string[] }> {
  const { stored, resumeFlags = '' } = options;
  const alreadyEnded = Object.values(stored?.steps ?? {}).filter((step) => terminalStepStatuses.has(step.status)).length;
  // Without --json the closing summary follows on stdout, its headline saying how the run ended.
  const summaryFollows = !options.json;
  let report = progressReporter(plan, io.err, alreadyEnded, summaryFollows, resumeFlags);
  // Folded in place within a run (a copy per event made a long run quadratic); a repair run's start continues it once.
  const fold = new ExecutionFold();
  let state = stored;
  const runIds: string[] = [];
  const onEvent = (event: RunEvent): void => {
    if (runIds[runIds.length - 1] !== event.runId) runIds.push(event.runId);
    state = fold.after(state, event);
    if (event.type === 'replan_started') io.err(`Replanning: ${oneLine(event.reason, 300)}`);
    if (event.type === 'replan_completed') {
      io.err(`Repair plan v${event.plan.version}: ${oneLine(event.plan.steps.map((step) => step.id).join(', '), 300)}`);
      // The repair run reports the steps it keeps as completed again (restored), so its count starts at 0.
      report = progressReporter(event.plan, io.err, 0, summaryFollows, resumeFlags);
    }
    report(event, state);
  };
  const controller = new AbortController();
  const stopOn = onStopSignals((reason) => controller.abort(reason));
  try {
    const result = await execute({ signal: controller.signal, onEvent });
    return { result, state: state ?? initialRunState(result.runId), runIds: runIds.length > 0 ? runIds : [result.runId] };
  } finally {
    stopOn.remove();
  }
}

/** Why a run stops on each signal the command line handles (the abort reason, journaled as the run's reason). */
const stopReasons = {
  SIGINT: () => new Error('Interrupted (Ctrl+C).'),
  // Not the user's Ctrl+C: the host went away, so the run is journaled interrupted, to be resumed.
  SIGTERM: () => runInterruption('The command line was asked to end (SIGTERM).'),
  SIGHUP: () => runInterruption('Its terminal was closed (SIGHUP).'),
} as const;

/** A signal that stops a run started from the command line. */
export type StopSignal = keyof typeof stopReasons;

/**
 * Calls `stop` with the abort reason of the first of `signals` (by default Ctrl+C, SIGTERM
 * and SIGHUP, a closed terminal) that comes, until `remove` is called: without it, SIGTERM
 * and SIGHUP would end the process at once, its commands left running and the journal
 * saying the run still runs. Each signal is handled once: the same signal again ends the
 * process as it would have.
 */
export function onStopSignals(stop: (reason: Error) => void, signals: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP']): { remove: () => void } {
  const listeners = signals.map((signal) => {
    const listener = (): void => stop(stopReasons[signal]());
    process.once(signal, listener);
    return { signal, listener };
  });
  return {
    remove: () => {
      for (const { signal, listener } of listeners) process.removeListener(signal, listener);
    },
  };
}

/** Warnings printed with a finished run; the rest are counted (all are in `--json`). */
const maxShownWarnings = 20;

/**
 * The flags after the run id of a `resume` to paste: the workspace, as an absolute path (a pasted
 * `task-planner resume RUN` from another folder found no run), and the model, budget and run options given.
 */
export function resumeFlags(options: { workspace: string } & CarriedOptions): string {
  return ` --workspace ${shellWord(resolve(options.workspace))}${carriedFlags(options)}`;
}

/**
 * Prints a finished run on stdout (as JSON, or the closing summary of `runSummary` with
 * resume hints); returns its exit code. `state` is the execution's final state (its plan,
 * steps, changed files and model calls, repair runs included).
 */
export function reportRunResult(result: RunResult, state: RunState, options: { workspace: string; json: boolean } & CarriedOptions, io: CliIo): number {
  const { workspace, json } = options;
  const flags = carriedFlags(options);
  if (json) {
    io.out(runResultJson(result));
    return exitCodeOf(result);
  }
  const lines = summaryText(
    runSummary(state, { replanCount: result.metadata.replanCount, ...(result.metadata.llmUsage ? { usage: result.metadata.llmUsage } : {}) }),
  );
  const warnings = result.metadata.warnings;
  for (const warning of warnings.slice(0, maxShownWarnings)) lines.push(`  warning: ${warningLine(warning)}`);
  if (warnings.length > maxShownWarnings) lines.push(`  … and ${warnings.length - maxShownWarnings} more warnings (see them with --json)`);
  if (result.status === 'waiting') {
    lines.push('Pending requests (an answer applies only to the request shown here):');
    for (const request of result.pending ?? []) {
      // The prompt may come from a journal a repository shipped: bounded, its blank lines collapsed, its lines under the request's.
      const [first = '', ...rest] = capText(collapseBlankLines(request.prompt.trim()), textCaps.message).split('\n');
      lines.push(`  ${request.id} (${request.kind}): ${first}`);
      if (rest.length > 0) lines.push(indent(rest.join('\n')));
      const shown = shownRequest(request);
      if (shown !== undefined) lines.push(indent(shown));
    }
    // One command to paste (a newcomer could not paste one with its alternatives in brackets), then each other answer as
    // a whole command of its own: "or instead: --reject W@…[=REASON]" was no line to paste (a trial).
    const hints = (result.pending ?? []).map((request) => resumeHint[request.kind](request.id));
    const command = (answers: readonly string[]): string =>
      `  task-planner resume ${shellWord(result.runId)} --workspace ${shellWord(resolve(workspace))}${flags} ${answers.join(' ')}`;
    lines.push('Answer with:', command(hints.map((hint) => hint.flag)));
    const instead = hints.flatMap((hint, index) => hint.instead.map((flag) => command(hints.map((other, at) => (at === index ? flag : other.flag)))));
    const notes = [...new Set(hints.flatMap((hint) => (hint.note === undefined ? [] : [hint.note])))];
    if (instead.length > 0) lines.push(`Or instead${notes.length > 0 ? ` (${notes.join('; ')})` : ''}:`, ...instead);
  }
  if (result.status === 'cancelled' || result.status === 'interrupted') {
    // On a line of its own to paste, with the workspace and model: the progress line said only "task-planner resume RUN".
    lines.push('Resume it with:', `  task-planner resume ${shellWord(result.runId)}${resumeFlags(options)}`);
  }
  if (result.status === 'failed' || result.status === 'partial') {
    const next = nextAfterFailure(result.runId, state, `--workspace ${shellWord(resolve(workspace))}`, flags);
    if (next !== undefined) lines.push(next);
  }
  io.out(lines.join('\n'));
  return exitCodeOf(result);
}

/** Lines of a pending request's detail printed with the waiting run (the rest is in `--json`). */
const maxShownLines = 200;

/** What a pending approval shows beyond its one-line prompt: the diff or the command line, as the terminal would ask it. */
function shownRequest(pending: PendingRequest): string | undefined {
  const request = pending.request;
  if (pending.kind !== 'approval' || request === undefined || !('kind' in request)) return undefined;
  const lines = describeApprovalForTerminal(request).split('\n');
  return lines.length <= maxShownLines
    ? lines.join('\n')
    : [...lines.slice(0, maxShownLines), `… ${lines.length - maxShownLines} more lines: see the whole request with --json`].join('\n');
}

function indent(text: string): string {
  return text.replace(/^/gm, '    ');
}

/**
 * The `resume` flag that answers each kind of pending request, by its request id (one shell word: its step id is a model's
 * or a plan's), the other answers to it (each a flag to put in its place, in a whole command), and what to know of them.
 */
const resumeHint: Record<PendingRequest['kind'], (requestId: string) => { flag: string; instead: string[]; note?: string }> = {
  approval: (requestId) => ({
    flag: `--approve ${shellWord(requestId)}`,
    instead: [`--reject ${shellWord(requestId)}`],
    note: 'a --reject REQUEST=REASON has the step proposed again with your reason',
  }),
  clarification: (requestId) => ({ flag: `--answer ${shellWord(`${requestId}=your answer`)}`, instead: [] }),
  review: (requestId) => ({
    flag: `--accept-review ${shellWord(requestId)}`,
    instead: [`--reject-review ${shellWord(`${requestId}=what to change`)}`],
  }),
  manual: (requestId) => ({ flag: `--done ${shellWord(requestId)}`, instead: [`--failed ${shellWord(`${requestId}=why not`)}`] }),
  budget: () => ({ flag: '--max-requests N', instead: ['--max-tokens N', '--max-cost USD'], note: 'N or USD above the limit reached' }),
};

/**
 * What to do after a run that failed or ended partly done: run it again from the step that matters once the cause is
 * fixed (with the model `flags` this command was given), or take back its file changes; `undefined` when no step
 * failed or was rejected (nothing to point at). The step that matters is the first whose failure stopped the run, else
 * the first that failed while the run went on, else the first you rejected. `where` is the `--workspace` flag.
 */
function nextAfterFailure(runId: string, state: RunState, where: string, flags: string): string | undefined {
  const steps = state.plan?.steps ?? [];
  const stopped = (step: { id: string }): boolean => state.steps[step.id]?.status === 'failed';
  const failed = (step: { id: string }): boolean => stopped(step) || state.steps[step.id]?.skipCause === 'failed';
  // A failure is what has a cause to fix, and the one that stopped the run comes first: a trial's hint named an optional
  // step before it that had failed and let the run go on. A step you rejected is pointed at only when nothing failed.
  const first = steps.find(stopped) ?? steps.find(failed) ?? steps.find((step) => state.steps[step.id]?.skipCause === 'rejected');
  if (first === undefined) return undefined;
  // Each command on a line of its own, nothing after it: copied with the sentence's full stop, the path lost its end.
  const undo = (state.changedFiles?.length ?? 0) > 0 ? ['Or take back its file changes:', `  task-planner undo ${shellWord(runId)} ${where}`] : [];
  const when = failed(first) ? 'once the cause is fixed, run it again' : 'to run what you rejected after all, run it again';
  const rerun = `  task-planner rerun ${shellWord(runId)} --from ${shellWord(first.id)} ${where}${flags}`;
  return [`Next: ${when} from ${first.id} (the plan as it ran):`, rerun, ...undo].join('\n');
}
