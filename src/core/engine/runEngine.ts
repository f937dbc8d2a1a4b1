import type { Step } from '../plan/planSchema';
import { PositionHeap } from '../plan/positionHeap';
import { doneInSourceFile } from '../plan/originTick';
import { doneInSourceLabel } from '../../shared/stepStatusLabels';
import { RunEventSink } from './runEventSink';
import type { ResolvedRunOptions, RunResult } from './runOptions';
import { terminalStepStatuses, type RunEvent, type RunEventBody, type RunState } from './runEvents';
import { PendingChanges } from './pendingChanges';
import { RunStop } from './runStop';
import { stepWriteScope } from './stepWriteScope';
import { writeScopesOverlap, type WriteScope } from '../workspace/writeScope';
import { buildPlanGraph, comparePriority, dependentsToSkip, failedDependency, unmetDependencies, type PlanGraph } from './scheduler';
import type { AgentTranscript } from '../agent/agentTranscript';
import { attemptStep, type CriticalHalt, type StepRun, type StepSettlement } from './stepAttempt';
import { criticalHaltReason } from './criticalHalt';
import { errorMessage } from '../../shared/errorMessage';

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
  /** Emitted right after the opening (a resumed run's changes that landed before the crash). */
  afterOpening?: readonly RunEventBody[];
  initialResults?: Readonly<Record<string, unknown>>;
  /** The files each step of `initialResults` changed in the run it was kept from (`RunInputs.keptChanges`). */
  keptChanges?: Readonly<Record<string, readonly string[]>>;
  /** When set, the run fails at once with this reason (e.g. an invalid plan). */
  preflightError?: string;
  /** In a resumed run, the conversations of the agent attempts the stop interrupted, by step id (`interruptedAgents`). */
  interruptedAgents?: ReadonlyMap<string, AgentTranscript>;
}

/** Runs one step to its end for the loop: `attemptStep`, or a stand-in in the loop's own tests. */
export type StepRunner = (step: Step, run: StepRun) => Promise<void>;

/**
 * Runs a plan from `setup` to its end (completed, failed, cancelled, or waiting on requests).
 * The loop is a ready-queue scheduler over the plan's DAG: a step starts as soon as its
 * dependencies are completed and one of `maxConcurrency` slots is free, highest priority
 * (longest remaining path) first, unless it may change a file a running step may change
 * (`stepWriteScope`: then it waits for that step); `runStep` runs it and settles it back to the loop, which
 * then starts its dependents or skips them (halting the run after a critical step).
 * Cancellation stops every running step at once. Time comes only from `options.clock`.
 */
export function executeRun(setup: EngineSetup, control: RunControl, runStep: StepRunner = attemptStep): Promise<RunResult> {
  control.exposeState(() => setup.state);
  const sink = new RunEventSink(setup.runId, setup.state, setup.options, control.listeners);
  sink.emit(setup.opening);
  for (const body of setup.afterOpening ?? []) sink.emit(body);
  if (setup.preflightError !== undefined) {
    sink.emit({ type: 'run_failed', reason: setup.preflightError });
    return sink.finish({});
  }
  // No step starts before the run's opening is stored: a crash in between would leave changes (their intents are
  // recorded apart, as checkpoints) of a run whose journal has no plan to resume it by.
  return sink.flush().then(() => new RunLoop(setup, control, sink, runStep).run());
}

class RunLoop {
  private readonly options: ResolvedRunOptions;
  /** The run's state, updated in place by every event. */
  private readonly draft: RunState;
  private readonly emit: (body: RunEventBody) => void;
  private readonly stepById: Map<string, Step>;
  private readonly graph: PlanGraph;
  /** Step ids by rank (0 = best candidate); the ready queue holds ranks. */
  private readonly byRank: string[];
  private readonly rankOf: Map<string, number>;
  /** Where each step may change files: steps whose scopes overlap never run at once. */
  private readonly scopes: Map<string, WriteScope>;
  private readonly queue = new PositionHeap();
  /** Dependencies not yet completed, per step not yet ready. */
  private readonly remaining = new Map<string, number>();
  private readonly inFlight = new Set<string>();
  // One stop for every running step (a cancel or a critical halt), instead of one
  // AbortController per step: with thousands of steps those dominate the engine's cost.
  private readonly stop = new RunStop();
  private readonly pendingChanges = new PendingChanges();
  private halted: string | undefined;
  /** The critical step whose end halted the run. */
  private haltedBy: string | undefined;
  private resolveFinished: (result: RunResult) => void = () => undefined;
  private readonly onCancel = (): void => this.stop.stop(this.control.signal.reason);

  constructor(
    private readonly setup: EngineSetup,
    private readonly control: RunControl,
    private readonly sink: RunEventSink,
    private readonly runStep: StepRunner,
  ) {
    this.options = setup.options;
    this.draft = setup.state;
    this.emit = sink.emit;
    this.stepById = new Map(setup.options.plan.steps.map((step) => [step.id, step]));
    const cost = setup.options.stepCost;
    this.graph = buildPlanGraph(setup.options.plan, (id) => {
      const step = this.stepById.get(id);
      return step && cost ? cost(step) : 1;
    });
    this.byRank = [...this.graph.order].sort((a, b) => comparePriority(this.graph, a, b));
    this.scopes = new Map(setup.options.plan.steps.map((step) => [step.id, stepWriteScope(step, setup.options.plan, setup.options.tools)]));
    this.rankOf = new Map(this.byRank.map((id, rank) => [id, rank]));
  }

