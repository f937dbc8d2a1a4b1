import { stepProgress } from '../../shared/stepProgress';
import { stepsThatRanCommands } from '../engine/commandsNotUndone';
import type {
  PendingView,
  ReplanView,
  RunStepView,
  RunSummaryView,
  RunView,
  UsageView,
} from '../../shared/panelViewModel';
import { awaitsRepair } from '../engine/awaitsRepair';
import { resumableRunStatuses, startedStepStatuses, terminalStepStatuses, type RunState, type StepState } from '../engine/runEvents';
import { activeTime, type RunPause } from '../engine/runPauses';
import type { BudgetUsage } from '../llm/budget';
import type { Plan, Step } from '../plan/planSchema';
import type { ReplanRecord } from '../engine/replanRecord';
import { runSummary } from './runSummary';
import { repairsAndResumes } from './runHeadline';
import { runTimeline } from './runTimeline';
import { stepRunnerLabel } from './stepRunnerLabel';
import { undoneExtent, type UndoneChanges } from '../tools/undoneChanges';
import { previewValue, stepStateView, stoppedRun } from './stepStatusView';
import { shownResultText } from '../text/stepResultText';
import { stepStatusLabels } from '../../shared/stepStatusLabels';
import type { StoppedRunStatus } from '../../shared/vocabulary';

/** A run, as the host knows it: the folded state plus what the run's metadata adds. */
export interface RunSource {
  state: RunState;
  /** The time of the snapshot (ms since the epoch), for live durations. */
  now: number;
  usage?: BudgetUsage;
  replans?: readonly ReplanRecord[];
  /** Workspace-relative paths the run changed. */
  changedFiles?: readonly string[];
  undoMessage?: string;
  /** What Undo took back (from the run's checkpoints): those steps show their changes undone, those paths leave the changed files. */
  undone?: UndoneChanges;
  /** Step rows kept from earlier views of the run: a step whose state is the same object gets its row back unbuilt. */
  stepViews?: RunStepViewCache;
}

/**
 * Rows of a run's steps by the step state they show, with what else the row was built from.
 * Sound because the reducer replaces a step's state when it changes, never mutates it.
 */
export type RunStepViewCache = WeakMap<
  StepState,
  { step: Step; runStartedAt: number; pauses: readonly RunPause[] | undefined; undone: boolean; stopped: StoppedRunStatus | undefined; view: RunStepView }
>;

/** Longest result preview shown per step, in characters. */
export const resultPreviewLength = 240;

/** The run as the panel shows it: its steps (rows reused from `source.stepViews` when unchanged), timeline and, once ended, its summary. */
export function runView(source: RunSource, plan: Plan): RunView {
  const { state, now } = source;
  const startedAt = state.startedAt ?? now;
  // On the clock of the run's own work: a resumed run's stop is no part of its time or its timeline.
  const endedAt = activeTime(state.pauses, state.status === 'running' ? now : (state.endedAt ?? now));
  const stepStates = plan.steps.map((step) => state.steps[step.id] ?? { id: step.id, status: 'pending' as const, attempts: 0 });
  const undoneSteps = source.undone?.steps;
  const stopped = stoppedRun(state.status);
  const steps = plan.steps.map((step, index) =>
    cachedStepView(source.stepViews, step, stepStates[index]!, { startedAt, pauses: state.pauses }, undoneSteps?.has(step.id) === true, stopped),
  );
  const pending: PendingView[] = stepStates.flatMap((step) =>
    step.pending ? [{ stepId: step.id, kind: step.pending.kind, prompt: step.pending.prompt }] : [],
  );
  return {
    runId: state.runId,
    status: state.status,
    objective: plan.objective,
    planVersion: plan.version,
    elapsedMs: Math.max(0, endedAt - startedAt),
    progress: stepProgress(stepStates, steps.length),
    ...activityOf(state),
    steps,
    ...(state.replacedSteps?.length
      ? {
          replacedSteps: state.replacedSteps.map((replaced) => ({
            ...runStepView(replaced.step, replaced.state, { startedAt, pauses: state.pauses }, false, undefined),
            planVersion: replaced.planVersion,
          })),
        }
      : {}),
    ...focusOf(stepStates),
    pending,
    timeline: runTimeline(
      plan.steps.map((step, index) => {
        const stepState = stepStates[index]!;
        return { stepId: step.id, title: step.title, status: stepState.status, ...statusLabelOf(stepState, stopped), ...times(stepState, state.pauses) };
      }),
      startedAt,
      endedAt,
    ),
    ...usageOf(source),
    replans: (source.replans ?? []).map(replanView),
    warnings: state.warnings.slice(-20),
    ...(state.status === 'running' ? {} : { summary: summaryView(source, endedAt - startedAt) }),
    ...(undoneExtent(source.undone) === undefined ? {} : { undone: undoneExtent(source.undone) }),
  };
}

