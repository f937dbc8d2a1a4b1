import { performedBy } from '../plan/stepKindTraits';
import type { AgentChanges } from '../text/agentChanges';
import type { Step } from '../plan/planSchema';
import { isBudgetExceededError } from '../llm/budget';
import { isLlmError } from '../llm/llmError';
import { capText, capValue, textCaps } from '../text/capText';
import { boundedFeedback, feedbackInstruction } from '../tools/approvalFeedback';
import { isApprovalRejectedError } from '../tools/approvals';
import { isDeferredError, type RequestKind } from '../tools/deferral';
import { stepExecutors } from './executors/stepExecutors';
import { maxProgressChars, type ExecuteContext, type PreparedInput } from './executors/stepExecutor';
import { StepFailure } from '../tools/stepFailure';
import { toolContextFor } from './executors/toolContextFor';
import type { ToolContext } from '../tools/tool';
import { decideAfterFailure, type FailureCause } from './failurePolicy';
import { attemptLimit } from '../plan/attemptLimit';
import { journaledEffects } from './journaledEffects';
import type { PendingChanges } from './pendingChanges';
import { stepChecks, type StepChecks } from './runChecks';
import { stepCommandLog } from './stepCommandLog';
import { reviewStep, reviewWanted } from './reviewStep';
import { withModel } from '../llm/modelRoles';
import { shapeResult } from './shapeResult';
import { fingerprintPrompt, requestIdOf } from './requestFingerprint';
import { requestedEventOf, type CheckResult, type PendingRequest, type RunEventBody, type RunState } from './runEvents';
import type { ResolvedRunOptions } from './runOptions';
import type { RunStop } from './runStop';
import type { RetryNote } from '../interactionPorts';
import { createStepInteraction, type StepInteraction } from './stepInteraction';
import { withinStepTimeout } from './stepTimeout';
import { progressThrottle } from './progressThrottle';
import { resultTextFor } from './executors/referenceTexts';
import { errorMessage } from '../../shared/errorMessage';
import type { AgentTranscript } from '../agent/agentTranscript';
import { agentTurnJournal, continuedConversation } from './agentTurnJournal';

/** A critical step's failure that stops the run: "Critical step S failed: <detail>". */
export interface CriticalHalt {
  detail: string | undefined;
}

/**
 * What the loop does once a step settled: start what waited on it, or skip what depends on
 * it (naming it: a rejection's reason stays on the step rejected) and, with `halt`, stop the run.
 */
export type StepSettlement = { kind: 'completed' } | { kind: 'dropped'; halt?: CriticalHalt };

/** What a step's attempts need from the run. */
export interface StepRun {
  runId: string;
  options: ResolvedRunOptions;
  /** The live run state (results, answers given at resume), updated in place as events are applied; read it, never change it. */
  state: Readonly<RunState>;
  /** Applies, journals and publishes one event of this step. */
  emit: (body: RunEventBody) => void;
  /** The run's stop: attempts end at once when it stops, and the step then emits nothing more (but the changes that land). */
  stop: RunStop;
  /** The run's file changes under way; the run ends once they have settled. */
  pendingChanges: PendingChanges;
  /** Resolves once every event emitted so far went to the journal: `false` when the store refused them. */
  flush(): Promise<boolean>;
  /**
   * Called at most once, right after the step's last event (no other step's event in
   * between): when it completed, or ended without a result (skipped, rejected, failed).
   * Not called while it waits on a request, nor once the run stopped.
   */
  settle(settlement: StepSettlement): void;
  /** The conversation of the step's agent attempt a stop interrupted (a resumed run): its first attempt continues it. */
  interrupted?: AgentTranscript;
}

interface AttemptFailure {
  message: string;
  cause: FailureCause;
  retryable: boolean;
  /** Why another attempt would not help, said when the step had attempts left (see `StepFailure`). */
  notRetried?: string | undefined;
  /** What the next attempt is told instead of `message` (the user's feedback on a rejected change, with what to do about it). */
  diagnosis?: string;
}

