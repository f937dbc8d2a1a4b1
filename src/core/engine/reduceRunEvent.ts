import type { Plan } from '../plan/planSchema';
import { canonicalJson } from './answerSeals';
import { noBudgetUsage, type BudgetUsage } from '../llm/budget';
import {
  awaitingStatusOf,
  commandKey,
  terminalStepStatuses,
  type JournaledSpending,
  type RunEvent,
  type RunState,
  type SkipCause,
  type StepState,
  type SuppliedAnswer,
  type SuppliedAnswers,
} from './runEvents';
import { describeStepsNotDone, skipCauseOf, stepsNotDone } from './stepsNotDone';
import { doneInSourceLabel } from '../../shared/stepStatusLabels';

/** The state before a run's first event. */
export function initialRunState(runId: string): RunState {
  return {
    runId,
    status: 'running',
    plan: undefined,
    steps: {},
    results: {},
    supplied: emptySupplied(),
    lastSeq: 0,
    warnings: [],
    resumeCount: 0,
  };
}

/** Answers with nothing in them. */
export function emptySupplied(): SuppliedAnswers {
  return {};
}

/**
 * The pure reducer of docs/architecture.md §2: the state after `event`. Neither argument is mutated;
 * the result shares unchanged `StepState` objects with `state`. O(number of steps) per
 * call because the step map is copied; fold many events with `foldRunEvents`.
 */
export function reduceRunEvent(state: RunState, event: RunEvent): RunState {
  const next = cloneRunState(state);
  applyRunEvent(next, event);
  return next;
}

/** Folds events in order onto `initial` (default: a fresh state for the first event's run). */
export function foldRunEvents(events: readonly RunEvent[], initial?: RunState): RunState {
  const first = events[0];
  const draft = initial ? cloneRunState(initial) : initialRunState(first?.runId ?? '');
  for (const event of events) applyRunEvent(draft, event);
  return draft;
}

/**
 * A copy that owns its top-level maps; `StepState` objects are shared, which is safe
 * because `applyRunEvent` replaces step states instead of mutating them.
 */
export function cloneRunState(state: RunState): RunState {
  return { ...state, steps: { ...state.steps }, results: { ...state.results }, warnings: [...state.warnings] };
}

/**
 * Applies `event` to `draft` in place. Only for a draft whose top-level maps the caller
 * owns (from `cloneRunState` or `initialRunState`); step states are replaced, never mutated.
 */