/** A step's bar on the run's active clock: from its first attempt's start (a trial saw a retried step's bar start late, a gap before it) to its end. */
function times(step: StepState, pauses: readonly RunPause[] | undefined): { startedAt?: number; endedAt?: number } {
  const startedAt = step.firstStartedAt ?? step.startedAt;
  return {
    ...(startedAt === undefined ? {} : { startedAt: activeTime(pauses, startedAt) }),
    ...(step.endedAt === undefined ? {} : { endedAt: activeTime(pauses, step.endedAt) }),
  };
}

/**
 * A step's start and end on the run's active clock, from its first attempt, and how long its attempts took in all (the
 * time between them included): the Time column said 15.8 s of a step that took 35 s over two attempts (a trial).
 */
function stepTimes(state: StepState, run: RunClock): Pick<RunStepView, 'startMs' | 'endMs' | 'durationMs'> {
  const first = state.firstStartedAt ?? state.startedAt;
  const startMs = first === undefined ? undefined : activeTime(run.pauses, first) - run.startedAt;
  const endMs = state.endedAt === undefined ? undefined : activeTime(run.pauses, state.endedAt) - run.startedAt;
  const overAttempts = state.firstStartedAt !== undefined && state.firstStartedAt !== state.startedAt;
  const durationMs = overAttempts && startMs !== undefined && endMs !== undefined ? Math.max(0, endMs - startMs) : state.durationMs;
  return {
    ...(startMs === undefined ? {} : { startMs }),
    ...(endMs === undefined ? {} : { endMs }),
    ...(durationMs === undefined ? {} : { durationMs }),
  };
}

function cachedStepView(
  cache: RunStepViewCache | undefined,
  step: Step,
  state: StepState,
  run: RunClock,
  undone: boolean,
  stopped: StoppedRunStatus | undefined,
): RunStepView {
  const kept = cache?.get(state);
  const same = kept?.runStartedAt === run.startedAt && kept.pauses === run.pauses;
  if (kept && same && kept.step === step && kept.undone === undone && kept.stopped === stopped) return kept.view;
  const view = runStepView(step, state, run, undone, stopped);
  cache?.set(state, { step, runStartedAt: run.startedAt, pauses: run.pauses, undone, stopped, view });
  return view;
}

/** When a run started, and its pauses (`RunState.pauses`): a step's times are shown on the clock of the run's work. */
interface RunClock {
  startedAt: number;
  pauses: readonly RunPause[] | undefined;
}

function runStepView(step: Step, state: StepState, run: RunClock, undone: boolean, stopped: StoppedRunStatus | undefined): RunStepView {
  return {
    id: step.id,
    title: step.title,
    kind: step.kind,
    runner: stepRunnerLabel(step),
    status: state.status,
    ...statusLabelOf(state, stopped),
    attempts: state.attempts,
    maxAttempts: step.maxAttempts,
    ...stepTimes(state, run),
    ...(state.error === undefined ? {} : { error: state.error }),
    ...(state.diagnosis === undefined ? {} : { diagnosis: state.diagnosis }),
    ...(state.reason === undefined ? {} : { reason: state.reason }),
    ...(state.status === 'completed' && state.result !== undefined
      ? { resultPreview: previewValue(shownResultText(state.result) ?? state.result, resultPreviewLength) }
      : {}),
    ...(state.progress === undefined ? {} : { progress: state.progress }),
    ...(state.progress === undefined || state.percent === undefined ? {} : { percent: state.percent }),
    // The agent revising a change you rejected read as a step going on as before ("turn 2 of 12: edit_file": a trial).
    ...(state.feedback === undefined || terminalStepStatuses.has(state.status) ? {} : { feedback: state.feedback }),
    // Undone changes are no longer in the workspace: the step says so instead of offering them (or Undo from here).
    ...(undone ? { changesUndone: true } : state.filesChanged?.length ? { changedFiles: state.filesChanged.length } : {}),
  };
}

/** The words of a state its status alone does not tell: failed then skipped, not needed, not finished (see `stepStateView`). */
function statusLabelOf(state: StepState, stopped: StoppedRunStatus | undefined): { statusLabel?: string } {
  const label = stepStateView(state, stopped).label;
  return label === stepStatusLabels[state.status] ? {} : { statusLabel: label };
}

/** The step whose output to show: the latest started of the active steps, else of all. */
function focusOf(steps: readonly StepState[]): { focusStepId?: string } {
  const active = steps.filter((step) => startedStepStatuses.has(step.status));
  const pool = (active.length > 0 ? active : steps).filter((step) => step.startedAt !== undefined);
  const latest = pool.reduce<StepState | undefined>((best, step) => (best === undefined || step.startedAt! >= best.startedAt! ? step : best), undefined);
  return latest ? { focusStepId: latest.id } : {};
}