/** How one attempt ended: a result, a failure worth a policy decision, or the step is settled already. */
type AttemptEnd = { kind: 'result'; result: unknown; tools: () => ToolContext } | { kind: 'failure'; failure: AttemptFailure } | { kind: 'settled' };

/**
 * Runs `step` to its end: resolves its input, checks its `when` condition once, then runs
 * attempts (each one `step_started`, the executor within the step's `timeoutMs`, then its
 * `verification`) until one completes or its failure policy says no more, sleeping the
 * backoff on `options.clock` between attempts. A denied approval skips the step, a deferral
 * or a used-up LLM budget leaves it waiting on its request.
 */
export async function attemptStep(step: Step, stepRun: StepRun): Promise<void> {
  const checks = stepChecks(step, stepRun);
  const run = checks?.run ?? stepRun;
  const { options, state, emit } = run;
  const signal = run.stop.signal;
  const executor = stepExecutors[step.kind];
  const depends: Record<string, unknown> = {};
  for (const dependency of step.dependsOn) depends[dependency] = state.results[dependency];
  // A run resumed after the user rejected a change with feedback gives it to the step's first attempt.
  let diagnosis = feedbackOf(step.id, state);
  const resultText = resultTextFor(options.plan, options.tools);
  for (let attempt = 1; ; attempt++) {
    const prepared = executor.prepare({ step, plan: options.plan, results: state.results, resultText, diagnosis });
    if (attempt === 1) {
      warnUnresolved(step, prepared, run);
      // Only a condition is awaited: a step without one starts in the same turn.
      if (step.when !== undefined && !(await conditionHolds(step, step.when, prepared, depends, run))) return;
    }
    const continued = attempt === 1 ? continuedConversation(step, run.interrupted, options) : undefined;
    emit({ type: 'step_started', stepId: step.id, attempt, input: prepared.input, ...(continued === undefined ? {} : { continues: true }) });
    const end = await executeAttempt(step, attempt, diagnosis, depends, prepared, run, continued);
    if (end.kind === 'settled') return;
    const failure = end.kind === 'result' ? await completeIfVerified(step, attempt, prepared, end, depends, run, checks) : end.failure;
    if (failure === undefined) return;
    diagnosis = failure.diagnosis ?? (failure.cause === 'verification' ? failure.message : undefined);
    const delayMs = concludeFailure(step, attempt, failure, run);
    if (delayMs === undefined) return;
    try {
      await options.clock.sleep(delayMs, signal);
    } catch {
      return;
    }
    // Stryker disable next-line ConditionalExpression: the sleep rejects once the run stops; this catches only a stop in the same turn as its end.
    if (signal.aborted) return;
  }
}

/** Warns once per placeholder of the input that no result fills (it stays verbatim). */
function warnUnresolved(step: Step, prepared: PreparedInput, run: StepRun): void {
  for (const placeholder of prepared.unresolved.length > 0 ? new Set(prepared.unresolved) : []) {
    run.emit({ type: 'step_warning', stepId: step.id, message: `The placeholder ${placeholder} has no result to insert and stays verbatim.` });
  }
}

/**
 * Evaluates the step's `when` condition; false when the step is settled (skipped as not
 * needed, with the condition's own string as the reason when it returned one, or failed
 * as the condition broke) or the run stopped.
 */
async function conditionHolds(step: Step, when: string, prepared: PreparedInput, depends: Record<string, unknown>, run: StepRun): Promise<boolean> {
  // Stryker disable next-line ObjectLiteral: only the time a runaway condition may take changes (unit tests use no real timers).
  const condition = await run.options.predicates(when, { input: prepared.input, depends }, { timeoutMs: run.options.predicateTimeoutMs });
  if (run.stop.signal.aborted) return false;
  if (condition.kind === 'fail') {
    // A condition that says why in its own words ("`pytest -q` passed, nothing to fix") is the reason the step is not needed.
    const reason = condition.stated ? condition.diagnosis : `its condition \`${when}\` is not met`;
    run.emit({ type: 'step_skipped', stepId: step.id, reason, cause: 'condition' });
    run.settle({ kind: 'dropped' });
    return false;
  }
  if (condition.kind === 'error') {
    concludeFailure(step, 1, { message: `The step's condition could not be evaluated: ${condition.message}`, cause: 'error', retryable: false }, run);
    return false;
  }
  return true;
}