export function applyRunEvent(draft: RunState, event: RunEvent): void {
  draft.lastSeq = event.seq;
  const previousAt = draft.lastEventAt;
  draft.lastEventAt = event.time;
  const update = (stepId: string, patch: Partial<StepState>): void => {
    const current = draft.steps[stepId] ?? { id: stepId, status: 'pending', attempts: 0 };
    const next: StepState = { ...current, ...patch };
    for (const key in patch) if (next[key as keyof StepState] === undefined) delete next[key as keyof StepState];
    draft.steps[stepId] = next;
  };
  const finish = (stepId: string, patch: Partial<StepState>): void => {
    const startedAt = draft.steps[stepId]?.startedAt;
    patch.endedAt = event.time;
    patch.pending = undefined;
    patch.progress = undefined;
    patch.percent = undefined;
    if (startedAt !== undefined) patch.durationMs = event.time - startedAt;
    update(stepId, patch);
    forgetSupplied(draft, stepId);
  };
  switch (event.type) {
    case 'run_started':
      draft.plan = event.plan;
      draft.status = 'running';
      draft.startedAt = event.time;
      draft.steps = {};
      draft.results = {};
      if (event.replanHistory === undefined) delete draft.replanHistory;
      else draft.replanHistory = event.replanHistory;
      for (const step of event.plan.steps) {
        draft.steps[step.id] = { id: step.id, status: step.dependsOn.length > 0 ? 'blocked' : 'pending', attempts: 0 };
      }
      return;
    case 'plan_generated':
      // Only the journal keeps it: how the plan was made changes nothing in the run's state.
      return;
    case 'run_resumed': {
      // Stopped at its end (waiting, interrupted, …) or, killed, at its last event: that stretch was no work of the run.
      const stoppedAt = draft.endedAt ?? previousAt;
      if (stoppedAt !== undefined && event.time > stoppedAt) draft.pauses = [...(draft.pauses ?? []), { from: stoppedAt, to: event.time }];
      draft.status = 'running';
      draft.resumeCount += 1;
      delete draft.endedAt;
      delete draft.reason;
      draft.supplied = { ...boundAnswers(draft.supplied), ...boundAnswers(event.supplied) };
      if (event.journalWarning !== undefined) draft.warnings.push(event.journalWarning);
      if (event.warnings !== undefined) draft.warnings.push(...event.warnings);
      resetUnfinishedSteps(draft, stoppedAt);
      return;
    }
    case 'replan_completed':
      replacePlan(draft, event.plan);
      return;
    case 'replan_failed':
      // Failed for good now: it ends here, not where the repair plan began to be asked for.
      draft.status = 'failed';
      draft.endedAt = event.time;
      draft.reason = draft.reason === undefined ? event.reason : `${draft.reason} ${event.reason}`;
      draft.repairGivenUp = true;
      return;
    case 'step_ready':
      update(event.stepId, { status: 'ready' });
      return;
    case 'step_started':
      update(event.stepId, {
        status: 'running',
        attempts: event.attempt,
        firstStartedAt: draft.steps[event.stepId]?.firstStartedAt ?? event.time,
        startedAt: event.time,
        // An attempt a stop cut short kept its times (`resetUnfinishedSteps`); this one has not ended.
        endedAt: undefined,
        durationMs: undefined,
        pending: undefined,
        deferred: false,
        progress: undefined,
        percent: undefined,
        commandsStarted: undefined,
      });
      return;
    case 'step_warning':
      draft.warnings.push(`${event.stepId}: ${event.message}`);
      return;
    case 'approval_requested':
    case 'clarification_requested':
    case 'review_requested':
    case 'manual_requested':
      update(event.stepId, { status: awaitingStatusOf[event.request.kind], pending: event.request });
      return;
    case 'budget_exhausted':
      draft.budgetUsage = event.usage;
      update(event.stepId, { status: awaitingStatusOf.budget, pending: event.request });
      return;
    case 'request_answered':
      update(event.stepId, { status: 'running', pending: undefined, ...(event.feedback === undefined ? {} : { feedback: event.feedback }) });
      return;
    case 'step_deferred':
      update(event.stepId, { deferred: true });
      return;
    case 'step_completed':
      draft.results[event.stepId] = event.result;
      if (event.restored === true && draft.steps[event.stepId]?.status === 'completed' && sameResult(draft.steps[event.stepId]?.result, event.result)) {
        // Kept from an earlier run of the execution, whose state already has it as it completed there (a repair run's
        // start, `reduceExecutionEvent`): its times stay that run's. Taken as ending now, a step of 23 s read 1 min 17 s
        // and its timeline bar spanned the whole run after a repair (a trial).
        if (event.keptChanges !== undefined) update(event.stepId, { keptChanges: event.keptChanges });
        return;
      }
      finish(event.stepId, {
        status: 'completed',
        result: event.result,
        deferred: false,
        feedback: undefined,
        ...(event.changes === undefined ? {} : { changes: event.changes }),
        ...(event.keptChanges === undefined ? {} : { keptChanges: event.keptChanges }),
      });
      return;
    case 'verification_failed':
      update(event.stepId, { diagnosis: event.diagnosis });
      return;
    case 'checks_evaluated':
      update(event.stepId, { checks: event.checks });
      return;
    case 'step_failed':
      if (event.disposition === 'retry') {
        update(event.stepId, { error: event.error });
      } else if (event.disposition === 'skip') {
        finish(event.stepId, { status: 'skipped', error: event.error, reason: `failed: ${event.error}`, skipCause: 'failed' });
      } else {
        finish(event.stepId, { status: 'failed', error: event.error, ...(event.replan ? { replanRequested: true } : {}) });
      }
      return;
    case 'step_skipped':
      finish(event.stepId, { status: 'skipped', reason: event.reason, skipCause: skipCauseOfEvent(event) });
      return;
    case 'run_waiting':
      draft.status = 'waiting';
      draft.endedAt = event.time;
      return;
    case 'run_cancelled':
      draft.status = event.interrupted ? 'interrupted' : 'cancelled';
      draft.reason = event.reason;
      draft.endedAt = event.time;
      resetUnfinishedSteps(draft, event.time);
      return;
    case 'run_completed': {
      // Ran through to its end: completed only when every step's work is done (old journals are read the same way).
      const notDone = stepsNotDone(draft);
      if (notDone.failed.length + notDone.rejected.length + notDone.skipped.length > 0) {
        draft.status = 'partial';
        draft.reason = describeStepsNotDone(notDone);
      } else draft.status = 'completed';
      draft.endedAt = event.time;
      return;
    }
    case 'run_failed':
      draft.status = 'failed';
      draft.reason = event.reason;
      draft.endedAt = event.time;
      return;
    case 'step_progress':
      if (!terminalStepStatuses.has(draft.steps[event.stepId]?.status ?? 'pending')) update(event.stepId, { progress: event.message, percent: event.percent });
      return;
    case 'step_output':
      return;
    // An agent's conversation stays in the journal, out of the state every view and snapshot carries: only a resume reads it.
    case 'agent_turn':
    case 'agent_tool_result':
      return;
    case 'replan_started':
      // A repair plan is being asked for: the run goes on (the views showed "failed", and offered Resume, for minutes of a
      // slow model: a trial). No journal keeps this line: read again, the run is failed, awaiting its repair.
      if (draft.status !== 'failed') return;
      draft.status = 'running';
      delete draft.endedAt;
      return;
    case 'context_compacted':
      draft.contextSummary = event.summary;
      return;
    case 'command_started':
      update(event.stepId, { commandsStarted: [...(draft.steps[event.stepId]?.commandsStarted ?? []), commandKey(event.argv, event.cwd)] });
      return;
    case 'file_changed':
      // Folders a run made (for a new file, or create_directory) are journaled for Undo, not counted as changed files.
      if (event.operation !== 'createDirectory' && !(draft.steps[event.stepId]?.filesChanged ?? []).includes(event.path)) {
        update(event.stepId, { filesChanged: [...(draft.steps[event.stepId]?.filesChanged ?? []), event.path] });
      }
      if (event.operation !== 'createDirectory' && !draft.changedFiles?.includes(event.path)) draft.changedFiles = [...(draft.changedFiles ?? []), event.path];
      return;
    case 'file_withheld':
      if (!draft.withheldFiles?.includes(event.path)) draft.withheldFiles = [...(draft.withheldFiles ?? []), event.path];
      return;
    case 'model_requested':
      // Counted as sent until its call says what it spent: a crash or a stop may cut that off.
      addModelUsage(draft, { requests: 1, promptTokens: 0, completionTokens: 0, costUsd: 0 });
      return;
    case 'model_called': {
      const { attempts = 0, retried } = event;
      const unpriced = (event.costUsd === undefined ? 1 : 0) + (retried !== undefined && retried.costUsd === undefined ? retried.requests : 0);
      addModelUsage(draft, sumOf(event, retried, 1 - attempts), { unpriced, cachedTokens: event.cachedTokens ?? 0, savedUsd: event.savedUsd ?? 0 });
      return;
    }
    case 'model_failed':
      addModelUsage(draft, { ...event, requests: event.requests - event.attempts }, { unpriced: event.costUsd === undefined ? event.requests : 0 });
      return;
  }
}

