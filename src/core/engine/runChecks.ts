import type { Check, Step } from '../plan/planSchema';
import type { DiagnosticsSnapshot } from '../editorPorts';
import type { ApprovalDecision, Interaction } from '../interactionPorts';
import { capText, textCaps } from '../text/capText';
import { filesChangedBySteps } from '../tools/commandDefiningFiles';
import { changesOfSteps } from './keptChanges';
import { evaluateCheck, plainText, unansweredReason } from './evaluateCheck';
import type { CheckResult, RunEventBody, RunState } from './runEvents';
import type { ResolvedRunOptions } from './runOptions';
import type { RunStop } from './runStop';
import { createStepInteraction } from './stepInteraction';
import { stepCommandLog } from './stepCommandLog';

/** What a step's checks found after one attempt: every outcome in the step's order, and the failure when one did not pass. */
export interface ChecksVerdict {
  outcomes: CheckResult[];
  /** `diagnosis` names each failed check and what was found; `retryable` is false when no failure could change with another attempt. */
  failure: { diagnosis: string; retryable: boolean } | undefined;
}

/** What the checks use of a step's run (see `StepRun`). */
export interface CheckedRun {
  runId: string;
  options: ResolvedRunOptions;
  state: Readonly<RunState>;
  emit: (body: RunEventBody) => void;
  stop: RunStop;
  /** Resolves once every event emitted so far went to the journal: `false` when the store refused them. */
  flush(): Promise<boolean>;
}

/** A step's checks across its attempts. */
export interface StepChecks<Run extends CheckedRun> {
  /** The run the step's attempts use: the same, with the files the step changes noted (the default paths of `no_new_diagnostics`). */
  run: Run;
  /** Runs every check in order after an attempt's work and journals the outcomes (`checks_evaluated`). */
  evaluate(attempt: number): Promise<ChecksVerdict>;
}

/**
 * The checks of `step`, or `undefined` when it has none. Made before the step's first
 * attempt: with a `no_new_diagnostics` check and a `Diagnostics` port, the editor's errors
 * are snapshot here, before the step's work.
 */
export function stepChecks<Run extends CheckedRun>(step: Step, run: Run): StepChecks<Run> | undefined {
  const checks = step.checks ?? [];
  if (checks.length === 0) return undefined;
  const changed: string[] = [];
  const tracked: Run = {
    ...run,
    emit(body: RunEventBody) {
      if (body.type === 'file_changed' && body.operation !== 'createDirectory' && !changed.includes(body.path)) changed.push(body.path);
      run.emit(body);
    },
  };
  const diagnostics = run.options.diagnostics;
  let before: Promise<DiagnosticsSnapshot> | undefined;
  if (diagnostics !== undefined && checks.some((check) => check.kind === 'no_new_diagnostics')) {
    before = diagnostics.snapshot(undefined, run.stop.signal);
    // Read when the check runs; a failure to take it fails that check then, not the run now.
    before.catch(() => undefined);
  }
  return {
    run: tracked,
    async evaluate(attempt) {
      const signal = run.stop.signal;
      const interaction = createStepInteraction(step.id, answeringNow(run.options.interaction), () => run.state.supplied, tracked.emit, signal);
      // A check command is journaled before it starts, as the step's own are: resumed after a crash, it asks before it runs again.
      const journal = (body: RunEventBody): void => {
        if (!signal.aborted) tracked.emit(body);
      };
      const commandLog = stepCommandLog(step.id, () => run.state, journal, () => run.flush());
      const outcomes: CheckResult[] = [];
      const failures: string[] = [];
      let retryable = false;
      for (const [index, check] of checks.entries()) {
        const verdict = await evaluateCheck(check, {
          runId: run.runId,
          stepId: step.id,
          stepTitle: step.title,
          options: run.options,
          interaction,
          commandLog,
          signal,
          changedFiles: () => changed,
          filesChangedInRun: () => filesChangedBySteps(changesOfSteps(run.state.steps)),
          runStartedAt: run.state.startedAt,
          diagnosticsBefore: before,
        });
        if (signal.aborted) break;
        outcomes.push({ kind: verdict.kind, passed: verdict.passed, detail: verdict.detail });
        if (!verdict.passed) {
          failures.push(`Check ${index + 1} (${checkLabel(check)}) failed: ${verdict.detail}`);
          retryable ||= verdict.retryable;
        }
      }
      if (!signal.aborted) tracked.emit({ type: 'checks_evaluated', stepId: step.id, attempt, checks: outcomes });
      return { outcomes, failure: failures.length === 0 ? undefined : { diagnosis: capText(failures.join('\n'), textCaps.message), retryable } };
    },
  };
}

/** How a check is named in a diagnosis: its kind and what it looks at, e.g. "command `npm test`". */
function checkLabel(check: Check): string {
  const quoted = (subject: string): string => `\`${plainText(capText(subject, 200))}\``;
  // In words, as the review's checks line says them ("file absent"), not the plan's field values ("file_absent").
  switch (check.kind) {
    case 'file_exists':
      return `file exists ${quoted(check.path)}`;
    case 'file_absent':
      return `file absent ${quoted(check.path)}`;
    case 'file_contains':
      return `contents of ${quoted(check.path)}`;
    case 'command':
      return `command ${quoted(check.argv.join(' '))}`;
    case 'no_new_diagnostics':
      return check.paths === undefined ? 'no new errors in the changed files' : `no new errors in ${quoted(check.paths.join(', '))}`;
  }
}

/** The run's interaction, where a deferred approval is a refusal: a check never leaves its step waiting after the work is done. */
function answeringNow(base: Interaction): Interaction {
  return {
    async requestApproval(request, signal) {
      const decision = await base.requestApproval(request, signal);
      return decision === 'defer' ? ({ approved: false, reason: unansweredReason } satisfies ApprovalDecision) : decision;
    },
    askClarification: (request, signal) => base.askClarification(request, signal),
    requestReview: (request, signal) => base.requestReview(request, signal),
    requestManualStep: (request, signal) => base.requestManualStep(request, signal),
  };
}