/** A step's effects journaled after a stop too: they happened, and the run waits for them before it ends (`PendingChanges`). */
const stopProof: ReadonlySet<RunEventBody['type']> = new Set(['file_changed', 'model_requested', 'model_called', 'model_failed']);

/** Runs the executor once with the step's interaction, effects and output journaled; a suspension or a rejection settles the step here. */
async function executeAttempt(
  step: Step,
  attempt: number,
  diagnosis: string | undefined,
  depends: Record<string, unknown>,
  prepared: PreparedInput,
  run: StepRun,
  continued: AgentTranscript | undefined,
): Promise<AttemptEnd> {
  const { runId, options, state, emit } = run;
  const signal = run.stop.signal;
  const id = step.id;
  const retry = attempt > 1 ? retryOf(step, attempt, state.steps[id]?.error) : undefined;
  const interaction = createStepInteraction(id, options.interaction, () => state.supplied, emit, signal, retry, performedBy(step.kind, 'model'));
  const journal = (body: RunEventBody): void => {
    if (!signal.aborted) emit(body);
  };
  let outputLeft: number = textCaps.output;
  const withheld = new Set<string>();
  let executed: ExecuteContext | undefined;
  const progress = progressThrottle(options.clock, ({ message, percent }) =>
    journal({ type: 'step_progress', stepId: id, message, ...(percent === undefined ? {} : { percent }) }),
  );
  try {
    const result = await withinStepTimeout(step, run.stop, options.clock, (attemptSignal) =>
      stepExecutors[step.kind].execute(
        (executed = {
          runId,
          step,
          plan: options.plan,
          attempt,
          diagnosis,
          depends,
          signal: attemptSignal,
          interaction,
          // A change that lands after a stop is still reported, and a model call's end: they happened (the run waits for them).
          options: journaledEffects(options, id, (body) => (stopProof.has(body.type) ? emit(body) : journal(body)), run.pendingChanges, () => run.flush()),
          output: (text) => {
            if (signal.aborted || outputLeft < 0) return;
            const kept =
              text.length <= outputLeft ? text : `${text.slice(0, outputLeft)}\n… (output cut: more than ${textCaps.output} characters in this attempt)\n`;
            // Below zero once cut: the rest of the attempt's output is dropped.
            outputLeft -= text.length;
            emit({ type: 'step_output', stepId: id, text: kept });
          },
          progress: (message, percent) => progress.report(capText(message, maxProgressChars).replace(/\s+/g, ' '), percent),
          compacted: (report) => journal({ type: 'context_compacted', ...report }),
          state: () => state,
          withheld: (path) => {
            if (withheld.has(path)) return;
            withheld.add(path);
            journal({ type: 'file_withheld', stepId: id, path });
          },
          commandLog: stepCommandLog(id, () => state, journal, () => run.flush()),
          agentJournal: agentTurnJournal(id, continued, journal, () => run.flush()),
        }),
        prepared.input,
      ),
    );
    const context = executed!;
    return { kind: 'result', result, tools: () => toolContextFor({ ...context, signal }) };
  } catch (error) {
    return signal.aborted ? { kind: 'settled' } : classifyError(step, error, interaction, run, retry);
  } finally {
    progress.close();
  }
}