  run(): Promise<RunResult> {
    this.restore();
    const done = new Promise<RunResult>((resolve) => {
      this.resolveFinished = resolve;
    });
    // Stryker disable next-line ObjectLiteral: an abort fires once anyway, and the listener is removed when the run ends.
    this.control.signal.addEventListener('abort', this.onCancel, { once: true });
    this.pump();
    return done;
  }

  private isTerminal(id: string): boolean {
    // Stryker disable next-line OptionalChaining: every step of the plan has a state once run_started or run_resumed is applied.
    const status = this.draft.steps[id]?.status;
    // Stryker disable next-line ConditionalExpression: the set holds no undefined.
    return status !== undefined && terminalStepStatuses.has(status);
  }

  /** Completes given results, skips what the plan skips or what follows a failed step, and queues every step whose dependencies are met. */
  private restore(): void {
    for (const [id, result] of Object.entries(this.setup.initialResults ?? {})) {
      if (!this.stepById.has(id) || this.isTerminal(id)) continue;
      const kept = this.setup.keptChanges?.[id] ?? [];
      this.emit({ type: 'step_completed', stepId: id, result, restored: true, ...(kept.length > 0 ? { keptChanges: [...kept] } : {}) });
    }
    // A journal cut between a critical step's failure and the halt's end (its skips, `run_failed`) still halts: without
    // this the resumed run started the steps the halt stopped, and ended otherwise than the uninterrupted run.
    const halting = this.haltedBefore();
    // A journal cut while a failure's dependents were being skipped: the skip goes on as it went (same order, same
    // reasons), not from each dependent's first failed dependency, so the resumed run ends as the uninterrupted one.
    for (const id of this.graph.order) {
      const state = this.draft.steps[id];
      const source = state?.status === 'failed' || (state?.status === 'skipped' && state.skipCause !== 'dependency' && state.skipCause !== 'halted');
      if (source) this.propagateSkip(id, true);
    }
    for (const id of this.graph.order) {
      if (this.isTerminal(id)) continue;
      // Stryker disable next-line OptionalChaining: the graph holds only the plan's steps.
      const planned = this.stepById.get(id);
      if (planned?.skipped) {
        // A task ticked in its task file is done there: "skipped in the plan" read as if it had been left out.
        const done = doneInSourceFile(planned.input ?? '');
        this.emit({ type: 'step_skipped', stepId: id, reason: done ? doneInSourceLabel : 'skipped in the plan', cause: done ? 'source' : 'plan' });
        this.propagateSkip(id);
        continue;
      }
      // A step skipped by the halt skips the rest as halted too (below), as the uninterrupted halt did.
      const failed = failedDependency(this.graph, id, this.draft.steps, 'halted');
      if (failed !== undefined) {
        // Worded as `propagateSkip` words it (a failed-and-skipped dependency "failed"), so a resumed run says what an uninterrupted one says.
        this.emit({ type: 'step_skipped', stepId: id, reason: `dependency ${failed} ${this.howEnded(failed)}`, cause: 'dependency' });
        this.propagateSkip(id);
      }
    }
    if (halting !== undefined) this.halt(halting.id, { detail: halting.detail });
    for (const id of this.graph.order) {
      if (this.isTerminal(id)) continue;
      const unmet = unmetDependencies(this.graph, id, this.draft.steps);
      this.remaining.set(id, unmet);
      if (unmet === 0) this.markReady(id);
    }
  }

  private markReady(id: string): void {
    this.emit({ type: 'step_ready', stepId: id });
    this.queue.push(this.rankOf.get(id) ?? 0);
  }

  /**
   * Skips what depends on `id`, each naming the step it waited on and how that ended ("dependency a was rejected"):
   * the user's reason for a rejection stays on the step they rejected, or the summary would say it once per dependent.
   */
  private propagateSkip(id: string, throughSkipped = false): void {
    for (const { stepId, via } of dependentsToSkip(this.graph, id, this.draft.steps, throughSkipped)) {
      this.emit({ type: 'step_skipped', stepId, reason: `dependency ${via} ${this.howEnded(via)}`, cause: 'dependency' });
    }
  }

  /** How dependency `via` ended, for a dependent's skip reason: "failed", "was rejected" or "was skipped". */
  private howEnded(via: string): string {
    // Stryker disable next-line OptionalChaining: `via` is a step of the plan, which has a state.
    const viaState = this.draft.steps[via];
    const failed = viaState?.status === 'failed' || viaState?.skipCause === 'failed';
    return failed ? 'failed' : viaState?.skipCause === 'rejected' ? 'was rejected' : 'was skipped';
  }

