import type { Step } from '../plan/planSchema';
import { journaledEffects } from './journaledEffects';
import { isRunInterruption } from './runInterruption';
import { evaluatePredicate } from '../predicate/evaluatePredicate';
import { isBudgetExceededError, type BudgetExceededError } from '../llm/budget';
import { isLlmError } from '../llm/llmError';
import { capText, capValue, textCaps } from '../text/capText';
import { isApprovalRejectedError } from '../tools/approvals';
import { isDeferredError, type RequestKind } from '../tools/deferral';
import { stepExecutors } from './executors/stepExecutors';
import { StepFailure } from './executors/stepExecutor';
import { decideAfterFailure, type FailureCause } from './failurePolicy';
import { createJournalWriter } from './journalWriter';
import { ReadyQueue } from './readyQueue';
import { applyRunEvent, cloneRunState } from './reduceRunEvent';
import type { ResolvedRunOptions, RunResult } from './runOptions';
import { requestedEventOf, terminalStepStatuses, type PendingRequest, type RunEvent, type RunEventBody, type RunState } from './runEvents';
import { buildPlanGraph, comparePriority, dependentsToSkip, failedDependency, unmetDependencies } from './scheduler';
import { fingerprintPrompt, requestIdOf } from './requestFingerprint';
import { createStepInteraction } from './stepInteraction';

/** How a run is driven from outside: its listeners, its cancel signal, and a view of its state. */
export interface RunControl {
  listeners: ReadonlySet<(event: RunEvent) => void>;
  /** Aborted by `RunHandle.cancel()` or `RunOptions.signal`. */
  signal: AbortSignal;
  /** Called once with a getter of the live state. */
  exposeState(getState: () => RunState): void;
}

/** Where a run starts: its folded history so far and its opening event. */
export interface EngineSetup {
  runId: string;
  /** A draft the engine owns and updates in place (a fresh state, or a folded journal). */
  state: RunState;
  options: ResolvedRunOptions;
  opening: RunEventBody;
  initialResults?: Readonly<Record<string, unknown>>;
  /** When set, the run fails at once with this reason (e.g. an invalid plan). */
  preflightError?: string;
}

interface AttemptFailure {
  message: string;
  cause: FailureCause;
  retryable: boolean;
}

/**
 * The run loop: a ready-queue scheduler over the plan's DAG. A step starts as soon as its
 * dependencies are completed and one of `maxConcurrency` slots is free, highest priority
 * (longest remaining path) first. Every state change is an event, applied to the state by
 * the same reducer that folds journals, then journaled and sent to listeners.
 * Time comes only from `options.clock`.
 */