/** What an attempt's error means: a budget pause, a suspension, a rejection (each settled here), or a failure. */
function classifyError(step: Step, error: unknown, interaction: StepInteraction, run: StepRun, retry: RetryNote | undefined): AttemptEnd {
  // The step asked through its interaction and the user deferred: the request is journaled already.
  if (interaction.deferredKind !== undefined) return { kind: 'settled' };
  if (isBudgetExceededError(error)) {
    // The budget ran out before this step's next model call: it waits for "continue" like an approval.
    run.emit({ type: 'budget_exhausted', stepId: step.id, request: promptRequest(step.id, 'budget', error.message), usage: error.usage });
    run.emit({ type: 'step_deferred', stepId: step.id });
    return { kind: 'settled' };
  }
  if (isDeferredError(error)) {
    // Deferred without asking through the interaction: the step waits on a request made of the error's message.
    const request = promptRequest(step.id, error.kind, capText(error.message, textCaps.message));
    run.emit({ type: requestedEventOf[error.kind], stepId: step.id, request });
    run.emit({ type: 'step_deferred', stepId: step.id });
    return { kind: 'settled' };
  }
  const lastError = run.state.steps[step.id]?.error;
  if (isApprovalRejectedError(error) && retry !== undefined && lastError !== undefined) {
    // A retry the user refused: the step failed for the reason before it, which the summary must still say (item 6 of issue 28).
    const refusal = `Its retry (attempt ${retry.attempt} of ${retry.of}) was rejected by you${error.reason ? `: ${error.reason}` : ''}.`;
    return { kind: 'failure', failure: { message: withNote(lastError, refusal), cause: 'error', retryable: false } };
  }
  if (isApprovalRejectedError(error)) {
    settleRejected(step, `Rejected by you${error.reason ? `: ${error.reason}` : ''}`, run);
    return { kind: 'settled' };
  }
  const notRetried = error instanceof StepFailure ? error.notRetried : undefined;
  return { kind: 'failure', failure: { message: errorMessage(error), cause: 'error', retryable: isRetryable(error), notRetried } };
}

/**
 * A rejection by the user skips the step (never retried) and its dependents, critical or not: the other steps go on (a
 * "no" to one change is not a Cancel of the run), and the run ends partly done.
 */
function settleRejected(step: Step, why: string, run: StepRun): void {
  run.emit({ type: 'step_skipped', stepId: step.id, reason: why, cause: 'rejected' });
  run.settle({ kind: 'dropped' });
}

/**
 * Completes the step with what the executor produced when every layer of verification
 * accepts it: its shape (`shapeResult`: the output schema, an agent's changes), its checks,
 * its `verification` predicate, its review; else returns the failure. `undefined` once the
 * step completed or settled (every change rejected), or the run stopped meanwhile.
 */
async function completeIfVerified(
  step: Step,
  attempt: number,
  prepared: PreparedInput,
  { result: produced, tools }: { result: unknown; tools: () => ToolContext },
  depends: Record<string, unknown>,
  run: StepRun,
  checks: StepChecks<StepRun> | undefined,
): Promise<AttemptFailure | undefined> {
  const shaped = shapeResult(step, produced);
  if (shaped.kind === 'feedback') return { message: shaped.message, diagnosis: shaped.diagnosis, cause: 'error', retryable: true };
  if (shaped.kind === 'rejected') {
    settleRejected(step, shaped.reason, run);
    return undefined;
  }
  if (shaped.kind === 'mismatch') {
    run.emit({ type: 'verification_failed', stepId: step.id, attempt, diagnosis: shaped.diagnosis, ...returned(produced) });
    return { message: shaped.diagnosis, cause: 'verification', retryable: true };
  }
  const result = shaped.result;
  const checked = checks === undefined ? undefined : await checks.evaluate(attempt);
  if (checked !== undefined) {
    if (run.stop.signal.aborted) return undefined;
    if (checked.failure !== undefined) {
      run.emit({ type: 'verification_failed', stepId: step.id, attempt, diagnosis: checked.failure.diagnosis, ...returned(result) });
      return { message: checked.failure.diagnosis, cause: 'verification', retryable: checked.failure.retryable };
    }
  }
  if (step.verification !== undefined) {
    const bindings = { input: prepared.input, result, depends, checks: checked?.outcomes ?? [] };
    const verdict = await run.options.predicates(step.verification, bindings, { timeoutMs: run.options.predicateTimeoutMs });
    if (run.stop.signal.aborted) return undefined;
    if (verdict.kind === 'fail') {
      run.emit({ type: 'verification_failed', stepId: step.id, attempt, diagnosis: verdict.diagnosis, ...returned(result) });
      return { message: verdict.diagnosis, cause: 'verification', retryable: true };
    }
    if (verdict.kind === 'error') return { message: verdict.message, cause: 'error', retryable: true };
  }
  const review = await reviewIfWanted(step, attempt, prepared, shaped, checked?.outcomes, run);
  if (review !== 'passed') return review === 'settled' ? undefined : review;
  // Without work to do after it, the step completes in this same turn, as it always did (a halt meanwhile cannot drop it).
  const after = startEpilogue(step, tools, run);
  if (after !== undefined) {
    await after;
    if (run.stop.signal.aborted) return undefined;
  }
  run.emit({
    type: 'step_completed',
    stepId: step.id,
    result: result === undefined ? null : capValue(result, textCaps.result),
    ...(shaped.changes === undefined ? {} : { changes: shaped.changes }),
  });
  run.settle({ kind: 'completed' });
  return undefined;
}