/**
 * Adds model spending to the run's `modelUsage`. `spent.requests` may be negative: a call's end takes back the
 * `model_requested` of its attempts that never reached the server. Its requests count as unpriced when it has no cost.
 */
function addModelUsage(draft: RunState, spent: JournaledSpending, extra: { unpriced?: number; cachedTokens?: number; savedUsd?: number } = {}): void {
  // Spread over zeros: a snapshot written before cached tokens were counted has no cachedTokens nor savedUsd.
  const usage: BudgetUsage = { ...noBudgetUsage, ...draft.modelUsage };
  draft.modelUsage = {
    requests: usage.requests + spent.requests,
    promptTokens: usage.promptTokens + spent.promptTokens,
    completionTokens: usage.completionTokens + spent.completionTokens,
    totalTokens: usage.totalTokens + spent.promptTokens + spent.completionTokens,
    cachedTokens: usage.cachedTokens + (extra.cachedTokens ?? 0),
    costUsd: usage.costUsd + (spent.costUsd ?? 0),
    savedUsd: usage.savedUsd + (extra.savedUsd ?? 0),
    unpricedRequests: usage.unpricedRequests + (extra.unpriced ?? 0),
  };
}

/** A call's reply and its failed attempts together, with `requests` as given. */
function sumOf(reply: Omit<JournaledSpending, 'requests'>, retried: JournaledSpending | undefined, requests: number): JournaledSpending {
  return {
    requests: requests + (retried?.requests ?? 0),
    promptTokens: reply.promptTokens + (retried?.promptTokens ?? 0),
    completionTokens: reply.completionTokens + (retried?.completionTokens ?? 0),
    costUsd: (reply.costUsd ?? 0) + (retried?.costUsd ?? 0),
  };
}

