import type { RunEvent, RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import { oneLine } from '../core/text/oneLine';
import { shortLine } from './shortLine';
import { newTenth, progressText } from '../shared/progressPercent';
import { notStoppingNote, skippedStepText } from '../shared/stepStatusLabels';
import { keptFileText } from '../core/tools/withheldFiles';
import { reasonBesideFailures } from '../core/engine/criticalHalt';
import { shellWord } from './shellWord';
import { formatDuration } from '../shared/formatDuration';

/** Longest step title in a progress line, and longest objective, reason or warning, in characters (each on one line). */
const maxTitleLength = 120;
const maxTextLength = 300;

/**
 * Said after a failure's first line when its whole text is printed once, in the closing summary's Failures: a step's
 * failure that ended it (it stopped the run, its policy went past it, or a repair plan replaced it). Said nowhere else:
 * an attempt retried, or a verification failure a retry may undo, may end with the step done and no Failures at all, and
 * with `--json` no summary follows (a trial read the promise and found no Failures).
 */
const failedInFull = '(in full under Failures at the end)';
/** Said after a failure of several lines shown on one, when it is not promised in full below. */
const shortened = '(shortened)';

/**
 * Live progress as one line per notable event, for stderr: starts, completions with
 * durations, failures (their first line only: the closing summary prints each in full, once),
 * skips, files kept from the model, waits, and the run's end (not when `summaryFollows`: the closing summary's
 * headline says how it ended, and two headlines read as two runs). `alreadyEnded` counts steps a
 * resumed run finished before; `resumeFlags` follow the run id in the `resume` a cancelled run says to paste (with
 * `--json` only: else the closing summary says it). Returns the listener, which is given the run's state with
 * the event folded in when there is one (a run that ran to its end says whether every step is done).
 */
export function progressReporter(
  plan: Plan,
  write: (line: string) => void,
  alreadyEnded = 0,
  summaryFollows = false,
  resumeFlags = '',
): (event: RunEvent, state?: Readonly<RunState>) => void {
  const total = plan.steps.length;
  const titles = new Map(plan.steps.map((step) => [step.id, oneLine(step.title, maxTitleLength)]));
  const startedAt = new Map<string, number>();
  // The last percentage printed of each running step: each new tenth is printed, so a long step adds at most eleven lines.
  const printed = new Map<string, number>();
  let ended = alreadyEnded;
  const failedSteps = new Set<string>();
  const label = (stepId: string): string => {
    const title = titles.get(stepId);
    return title && title !== stepId ? `${stepId} ${title}` : stepId;
  };
  const line = (symbol: string, text: string): void => write(`[${ended}/${total}] ${symbol} ${text}`);
  return (event, state) => {
    switch (event.type) {
      case 'run_started':
        write(`Run ${event.runId}: ${total} step${total === 1 ? '' : 's'}. ${oneLine(event.plan.objective, maxTextLength)}`);
        return;
      case 'run_resumed':
        write(`Resuming run ${event.runId}.${event.journalWarning ? ` Warning: ${oneLine(event.journalWarning, maxTextLength)}` : ''}`);
        return;
      case 'step_started':
        startedAt.set(event.stepId, event.time);
        printed.delete(event.stepId);
        line(
          '▶',
          `${label(event.stepId)}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}${event.continues ? ' (continuing where it was interrupted)' : ''}`,
        );
        return;
      case 'step_completed': {
        ended++;
        // As the closing summary says a duration ("in 5.6 s"): "in 2311 ms" beside it read as another unit (a trial).
        const took = event.time - (startedAt.get(event.stepId) ?? event.time);
        line('✔', `${label(event.stepId)}${event.restored ? ' (from earlier results)' : ` in ${formatDuration(took)}`}`);
        return;
      }
      case 'step_failed': {
        const retry = event.disposition === 'retry';
        if (!retry) ended++;
        failedSteps.add(event.stepId);
        const more = summaryFollows && !retry ? failedInFull : shortened;
        line(
          '✘',
          `${label(event.stepId)}: ${shortLine(event.error, 200, more)}${retry ? ` (retrying in ${formatDuration(event.retryInMs ?? 0)})` : event.disposition === 'skip' ? ` (${notStoppingNote})` : ''}`,
        );
        return;
      }
      case 'verification_failed':
        // The step_failed that follows says whether it is the step's end, and makes the promise then.
        line('≠', `${label(event.stepId)} failed verification: ${shortLine(event.diagnosis, 200, shortened)}`);
        return;
      case 'step_skipped':
        ended++;
        line('↷', `${label(event.stepId)} ${skippedStepText(event.cause, event.reason, (detail) => oneLine(detail, maxTextLength))}`);
        return;
      case 'step_progress':
        if (event.percent === undefined || !newTenth(printed.get(event.stepId), event.percent)) return;
        printed.set(event.stepId, event.percent);
        line('…', `${label(event.stepId)}: ${progressText(shortLine(event.message, 120), event.percent)}`);
        return;
      case 'file_withheld':
        line('!', `${label(event.stepId)}: kept from the model: ${keptFileText(event.path, maxTextLength)}`);
        return;
      case 'step_warning':
        line('!', `${label(event.stepId)}: ${oneLine(event.message, maxTextLength)}`);
        return;
      case 'step_deferred':
        line('⏸', `${label(event.stepId)} waits for an answer`);
        return;
      case 'run_completed':
        if (summaryFollows) return;
        write(
          state?.status === 'partial'
            ? `Run ${event.runId} finished, not every step done: ${oneLine(state.reason ?? '', maxTextLength)}`
            : `Run ${event.runId} completed.`,
        );
        return;
      case 'run_failed':
        if (summaryFollows) return;
        // A critical step's failure was its own line, and the summary prints it in full: here, only which step.
        write(`Run ${event.runId} failed: ${shortLine(reasonBesideFailures(event.reason, failedSteps), 200)}`);
        return;
      case 'run_cancelled':
        // The closing summary's headline and reason say it, with the command to paste: a Ctrl+C read "cancelled:
        // Interrupted (Ctrl+C)" twice (a trial). With --json it is said here.
        if (summaryFollows) return;
        write(
          `Run ${event.runId} ${event.interrupted ? 'interrupted' : 'cancelled'}: ${sentence(shortLine(event.reason, 200))} ` +
            `Resume it with: task-planner resume ${shellWord(event.runId)}${resumeFlags}`,
        );
        return;
      case 'run_waiting':
        write(`Run ${event.runId} is waiting for ${event.pending.length} answer${event.pending.length === 1 ? '' : 's'}.`);
        return;
      default:
        return;
    }
  };
}

/** `text` ending as a sentence ends (a reason "Interrupted (Ctrl+C)." read "(Interrupted (Ctrl+C).)." in brackets). */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