/** Starts the host's `stepEpilogue`; `undefined` when it has nothing to do. What it could not do is a warning of the step, never its failure. */
function startEpilogue(step: Step, tools: () => ToolContext, run: StepRun): Promise<void> | undefined {
  const work = run.options.stepEpilogue;
  const warn = (error: unknown): void => {
    if (!run.stop.signal.aborted) run.emit({ type: 'step_warning', stepId: step.id, message: capText(errorMessage(error), textCaps.message) });
  };
  try {
    return work?.(step, tools(), run.stop.signal, run.state)?.catch(warn);
  } catch (error) {
    warn(error);
    return undefined;
  }
}

/** What a failed attempt returned, for its `verification_failed` (the replanner is shown it): capped, absent when nothing was. */
function returned(value: unknown): { result?: unknown } {
  return value === undefined ? {} : { result: capValue(value, textCaps.failedResult) };
}

/**
 * The last layer: a model's review of the result when the step wants one (`reviewWanted`).
 * A failing verdict is a verification failure with its diagnosis; no usable verdict or a
 * model error fails the attempt; a used-up budget pauses the step like any model call.
 * Without a model, a step that asked for review fails and one reviewed by the run's setting
 * completes with a warning.
 */
async function reviewIfWanted(
  step: Step,
  attempt: number,
  prepared: PreparedInput,
  shaped: { result: unknown; changes?: AgentChanges },
  checks: readonly CheckResult[] | undefined,
  run: StepRun,
): Promise<'passed' | 'settled' | AttemptFailure> {
  const { options } = run;
  if (!reviewWanted(step, options.reviewCriticalSteps)) return 'passed';
  if (options.llm === undefined) {
    if (step.review === true) {
      return {
        message: `Step ${step.id} asks for a model's review of its result, and this run has no model. ${options.noModelHint}`,
        cause: 'error',
        retryable: false,
      };
    }
    run.emit({ type: 'step_warning', stepId: step.id, message: 'Not reviewed: the run has no model for the review of critical steps.' });
    return 'passed';
  }
  // Its call's end is journaled after a stop too: the run waits for it, as for the step's own calls.
  const llm = journaledEffects(options, step.id, run.emit, run.pendingChanges, () => run.flush()).llm ?? options.llm;
  try {
    const review = await reviewStep(withModel(llm, options.models.reviewer), {
      plan: options.plan,
      step,
      capabilities: options.capabilities,
      input: prepared.input,
      result: shaped.result,
      ...(shaped.changes === undefined ? {} : { changes: shaped.changes }),
      ...(checks === undefined ? {} : { checks }),
      signal: run.stop.signal,
    });
    if (run.stop.signal.aborted) return 'settled';
    if (review.kind === 'pass') return 'passed';
    if (review.kind === 'unusable') return { message: review.message, cause: 'error', retryable: true };
    run.emit({ type: 'verification_failed', stepId: step.id, attempt, diagnosis: review.diagnosis, ...returned(shaped.result) });
    return { message: review.diagnosis, cause: 'verification', retryable: true };
  } catch (error) {
    if (run.stop.signal.aborted) return 'settled';
    if (isBudgetExceededError(error)) {
      run.emit({ type: 'budget_exhausted', stepId: step.id, request: promptRequest(step.id, 'budget', error.message), usage: error.usage });
      run.emit({ type: 'step_deferred', stepId: step.id });
      return 'settled';
    }
    return { message: `The review of step ${step.id} could not be done: ${errorMessage(error)}`, cause: 'error', retryable: isRetryable(error) };
  }
}