/**
 * Steps that were running, ready or waiting go back to `pending`/`blocked` (they run again), keeping what their next attempt
 * needs; one that had started keeps its start and ends at `stoppedAt` (the run's stop), or where an earlier stop ended it.
 */
function resetUnfinishedSteps(draft: RunState, stoppedAt: number | undefined): void {
  const plan = draft.plan;
  if (!plan) return;
  for (const step of plan.steps) {
    const current = draft.steps[step.id];
    if (current && terminalStepStatuses.has(current.status)) continue;
    const blocked = step.dependsOn.some((id) => draft.steps[id]?.status !== 'completed');
    draft.steps[step.id] = {
      id: step.id,
      status: blocked ? 'blocked' : 'pending',
      attempts: current?.attempts ?? 0,
      ...cutShortTimes(current, stoppedAt),
      ...(current?.error === undefined ? {} : { error: current.error }),
      ...(current?.diagnosis === undefined ? {} : { diagnosis: current.diagnosis }),
      // The user's feedback on a rejected change is acted on by the step's next attempt, after the resume too.
      ...(current?.feedback === undefined ? {} : { feedback: current.feedback }),
      // What it changed stays in the files (until Undo), and its resumed attempt goes on from there: the guards of a
      // whole-file write over it and of a command it defines still name it (a parallel step's write dropped it, both completed).
      ...(current?.filesChanged === undefined ? {} : { filesChanged: current.filesChanged }),
      ...interruptedCommands(current),
    };
  }
}

/** The commands an unfinished step started before the interruption (and earlier ones), which may have run. */
function interruptedCommands(current: StepState | undefined): Pick<StepState, 'commandsInterrupted'> {
  const commands = [...new Set([...(current?.commandsInterrupted ?? []), ...(current?.commandsStarted ?? [])])];
  return commands.length === 0 ? {} : { commandsInterrupted: commands };
}