export async function executeRun(setup: EngineSetup, control: RunControl): Promise<RunResult> {
  const { runId, options } = setup;
  const plan = options.plan;
  const draft = setup.state;
  control.exposeState(() => draft);
  const stepById = new Map<string, Step>(plan.steps.map((step) => [step.id, step]));
  const journal = createJournalWriter(options.store, runId, options.snapshotEvery, () => cloneRunState(draft));
  let seq = draft.lastSeq;

  const emit = (body: RunEventBody): void => {
    // The body is a fresh literal from the caller: stamping it in place avoids a copy per event.
    const event = body as RunEvent;
    event.runId = runId;
    event.seq = ++seq;
    event.time = options.clock.now();
    applyRunEvent(draft, event);
    journal.append(event);
    for (const listener of control.listeners) {
      try {
        listener(event);
      } catch (error) {
        options.logger.error('A run event listener threw; the run goes on.', { error: messageOf(error) });
      }
    }
  };
  const isTerminal = (id: string): boolean => {
    const status = draft.steps[id]?.status;
    return status !== undefined && terminalStepStatuses.has(status);
  };

  emit(setup.opening);
  if (setup.preflightError !== undefined) {
    emit({ type: 'run_failed', reason: setup.preflightError });
    return conclude();
  }

  const graph = buildPlanGraph(plan, (id) => {
    const step = stepById.get(id);
    return step && options.stepCost ? options.stepCost(step) : 1;
  });
  const byRank = [...graph.order].sort((a, b) => comparePriority(graph, a, b));
  const rankOf = new Map(byRank.map((id, rank) => [id, rank]));
  const queue = new ReadyQueue();
  const remaining = new Map<string, number>();
  const inFlight = new Set<string>();
  // One signal stops every running step (a cancel or a critical halt), instead of one
  // AbortController per step: with thousands of steps those dominate the engine's cost.
  const stop = new AbortController();
  const pendingAttempts = new Set<(reason: unknown) => void>();
  const stopAll = (reason: unknown): void => {
    if (stop.signal.aborted) return;
    stop.abort(reason);
    for (const reject of pendingAttempts) reject(reason);
    pendingAttempts.clear();
  };
  let halted: string | undefined;
  let finished = false;
  let resolveFinished: (result: RunResult) => void = () => undefined;
  const done = new Promise<RunResult>((resolve) => {
    resolveFinished = resolve;
  });

  const markReady = (id: string): void => {
    emit({ type: 'step_ready', stepId: id });
    queue.push(rankOf.get(id) ?? 0);
  };
  /** Skips what depends on `id`; `because` (a rejection's reason) is passed on to them. */
  const propagateSkip = (id: string, because?: string): void => {
    for (const { stepId, via } of dependentsToSkip(graph, id, draft.steps)) {
      const how = draft.steps[via]?.status === 'failed' ? 'failed' : 'was skipped';
      emit({ type: 'step_skipped', stepId, reason: `dependency ${via} ${how}${because === undefined ? '' : `: ${because}`}` });
    }
  };
  const onCompleted = (id: string): void => {
    for (const dependent of graph.dependents.get(id) ?? []) {
      const left = (remaining.get(dependent) ?? 1) - 1;
      remaining.set(dependent, left);
      if (left === 0 && !isTerminal(dependent)) markReady(dependent);
    }
  };
  /** Stops the run because critical step `id` ended as `outcome` ("failed", "was rejected by the user"). */
  const halt = (id: string, outcome: string, detail: string | undefined): void => {
    halted = `Critical step ${id} ${outcome}${detail ? `: ${detail}` : ''}`;
    queue.clear();
    stopAll(new Error(`Aborted because ${halted}`));
    for (const other of graph.order) {
      if (!isTerminal(other)) emit({ type: 'step_skipped', stepId: other, reason: `run halted because critical step ${id} ${outcome}` });
    }
  };
  /** A denied approval: the step is skipped, never retried; dependents follow; a critical step halts the run. */
  const reject = (step: Step, reason: string | undefined): void => {
    const why = `Rejected by the user${reason ? `: ${reason}` : ''}`;
    emit({ type: 'step_skipped', stepId: step.id, reason: why });
    propagateSkip(step.id, why);
    if (step.critical) halt(step.id, 'was rejected by the user', reason);
  };

  for (const [id, result] of Object.entries(setup.initialResults ?? {})) {
    if (stepById.has(id) && !isTerminal(id)) emit({ type: 'step_completed', stepId: id, result, restored: true });
  }
  for (const id of graph.order) {
    if (isTerminal(id)) continue;
    if (stepById.get(id)?.skipped) {
      emit({ type: 'step_skipped', stepId: id, reason: 'skipped in the plan' });
      propagateSkip(id);
      continue;
    }
    const failed = failedDependency(graph, id, draft.steps);
    if (failed !== undefined) {
      emit({ type: 'step_skipped', stepId: id, reason: `dependency ${failed} ${draft.steps[failed]?.status === 'failed' ? 'failed' : 'was skipped'}` });
      propagateSkip(id);
    }
  }
  for (const id of graph.order) {
    if (isTerminal(id)) continue;
    const unmet = unmetDependencies(graph, id, draft.steps);
    remaining.set(id, unmet);
    if (unmet === 0) markReady(id);
  }

  const onCancel = (): void => stopAll(control.signal.reason);
  control.signal.addEventListener('abort', onCancel, { once: true });

  const pump = (): void => {
    if (finished) return;
    while (halted === undefined && !control.signal.aborted && inFlight.size < options.maxConcurrency && queue.size > 0) {
      const id = byRank[queue.pop() as number] as string;
      if (!isTerminal(id)) launch(id);
    }
    if (inFlight.size === 0) {
      finished = true;
      control.signal.removeEventListener('abort', onCancel);
      void conclude().then(resolveFinished);
    }
  };

  const launch = (id: string): void => {
    inFlight.add(id);
    void Promise.resolve()
      .then(() => runStep(id, stop.signal))
      .catch((error: unknown) => {
        if (stop.signal.aborted || isTerminal(id)) return;
        emit({ type: 'step_failed', stepId: id, attempt: draft.steps[id]?.attempts ?? 1, error: `Internal error: ${messageOf(error)}`, disposition: 'fail' });
        propagateSkip(id);
      })
      .then(() => {
        inFlight.delete(id);
        pump();
      });
  };

  /** Emits the failure and its consequences; returns the backoff delay when another attempt follows. */
  const concludeFailure = (step: Step, attempt: number, uncapped: AttemptFailure): number | undefined => {
    const failure = { ...uncapped, message: capText(uncapped.message, textCaps.message) };
    const decision = decideAfterFailure(step, attempt, failure.cause, failure.retryable, options.backoff);
    emit({
      type: 'step_failed',
      stepId: step.id,
      attempt,
      error: failure.message,
      disposition: decision.disposition,
      ...(decision.disposition === 'retry' ? { retryInMs: decision.delayMs } : {}),
      ...(decision.disposition === 'fail' && decision.replan ? { replan: true } : {}),
    });
    if (decision.disposition === 'retry') return decision.delayMs;
    propagateSkip(step.id);
    if (decision.disposition === 'fail' && decision.halt) halt(step.id, 'failed', failure.message);
    return undefined;
  };

  const runStep = async (id: string, signal: AbortSignal): Promise<void> => {
    const step = stepById.get(id) as Step;
    const executor = stepExecutors[step.kind];
    const depends: Record<string, unknown> = {};
    for (const dependency of step.dependsOn) depends[dependency] = draft.results[dependency];
    let diagnosis: string | undefined;
    for (let attempt = 1; ; attempt++) {
      const prepared = executor.prepare({ step, plan, results: draft.results, diagnosis });
      if (attempt === 1) {
        for (const placeholder of prepared.unresolved.length > 0 ? new Set(prepared.unresolved) : []) {
          emit({ type: 'step_warning', stepId: id, message: `The placeholder ${placeholder} has no result to insert and stays verbatim.` });
        }
        if (step.when !== undefined) {
          const condition = await evaluatePredicate(step.when, { input: prepared.input, depends }, { timeoutMs: options.predicateTimeoutMs });
          if (signal.aborted) return;
          if (condition.kind === 'fail') {
            emit({ type: 'step_skipped', stepId: id, reason: `its condition \`${step.when}\` is not met` });
            propagateSkip(id);
            return;
          }
          if (condition.kind === 'error') {
            concludeFailure(step, attempt, { message: `The step's condition could not be evaluated: ${condition.message}`, cause: 'error', retryable: false });
            return;
          }
        }
      }
      emit({ type: 'step_started', stepId: id, attempt, input: prepared.input });
      const interaction = createStepInteraction(id, options.interaction, () => draft.supplied, emit, signal);
      let failure: AttemptFailure | undefined;
      let result: unknown;
      let outputLeft: number = textCaps.output;
      try {
        result = await runAttempt(step, signal, (attemptSignal) =>
          executor.execute(
            {
              runId,
              step,
              plan,
              attempt,
              diagnosis,
              depends,
              signal: attemptSignal,
              interaction,
              options: journaledEffects(options, id, (body) => {
                if (!signal.aborted) emit(body);
              }),
              output: (text) => {
                if (signal.aborted || outputLeft < 0) return;
                const kept = text.length <= outputLeft ? text : `${text.slice(0, outputLeft)}\n… (output cut: more than ${textCaps.output} characters in this attempt)\n`;
                // Below zero once cut: the rest of the attempt's output is dropped.
                outputLeft = text.length <= outputLeft ? outputLeft - text.length : -1;
                emit({ type: 'step_output', stepId: id, text: kept });
              },
              compacted: (report) => {
                if (!signal.aborted) emit({ type: 'context_compacted', ...report });
              },
              state: () => draft,
            },
            prepared.input,
          ),
        );
      } catch (error) {
        if (signal.aborted) return;
        if (isBudgetExceededError(error)) {
          pauseForBudget(id, error);
          return;
        }
        if (interaction.deferredKind !== undefined || isDeferredError(error)) {
          suspend(id, error);
          return;
        }
        if (isApprovalRejectedError(error)) {
          reject(step, error.reason);
          return;
        }
        failure = { message: messageOf(error), cause: 'error', retryable: isRetryable(error) };
      }
      if (failure === undefined && step.verification !== undefined) {
        const verdict = await evaluatePredicate(step.verification, { input: prepared.input, result, depends }, { timeoutMs: options.predicateTimeoutMs });
        if (signal.aborted) return;
        if (verdict.kind === 'fail') {
          emit({ type: 'verification_failed', stepId: id, attempt, diagnosis: verdict.diagnosis });
          failure = { message: verdict.diagnosis, cause: 'verification', retryable: true };
        } else if (verdict.kind === 'error') {
          failure = { message: verdict.message, cause: 'error', retryable: true };
        }
      }
      if (failure === undefined) {
        emit({ type: 'step_completed', stepId: id, result: result === undefined ? null : capValue(result, textCaps.result) });
        onCompleted(id);
        return;
      }
      diagnosis = failure.cause === 'verification' ? failure.message : undefined;
      const delayMs = concludeFailure(step, attempt, failure);
      if (delayMs === undefined) return;
      try {
        await options.clock.sleep(delayMs, signal);
      } catch {
        return;
      }
      if (signal.aborted) return;
    }
  };

  /**
   * Runs one attempt, settling as soon as the run stops or the step's `timeoutMs` passes,
   * whether or not the attempt honours its signal.
   */
  const runAttempt = async (step: Step, signal: AbortSignal, attempt: (signal: AbortSignal) => Promise<unknown>): Promise<unknown> => {
    if (signal.aborted) throw signal.reason;
    if (step.timeoutMs === undefined) {
      let reject: (reason: unknown) => void = () => undefined;
      const stopped = new Promise<never>((_resolve, rejectStopped) => {
        reject = rejectStopped;
      });
      pendingAttempts.add(reject);
      try {
        return await Promise.race([attempt(signal), stopped]);
      } finally {
        pendingAttempts.delete(reject);
      }
    }
    const limit = step.timeoutMs;
    const controller = new AbortController();
    const forward = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    options.clock.sleep(limit, controller.signal).then(
      () => controller.abort(new StepFailure(`Step ${step.id} timed out after ${limit} ms; raise its timeoutMs or make it faster.`, true)),
      () => undefined,
    );
    try {
      return await raceAbort(attempt(controller.signal), controller.signal);
    } finally {
      signal.removeEventListener('abort', forward);
      if (!controller.signal.aborted) controller.abort(new Error('The attempt ended.'));
    }
  };

  const suspend = (id: string, error: unknown): void => {
    if (draft.steps[id]?.deferred) return;
    const kind = isDeferredError(error) && error.kind !== 'budget' ? error.kind : 'approval';
    const request = promptRequest(id, kind, capText(messageOf(error), textCaps.message));
    emit({ type: requestedEventOf[kind], stepId: id, request });
    emit({ type: 'step_deferred', stepId: id });
  };

  /** The budget ran out before this step's next model call: it waits for "continue" like an approval. */
  const pauseForBudget = (id: string, error: BudgetExceededError): void => {
    if (draft.steps[id]?.deferred) return;
    const request = promptRequest(id, 'budget', error.message);
    emit({ type: 'budget_exhausted', stepId: id, request, usage: error.usage });
    emit({ type: 'step_deferred', stepId: id });
  };

  async function conclude(): Promise<RunResult> {
    if (draft.status === 'running') {
      const unfinished = (draft.plan?.steps ?? []).filter((step) => !isTerminal(step.id));
      const pending = unfinished.flatMap((step) => {
        const state = draft.steps[step.id];
        return state?.deferred && state.pending ? [state.pending] : [];
      });
      const failed = Object.values(draft.steps).filter((step) => step.status === 'failed');
      if (halted !== undefined) emit({ type: 'run_failed', reason: halted });
      else if (control.signal.aborted && unfinished.length > 0) {
        emit({ type: 'run_cancelled', reason: messageOf(control.signal.reason), ...(isRunInterruption(control.signal.reason) ? { interrupted: true as const } : {}) });
      }
      else if (pending.length > 0) emit({ type: 'run_waiting', pending });
      else if (failed.length > 0) {
        const replan = failed.filter((step) => step.replanRequested).map((step) => step.id);
        emit({
          type: 'run_failed',
          reason: `Step${failed.length > 1 ? 's' : ''} ${failed.map((step) => step.id).join(', ')} failed${replan.length > 0 ? `; a repair plan was requested for ${replan.join(', ')}` : ''}.`,
        });
      } else if (unfinished.length > 0) {
        emit({ type: 'run_failed', reason: `Steps ${unfinished.map((step) => step.id).join(', ')} could not start.` });
      } else emit({ type: 'run_completed' });
    }
    await journal.flush(cloneRunState(draft));
    return toResult(draft, journal.failure);
  }

  pump();
  return done;
}