/**
 * Emits the failure and settles the step unless another attempt follows; returns that
 * attempt's backoff delay. A failure no attempt can change that says why (`notRetried`),
 * of a step that had attempts left, says so at the end of its first line.
 */
function concludeFailure(step: Step, attempt: number, uncapped: AttemptFailure, run: StepRun): number | undefined {
  const decision = decideAfterFailure(step, attempt, uncapped.cause, uncapped.retryable, run.options.backoff);
  const forgone =
    !uncapped.retryable &&
    uncapped.notRetried !== undefined &&
    decideAfterFailure(step, attempt, uncapped.cause, true, run.options.backoff).disposition === 'retry';
  const message = forgone ? withNote(uncapped.message, `Not retried: ${uncapped.notRetried ?? ''}`) : uncapped.message;
  const failure = { ...uncapped, message: capText(message, textCaps.message) };
  run.emit({
    type: 'step_failed',
    stepId: step.id,
    attempt,
    error: failure.message,
    disposition: decision.disposition,
    ...(decision.disposition === 'retry' ? { retryInMs: decision.delayMs } : {}),
    ...(decision.disposition === 'fail' && decision.replan ? { replan: true } : {}),
  });
  if (decision.disposition === 'retry') return decision.delayMs;
  // Stryker disable next-line ConditionalExpression: only a 'fail' decision has a halt (undefined otherwise); the test narrows the type.
  const halts = decision.disposition === 'fail' && decision.halt;
  run.settle({ kind: 'dropped', ...(halts ? { halt: { detail: failure.message } } : {}) });
  return undefined;
}

/** `message` with `note` after its first line's sentence, where a cut of a long output cannot drop it. */
function withNote(message: string, note: string): string {
  const end = message.indexOf('\n');
  return end < 0 ? `${message} ${note}` : `${message.slice(0, end)} ${note}${message.slice(end)}`;
}

/** Attempt `attempt` of `step` after one that failed with `lastError` (absent when none was recorded), as its approvals show it. */
function retryOf(step: Step, attempt: number, lastError: string | undefined): RetryNote {
  return { attempt, of: attemptLimit(step, step.onFailure), ...(lastError === undefined ? {} : { lastError: capText(lastError, maxRetryErrorChars) }) };
}

/** Most characters of the last attempt's error an approval of a retry shows (the rest is in the step's output). */
const maxRetryErrorChars = 2_000;

/**
 * The feedback the user gave with a rejection of this step that the run has not acted on
 * yet (journaled with the answer, or given to a resume with `--reject STEP=REASON`), as
 * the first attempt's diagnosis; `undefined` when there is none.
 */
function feedbackOf(stepId: string, state: Readonly<RunState>): string | undefined {
  const supplied = Object.values(state.supplied).find(
    (answer) => answer.stepId === stepId && answer.kind === 'approval' && answer.decision.feedback !== undefined,
  );
  const given = supplied?.kind === 'approval' ? boundedFeedback(supplied.decision.feedback) : undefined;
  // The journal is the workspace's: what it says is bounded again.
  const feedback = boundedFeedback(state.steps[stepId]?.feedback) ?? given;
  return feedback === undefined ? undefined : feedbackInstruction(feedback);
}

/** A pending request known only by its kind and prompt. */
function promptRequest(stepId: string, kind: RequestKind, prompt: string): PendingRequest {
  const fingerprint = fingerprintPrompt(kind, prompt);
  return { id: requestIdOf(stepId, fingerprint), fingerprint, stepId, kind, prompt };
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