/** A repair plan keeps completed steps; everything else starts over. */
function replacePlan(draft: RunState, plan: Plan): void {
  const previous = draft.steps;
  const before = draft.plan;
  // What the repair does not keep as it ended (the failed step, steps it dropped) stays visible with its outcome;
  // a step of both plans that never ran (it waited, or was skipped for the failure) is simply still to do.
  const ids = new Set(plan.steps.map((step) => step.id));
  const replaced = (before?.steps ?? []).filter((step) => {
    const state = previous[step.id];
    if (state === undefined) return false;
    return !ids.has(step.id) || (state.status !== 'completed' && state.attempts > 0);
  });
  if (before && replaced.length > 0) {
    draft.replacedSteps = [
      ...(draft.replacedSteps ?? []),
      ...replaced.map((step) => ({ planVersion: before.version, step, state: previous[step.id]! })),
    ];
  }
  draft.plan = plan;
  draft.steps = {};
  for (const step of plan.steps) {
    const kept = previous[step.id];
    draft.steps[step.id] = kept?.status === 'completed' ? kept : { id: step.id, status: 'pending', attempts: 0 };
  }
  for (const id of Object.keys(draft.results)) if (draft.steps[id]?.status !== 'completed') delete draft.results[id];
  resetUnfinishedSteps(draft, undefined);
}

/**
 * Only answers bound to a request: a journal or snapshot written before answers carried
 * fingerprints holds answers by step id, which must never answer whatever the step asks.
 */
function boundAnswers(supplied: SuppliedAnswers | undefined): SuppliedAnswers {
  const bound: SuppliedAnswers = {};
  for (const [id, answer] of Object.entries(supplied ?? {})) {
    const candidate = answer as Partial<SuppliedAnswer> | undefined;
    if (typeof candidate?.fingerprint === 'string' && typeof candidate.stepId === 'string' && typeof candidate.kind === 'string') bound[id] = answer;
  }
  return bound;
}

function forgetSupplied(draft: RunState, stepId: string): void {
  const ids = Object.keys(draft.supplied);
  if (ids.length === 0 || !ids.some((id) => draft.supplied[id]?.stepId === stepId)) return;
  draft.supplied = Object.fromEntries(Object.entries(draft.supplied).filter(([, answer]) => answer.stepId !== stepId));
}

/**
 * What made the step of `event` skipped: its cause, read from its reason in journals written before causes were recorded;
 * journals written before the cause `source` skipped a task done in its file as `plan`, saying so in the reason.
 */
function skipCauseOfEvent(event: { reason: string; cause?: SkipCause | undefined }): SkipCause {
  if (event.cause === 'plan' && event.reason === doneInSourceLabel) return 'source';
  return event.cause ?? skipCauseOf(event.reason);
}

/**
 * The times of the attempt of `current` a stop cut short: its start, and its end at `stoppedAt` or where an earlier stop
 * ended it (a later stop does not stretch it); none for a step that had not started. Its bar stays in the timeline (an
 * editor trial saw it vanish on Cancel).
 */
function cutShortTimes(current: StepState | undefined, stoppedAt: number | undefined): Pick<StepState, 'startedAt' | 'endedAt' | 'durationMs'> {
  const startedAt = current?.startedAt;
  if (startedAt === undefined) return {};
  const endedAt = current?.endedAt ?? stoppedAt;
  return endedAt === undefined ? { startedAt } : { startedAt, endedAt, durationMs: endedAt - startedAt };
}

/**
 * Whether a restored result is the one a step completed with (the same value, or the same JSON whatever its keys' order:
 * `canonicalJson`): one that differs is taken as the step's completion now, so the step and its dependents never read
 * two results (an attack).
 */
function sameResult(kept: unknown, restored: unknown): boolean {
  if (Object.is(kept, restored)) return true;
  try {
    return canonicalJson(kept) === canonicalJson(restored);
  } catch {
    // A value no JSON can hold (a cycle) is no journaled result.
    return false;
  }
}