/** The run's model use: from its journal, or what the host counted when that is more (a replanner's calls). */
function usageOf(source: RunSource): { usage?: UsageView } {
  const journaled = source.state.modelUsage;
  const usage = source.usage && source.usage.requests > (journaled?.requests ?? 0) ? source.usage : journaled;
  return usage && usage.requests > 0 ? { usage: usageView(usage) } : {};
}

function usageView(usage: BudgetUsage): UsageView {
  return {
    requests: usage.requests,
    totalTokens: usage.totalTokens,
    cachedTokens: usage.cachedTokens,
    costUsd: usage.costUsd,
    savedUsd: usage.savedUsd,
    unpricedRequests: usage.unpricedRequests,
  };
}

function replanView(record: ReplanRecord): ReplanView {
  return {
    replan: record.replan,
    reason: record.reason,
    stepIds: [...record.stepIds],
    keptStepIds: [...record.keptStepIds],
    newStepIds: [...record.newStepIds],
    planVersion: record.planVersion,
    // The failed attempts of the steps this repair was for: the replanner is given every earlier one, but a retry that then
    // passed read as part of this repair (a trial).
    trials: record.trials.filter((trial) => record.stepIds.includes(trial.stepId)).map((trial) => ({
      stepId: trial.stepId,
      attempt: trial.attempt,
      approach: trial.approach,
      error: trial.error,
      ...(trial.diagnosis === undefined ? {} : { diagnosis: trial.diagnosis }),
    })),
  };
}

function summaryView(source: RunSource, durationMs: number): RunSummaryView {
  // The journal's changes (every step, resumed or not), with any the host knows besides.
  const undonePaths = source.undone?.paths;
  const everChanged = [...new Set([...(source.state.changedFiles ?? []), ...(source.changedFiles ?? [])])];
  const changedFiles = everChanged.filter((path) => !undonePaths?.has(path));
  const summary = runSummary(
    { ...source.state, changedFiles },
    {
      now: source.now,
      ...(source.usage ? { usage: source.usage } : {}),
      ...(source.replans ? { replanCount: source.replans.length } : {}),
      ...(source.undone ? { undoneSteps: source.undone.steps } : {}),
    },
  );
  const notes = repairsAndResumes(summary).join('; ');
  return {
    ...(notes === '' ? {} : { notes: `${notes.charAt(0).toUpperCase()}${notes.slice(1)}.` }),
    stepLines: summary.steps.map((step) => ({
      id: step.id,
      title: step.title,
      status: step.status,
      line: step.line,
      ...(step.earlier === undefined ? {} : { earlier: step.earlier }),
      ...(step.checks === undefined ? {} : { checks: step.checks }),
    })),
    moreSteps: summary.moreSteps,
    failures: summary.failures.map((failure) => ({ ...failure })),
    moreFailures: summary.moreFailures,
    status: source.state.status as RunSummaryView['status'],
    // Bounded as the summary bounds it (a failed command's whole output can be the reason).
    ...(summary.reason === undefined ? {} : { reason: summary.reason }),
    durationMs: Math.max(0, durationMs),
    changedFiles,
    undoneFiles: everChanged.filter((path) => undonePaths?.has(path) === true),
    ...(summary.keptFromModel === undefined ? {} : { keptFromModel: summary.keptFromModel }),
    ranCommands: stepsThatRanCommands(source.state).length > 0,
    doneByYou: (source.state.plan?.steps ?? []).some((step) => step.kind === 'manual' && source.state.steps[step.id]?.status === 'completed'),
    // After an Undo, what it took back decides: files it left alone (changed since) can be tried again, once the user
    // sorted them out. An Undo whose outcome is not known leaves nothing to offer.
    canUndo: changedFiles.length > 0 && (source.undoMessage === undefined || source.undone !== undefined),
    // A newcomer read "resume it to go on" after a reload and found no way to in the panel. Not once Undo took some of it back.
    // So can one cancelled while its repair plan was asked (`awaitsRepair`): Resume asks for it again.
    canResume: (awaitsRepair(source.state) || (resumableRunStatuses.has(source.state.status) && source.state.status !== 'waiting'))
      && source.undoMessage === undefined,
    ...(source.undoMessage === undefined ? {} : { undoMessage: source.undoMessage }),
  };
}

/**
 * While a repair plan is asked for (the run goes on, its only failed steps asked for one, and none of its steps is under
 * way): "asking the model for a repair plan for S5". A trial read S5's failure, with the run "running", as theirs to fix.
 */
function activityOf(state: RunState): { activity?: string } {
  if (state.status !== 'running') return {};
  const steps = Object.values(state.steps);
  const asking = steps.filter((step) => step.status === 'failed' && step.replanRequested === true).map((step) => step.id);
  const underWay = steps.some((step) => startedStepStatuses.has(step.status));
  return asking.length === 0 || underWay ? {} : { activity: `asking the model for a repair plan for ${asking.join(', ')}` };
}
