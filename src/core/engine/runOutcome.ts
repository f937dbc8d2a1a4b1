import { activeTime } from './runPauses';
import { isRunInterruption } from './runInterruption';
import { terminalStepStatuses, type RunEventBody, type RunState } from './runEvents';
import type { RunResult } from './runOptions';
import { errorMessage } from '../../shared/errorMessage';

/** How the loop stopped, besides running out of steps. */
export interface RunStopping {
  /** Why a critical step halted the run ("Critical step S failed: …"). */
  halted?: string | undefined;
  /** Set when the run was cancelled: the abort reason (an `Error`, or a `runInterruption`). */
  cancelled?: { reason: unknown };
}

/**
 * The event that ends a run whose loop has nothing left to start, or `undefined` when the
 * run has already ended. In order: a halt fails the run; a cancel with unfinished steps
 * cancels it (`interrupted` when the host went away); steps waiting on a request leave it
 * `waiting`; failed steps fail it (naming those that asked for a repair plan); steps that
 * never became ready fail it; else it ran through to its end (`run_completed`, which
 * leaves it `completed` when every step's work is done and `partial` when a step failed
 * and its policy let the run go on, or was skipped other than as planned: `stepsNotDone`).
 */
export function runOutcome(state: Readonly<RunState>, stopping: RunStopping): RunEventBody | undefined {
  if (state.status !== 'running') return undefined;
  const unfinished = (state.plan?.steps ?? []).filter((step) => {
    const status = state.steps[step.id]?.status;
    // Stryker disable next-line ConditionalExpression: the set holds no undefined.
    return status === undefined || !terminalStepStatuses.has(status);
  });
  if (stopping.halted !== undefined) return { type: 'run_failed', reason: stopping.halted };
  if (stopping.cancelled && unfinished.length > 0) {
    const { reason } = stopping.cancelled;
    return { type: 'run_cancelled', reason: errorMessage(reason), ...(isRunInterruption(reason) ? { interrupted: true as const } : {}) };
  }
  const pending = unfinished.flatMap((step) => {
    const stepState = state.steps[step.id];
    return stepState?.deferred && stepState.pending ? [stepState.pending] : [];
  });
  if (pending.length > 0) return { type: 'run_waiting', pending };
  const failed = Object.values(state.steps).filter((step) => step.status === 'failed');
  if (failed.length > 0) {
    const replan = failed.filter((step) => step.replanRequested).map((step) => step.id);
    const named = `Step${failed.length > 1 ? 's' : ''} ${failed.map((step) => step.id).join(', ')} failed`;
    // What the step's policy asked for; whether a repair plan came is said after it (executeWithReplanning).
    const asked = replan.length === failed.length ? ' and asked for a repair plan' : replan.length > 0 ? `; ${replan.join(', ')} asked for a repair plan` : '';
    return { type: 'run_failed', reason: `${named}${asked}.` };
  }
  if (unfinished.length > 0) return { type: 'run_failed', reason: `Steps ${unfinished.map((step) => step.id).join(', ')} could not start.` };
  return { type: 'run_completed' };
}

/** The public result of a run from its final state; `journalFailure` (a journal that could not be written) joins the warnings. */
export function toResult(state: RunState, journalFailure?: string): RunResult {
  const steps = { ...state.steps };
  const pending = Object.values(steps).flatMap((step) => (step.deferred && step.pending ? [step.pending] : []));
  const status = state.status === 'running' ? 'failed' : state.status;
  return {
    runId: state.runId,
    status,
    results: { ...state.results },
    steps,
    ...(status === 'waiting' ? { pending } : {}),
    metadata: {
      startedAt: state.startedAt,
      endedAt: state.endedAt,
      // The run's working time, its pauses between a stop and a resume left out.
      totalDurationMs: state.startedAt !== undefined && state.endedAt !== undefined ? activeTime(state.pauses, state.endedAt) - state.startedAt : 0,
      executionAttempts: Object.values(steps).reduce((sum, step) => sum + step.attempts, 0),
      replanCount: state.replanHistory?.length ?? 0,
      replanHistory: [...(state.replanHistory ?? [])],
      replanRequests: Object.values(steps).filter((step) => step.replanRequested).map((step) => step.id),
      ...(state.reason === undefined ? {} : { reason: state.reason }),
      warnings: journalFailure === undefined ? [...state.warnings] : [...state.warnings, journalFailure],
      resumeCount: state.resumeCount,
    },
  };
}