/** A pending request known only by its kind and prompt. */
function promptRequest(stepId: string, kind: RequestKind, prompt: string): PendingRequest {
  const fingerprint = fingerprintPrompt(kind, prompt);
  return { id: requestIdOf(stepId, fingerprint), fingerprint, stepId, kind, prompt };
}

/** The public result of a run from its final state. */
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
      totalDurationMs: state.startedAt !== undefined && state.endedAt !== undefined ? state.endedAt - state.startedAt : 0,
      executionAttempts: Object.values(steps).reduce((sum, step) => sum + step.attempts, 0),
      replanCount: 0,
      replanHistory: [],
      replanRequests: Object.values(steps).filter((step) => step.replanRequested).map((step) => step.id),
      ...(state.reason === undefined ? {} : { reason: state.reason }),
      warnings: journalFailure === undefined ? [...state.warnings] : [...state.warnings, journalFailure],
      resumeCount: state.resumeCount,
    },
  };
}

/** Rejects with the signal's reason as soon as it aborts, whatever `promise` does. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/**
 * Whether another attempt of a step that threw `error` may succeed: not after a
 * `StepFailure` that says otherwise, nor after a model error that is not transient (refused
 * credentials, a rejected request, an unknown model: the next attempt would be refused too).
 */
function isRetryable(error: unknown): boolean {
  if (error instanceof StepFailure) return error.retryable;
  if (isLlmError(error)) return error.transient;
  return true;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