  /**
   * The critical step whose failure halted the run before it was resumed, or `undefined`: a run that halted ends failed
   * (not resumable) unless the journal was cut before its end. Only a critical failure halts (`decideAfterFailure`), and
   * one that asked for a repair plan or was an internal error of the loop (`launch`) does not.
   */
  private haltedBefore(): { id: string; detail: string | undefined } | undefined {
    for (const id of this.graph.order) {
      const state = this.draft.steps[id];
      if (state?.status !== 'failed' || state.replanRequested === true || this.stepById.get(id)?.critical !== true) continue;
      if (state.error?.startsWith('Internal error: ') === true) continue;
      return { id, detail: state.error };
    }
    return undefined;
  }

  /** Stops the run because critical step `id` failed; every unfinished step is skipped. */
  private halt(id: string, halt: CriticalHalt): void {
    this.halted = criticalHaltReason(id, halt.detail);
    this.queue.clear();
    this.stop.stop(new Error(`Aborted because ${this.halted}`));
    // A step still running ends as it ends (its work may have been done, or failed, as the halt came: "skipped" first
    // and then that end counted it twice); one the stop ended without a word is skipped once it settled (`launch`).
    this.haltedBy = id;
    for (const other of this.graph.order) {
      if (!this.isTerminal(other) && !this.inFlight.has(other)) this.skipHalted(other);
    }
  }

  private skipHalted(id: string): void {
    this.emit({ type: 'step_skipped', stepId: id, reason: `run halted because critical step ${this.haltedBy ?? ''} failed`, cause: 'halted' });
  }

  /** What follows a settled step: its dependents become ready, or are skipped (and a critical end halts the run). */
  private settle(id: string, settlement: StepSettlement): void {
    if (settlement.kind === 'dropped') {
      this.propagateSkip(id);
      // Stryker disable next-line ConditionalExpression: halting without a halt throws before it changes anything, and the loop ignores an error of a step that has ended.
      if (settlement.halt) this.halt(id, settlement.halt);
      return;
    }
    for (const dependent of this.graph.dependents.get(id) ?? []) {
      const left = (this.remaining.get(dependent) ?? 1) - 1;
      this.remaining.set(dependent, left);
      if (left === 0 && !this.isTerminal(dependent)) this.markReady(dependent);
    }
  }

  /** Starts ready steps while slots are free; once nothing runs, ends the run. */
  private pump(): void {
    // A halt needs no check here: it empties the queue and skips every step that could become ready.
    // Ready steps whose files overlap a running step's wait (in rank order) until it ends.
    const held: number[] = [];
    while (!this.control.signal.aborted && this.inFlight.size < this.options.maxConcurrency && this.queue.size > 0) {
      const rank = this.queue.pop() as number;
      const id = this.byRank[rank] as string;
      // Stryker disable next-line ConditionalExpression: a queued step's dependencies completed, so nothing skips it before it starts but a halt, which empties the queue.
      if (this.isTerminal(id)) continue;
      if (this.writesWithRunning(id)) held.push(rank);
      else this.launch(id);
    }
    for (const rank of held) this.queue.push(rank);
    // Nothing runs, so nothing can make a step ready again: the run is over (pump is not called again).
    if (this.inFlight.size === 0) {
      this.control.signal.removeEventListener('abort', this.onCancel);
      const { signal } = this.control;
      // A write started before a halt or cancel still lands: the run ends once it has, so its summary names it.
      void this.pendingChanges
        .idle()
        .then(() => this.sink.finish({ halted: this.halted, ...(signal.aborted ? { cancelled: { reason: signal.reason as unknown } } : {}) }))
        .then(this.resolveFinished);
    }
  }

  /** `true` when step `id` may change a file a running step may change. */
  private writesWithRunning(id: string): boolean {
    const scope = this.scopes.get(id);
    if (scope === undefined || scope.kind === 'nothing') return false;
    for (const other of this.inFlight) {
      const running = this.scopes.get(other);
      if (running !== undefined && writeScopesOverlap(scope, running)) return true;
    }
    return false;
  }

  /** Runs step `id` in a free slot; an error that escapes `runStep` fails the step, as an internal error. */
  private launch(id: string): void {
    this.inFlight.add(id);
    const run: StepRun = {
      runId: this.setup.runId,
      options: this.options,
      state: this.draft,
      emit: this.emit,
      stop: this.stop,
      pendingChanges: this.pendingChanges,
      flush: this.sink.flush,
      settle: (settlement) => this.settle(id, settlement),
      ...(this.setup.interruptedAgents?.has(id) ? { interrupted: this.setup.interruptedAgents.get(id) } : {}),
    };
    void Promise.resolve()
      .then(() => this.runStep(this.stepById.get(id) as Step, run))
      .catch((error: unknown) => {
        if (this.stop.signal.aborted || this.isTerminal(id)) return;
        const message = errorMessage(error);
        this.emit({ type: 'step_failed', stepId: id, attempt: this.draft.steps[id]?.attempts ?? 1, error: `Internal error: ${message}`, disposition: 'fail' });
        this.propagateSkip(id);
      })
      .then(() => {
        this.inFlight.delete(id);
        if (this.haltedBy !== undefined && !this.isTerminal(id)) this.skipHalted(id);
        this.pump();
      });
  }
}
