import { activeTime } from '../engine/runPauses';
import { reasonBesideFailures } from '../engine/criticalHalt';
import { inWriteScope } from '../workspace/writeScope';
import type { RunState, RunStatus, StepStatus } from '../engine/runEvents';
import type { BudgetUsage } from '../llm/budget';
import { capText } from '../text/capText';
import { isAgentResult } from '../text/agentResult';
import { oneLine } from '../text/oneLine';
import { outputEndLine } from '../text/outputEnd';
import { valueText } from '../text/valueText';
import { stepProgress, type StepProgress } from '../../shared/stepProgress';
import { stepsNotDone, type StepsNotDone } from '../engine/stepsNotDone';
import { skippedStepText } from '../../shared/stepStatusLabels';
import type { StoppedRunStatus } from '../../shared/vocabulary';
import { keptFileText } from '../tools/withheldFiles';
import { stepStateView, stoppedRun } from './stepStatusView';
import { describeCheck } from '../plan/describeCheck';
import type { Step } from '../plan/planSchema';
import { describedResult, fileChangeResult } from '../text/stepResultText';
import { readOrigin } from '../interop/sourceOrigin';
import { runHeadline } from './runHeadline';
import { canonicalJson } from '../engine/answerSeals';

/** Most characters of a step's one line, and of a failure's error or diagnosis. */
export const summaryLimits = { line: 160, checks: 400, failure: 600, reason: 600, files: 50, steps: 100, failures: 20, kept: 5 } as const;

/**
 * One step in the summary: what it produced (completed), why it failed or was skipped, or
 * where it stands. A step that failed and was then skipped by its failure policy is `failed`.
 */
export interface StepSummaryLine {
  id: string;
  title: string;
  status: StepStatus;
  /** One line, at most `summaryLimits.line` characters, whitespace runs collapsed. */
  line: string;
  /**
   * A step completed after more than one attempt: why the attempt before its last failed
   * (its error; a failed check's or predicate's is the diagnosis), one line of at most
   * `summaryLimits.line` characters.
   */
  earlier?: string;
  /**
   * How the step's checks and verification predicate ended after its last attempt that ran them, each passed or
   * failed with the check in words and, when it failed, what was found: "passed: file exists a.ts; failed: command
   * npm test exits 0 (exit code 1)". One line of at most `summaryLimits.checks` characters; absent when none ran.
   */
  checks?: string;
}

/** A step that failed: its error and, when verification failed, the diagnosis. Each at most `summaryLimits.failure` characters. */
export interface FailureSummary {
  stepId: string;
  title: string;
  error: string;
  diagnosis?: string;
}

/** The model use of a run, as the budget counts it; `costUsd` counts only calls of a model with a known price. */
export type UsageSummary = BudgetUsage;

/**
 * How a run ended, built once for every view (the panel, the editor's notification, the
 * command line). Every text in it is bounded (`summaryLimits`); none is escaped: each view
 * makes it safe for where it goes (the terminal escapes control characters).
 */
export interface RunSummary {
  runId: string;
  status: RunStatus;
  objective: string;
  /**
   * Why the run failed or was cancelled. Absent for a `partial` run: its reason only lists the steps not done, which
   * the headline counts and each step's line says ("rejected by you: not now"), and a third time read as a repeat; and
   * for a completed one (a repair run keeps the failure that asked for it, which read as the completed run's reason).
   */
  reason?: string;
  durationMs: number;
  progress: StepProgress;
  /** The first `summaryLimits.files` changed files, in first-change order; `moreChangedFiles` counts the rest. */
  changedFiles: string[];
  moreChangedFiles: number;
  /** The plan's first `summaryLimits.steps` steps in plan order; `moreSteps` counts the rest. */
  steps: StepSummaryLine[];
  moreSteps: number;
  /** The first `summaryLimits.failures` failed steps (those their failure policy then skipped too); `moreFailures` counts the rest. */
  failures: FailureSummary[];
  moreFailures: number;
  /**
   * The failed steps a repair plan replaced (`RunState.replacedSteps`), oldest first, the first `summaryLimits.failures`:
   * their failure asked for the repair, and the command line said it would print it in full (a trial's run, repaired,
   * had no Failures at all). Absent when none; not in `failures`, which holds the steps of the plan as it ended.
   */
  repairedFailures?: FailureSummary[];
  usage?: UsageSummary;
  replanCount: number;
  /** How many times the run was resumed (after a reload, a cancel, or a wait for an answer): its duration spans the pauses. */
  resumeCount: number;
  /**
   * The steps the repairs left out and that were never done (replaced by other steps or dropped), their titles on one
   * line: a completed repaired run otherwise read as the request done (a newcomer asked to lint with ruff; the repair
   * byte-compiled instead, and the run was green). Empty when none.
   */
  leftOutByRepairs: string[];
  /** A `partial` run's steps whose work is not done (see `stepsNotDone`); absent for any other status. */
  notDone?: StepsNotDone;
  /**
   * The files tools kept from the model (`RunState.withheldFiles`), one line: "Kept from the model: .env (a credentials
   * file), .git/config (inside .git) and 2 more", the first `summaryLimits.kept` named, at most `summaryLimits.checks`
   * characters. Absent when none was.
   */
  keptFromModel?: string;
  /**
   * One sentence to follow "Run <id>" or "run": status, duration, steps, changed files,
   * repairs, resumes, tokens and cost ("completed in 4.2 s: 3 of 3 steps completed; …"); a run that
   * went to its end with steps not done starts "finished with 1 failed step and 1 skipped in …".
   */
  headline: string;
}

/** What a host knows of a run beyond its state: model use counted outside the steps (a replanner's) and the repairs. */
export interface RunSummaryExtras {
  /** Used when it counts more requests than the journal's `model_called` events. */
  usage?: BudgetUsage;
  /** Used when more than the repairs the state knows of. */
  replanCount?: number;
  /** The time of a live run's snapshot (ms since the epoch); default its last known time. */
  now?: number;
  /** Steps whose changes Undo took back (`undoneChanges`): their lines say so. */
  undoneSteps?: ReadonlySet<string>;
}

/**
 * The summary of a run from its state (folded from its journal, so a resumed run's earlier
 * changes and model calls are in it). Pure; linear in the plan's steps.
 */
export function runSummary(state: RunState, extras: RunSummaryExtras = {}): RunSummary {
  const plan = state.plan;
  const planSteps = plan?.steps ?? [];
  const stepStates = planSteps.map((step) => state.steps[step.id] ?? { id: step.id, status: 'pending' as const, attempts: 0 });
  const progress = stepProgress(stepStates, planSteps.length);
  const startedAt = state.startedAt ?? extras.now ?? 0;
  const endedAt = state.status === 'running' ? (extras.now ?? startedAt) : (state.endedAt ?? extras.now ?? startedAt);
  // The run's working time: a resumed run's stop (a night, a crash) is not part of it.
  const durationMs = Math.max(0, activeTime(state.pauses, endedAt) - startedAt);
  const changed = state.changedFiles ?? [];
  const failed = planSteps.flatMap((step, index) => {
    const stepState = stepStates[index]!;
    return stepState.status === 'failed' || failedThenSkipped(stepState) ? [{ step, state: stepState }] : [];
  });
  const failures = failed.slice(0, summaryLimits.failures).map(({ step, state: stepState }) => failureSummary(step, stepState));
  const repaired = (state.replacedSteps ?? []).filter((replaced) => replaced.state.status === 'failed' || failedThenSkipped(replaced.state));
  const repairedFailures = repaired.slice(0, summaryLimits.failures).map((replaced) => failureSummary(replaced.step, replaced.state));
  const listedApart = new Set(failures.filter(failureListedApart).map((failure) => failure.stepId));
  const steps = planSteps.slice(0, summaryLimits.steps).map((step, index): StepSummaryLine => {
    const stepState = stepStates[index]!;
    const earlier = earlierFailure(stepState);
    const apart = listedApart.has(step.id);
    const checks = checksLine(step, stepState, apart);
    const ended = stepLine(stepState, stoppedRun(state.status));
    return {
      id: step.id,
      title: oneLine(step.title, summaryLimits.line),
      status: failedThenSkipped(stepState) ? 'failed' : stepState.status,
      line: oneLine(
        // "failed" or "failed (did not stop the run)", without the output its failure below gives.
        `${apart ? seeFailures(ended.split(':')[0]!) : ended}${filesLine(plannedFiles(step), stepState.filesChanged, extras.undoneSteps?.has(step.id) === true, fileChangeOf(stepState)?.path)}${yoursLine(step, stepState)}`,
        summaryLimits.line,
      ),
      ...(earlier === undefined ? {} : { earlier }),
      ...(checks === undefined ? {} : { checks }),
    };
  });
  const usage = usageOf(state.modelUsage, extras.usage);
  const replanCount = Math.max(state.replanHistory?.length ?? 0, extras.replanCount ?? 0);
  const summary: Omit<RunSummary, 'headline'> = {
    runId: state.runId,
    status: state.status,
    objective: oneLine(plan?.objective ?? state.runId, summaryLimits.reason),
    // A critical step's failure is in `failures`: the reason names the step, not its failure again.
    ...(state.reason === undefined || state.status === 'partial' || state.status === 'completed'
      ? {}
      : { reason: capText(reasonBesideFailures(state.reason, new Set(failures.map((failure) => failure.stepId))), summaryLimits.reason) }),
    durationMs,
    progress,
    changedFiles: changed.slice(0, summaryLimits.files),
    moreChangedFiles: Math.max(0, changed.length - summaryLimits.files),
    steps,
    moreSteps: Math.max(0, planSteps.length - summaryLimits.steps),
    failures,
    moreFailures: Math.max(0, failed.length - summaryLimits.failures),
    ...(repairedFailures.length > 0 ? { repairedFailures } : {}),
    ...(usage ? { usage } : {}),
    replanCount,
    resumeCount: state.resumeCount,
    leftOutByRepairs: leftOutByRepairs(state, planSteps),
    ...(state.status === 'partial' ? { notDone: stepsNotDone(state) } : {}),
    ...keptFromModel(state.withheldFiles ?? []),
  };
  return { ...summary, headline: runHeadline(summary, changed.length) };
}

/** A failed step's failure, bounded. */
function failureSummary(step: Step, state: RunState['steps'][string]): FailureSummary {
  return {
    stepId: step.id,
    title: oneLine(step.title, summaryLimits.line),
    error: capText(state.error ?? 'failed', summaryLimits.failure),
    ...(state.diagnosis === undefined ? {} : { diagnosis: capText(state.diagnosis, summaryLimits.failure) }),
  };
}

/**
 * The titles of the steps repairs replaced or dropped that were never done, each once (by id), in the order they were
 * replaced. A step done again by a step of the plan that completed is not left out: the same tool call, or a title that
 * starts with its title ("Run the tests" done as "Run the tests again": a trial read its tests as never run).
 */
function leftOutByRepairs(state: RunState, planSteps: readonly Step[]): string[] {
  const inPlan = new Set(planSteps.map((step) => step.id));
  const done = planSteps.filter((step) => state.steps[step.id]?.status === 'completed');
  const redone = (step: Step): boolean => done.some((other) => sameWork(step, other));
  const left = new Map<string, string>();
  for (const { step, state: before } of state.replacedSteps ?? []) {
    if (!inPlan.has(step.id) && before.status !== 'completed' && !redone(step)) left.set(step.id, oneLine(step.title, 60));
  }
  return [...left.values()];
}

/** Whether `other` does `step`'s work: the same tool with the same arguments, or a title that starts with `step`'s. */
function sameWork(step: Step, other: Step): boolean {
  if (step.kind === 'tool' && other.kind === 'tool') return step.tool === other.tool && canonicalJson(step.args ?? {}) === canonicalJson(other.args ?? {});
  const title = step.title.trim().toLowerCase();
  return title !== '' && other.title.trim().toLowerCase().startsWith(title);
}

/** "failed (see Failures)", "failed (did not stop the run; see Failures)": one pair of brackets. */
function seeFailures(ended: string): string {
  return ended.endsWith(')') ? `${ended.slice(0, -1)}; see Failures)` : `${ended} (see Failures)`;
}

/**
 * Whether a failure is said once, under the summary's failures, with each view's step line only saying how the step
 * ended ("failed (see Failures)"): one of several lines or longer than a line (a command's output). A short one reads best
 * where it is. The panel said a failed test run's output three times (a newcomer's trial).
 */
export function failureListedApart(failure: FailureSummary): boolean {
  const text = failure.diagnosis ?? failure.error;
  return text.includes('\n') || text.length > 120;
}

/** A step whose own attempts failed and whose failure policy then skipped it (its failure did not stop the run). */
function failedThenSkipped(state: RunState['steps'][string]): boolean {
  return state.status === 'skipped' && state.skipCause === 'failed';
}

/** "Kept from the model: .env (a credentials file) and 2 more", or nothing when tools kept no file from it. */
function keptFromModel(paths: readonly string[]): Pick<RunSummary, 'keptFromModel'> {
  if (paths.length === 0) return {};
  const named = paths.slice(0, summaryLimits.kept).map((path) => keptFileText(path, summaryLimits.line));
  const more = paths.length - named.length;
  return { keptFromModel: oneLine(`Kept from the model: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`, summaryLimits.checks) };
}

/**
 * The files `step` planned to change: its `writes`, and the task file whose checkbox it ticks when done (`run --tick`, the
 * editor's Tick in source file), so that tick is not said to be "not planned" (a newcomer read every step's tick so).
 */
function plannedFiles(step: Step): readonly string[] | undefined {
  const ticked = step.input === undefined ? undefined : readOrigin(step.input).origin;
  if (ticked === undefined || !ticked.tick || step.writes === undefined) return step.writes;
  return [...step.writes, ticked.file];
}

/**
 * " · changed a.ts, b.ts" for a step that changed files, naming those outside the files it
 * planned to change (its `writes`): " · changed a.ts, x.ts (not planned: x.ts)". Empty
 * when it changed nothing. The file its result line names already (`named`: "created a.ts") is not named again.
 */
function filesLine(planned: readonly string[] | undefined, changed: readonly string[] | undefined, undone: boolean, named: string | undefined): string {
  if (changed === undefined || changed.length === 0) return '';
  const unplanned = planned === undefined ? [] : changed.filter((path) => !inWriteScope(path, planned));
  const others = changed.filter((path) => path !== named);
  return `${others.length > 0 ? ` · changed ${others.join(', ')}` : ''}${unplanned.length > 0 ? ` (not planned: ${unplanned.join(', ')})` : ''}${undone ? ', since undone' : ''}`;
}

/**
 * A step you did yourself, done: what you changed in it was not made through the run, so Undo run cannot take it back
 * (a newcomer expected it to, since the run's other changes are).
 */
function yoursLine(step: Step, state: RunState['steps'][string]): string {
  return step.kind === 'manual' && state.status === 'completed' ? ' · what you changed yourself is not in Undo run' : '';
}

/**
 * The outcomes of `step`'s checks (`state.checks`, in the step's order) and of its verification predicate: the
 * predicate passed when the step completed, failed when a verification failure is what ended it. What a failed one found
 * follows it, unless the step's failure is `listedApart`: that failure (its diagnosis holds every failed check's finding)
 * says it, once.
 */
function checksLine(step: Step, state: RunState['steps'][string], listedApart: boolean): string | undefined {
  const found = (detail: string): string => (listedApart ? '' : ` (${head(detail)})`);
  const outcomes = (state.checks ?? []).map((result, index) => {
    const check = step.checks?.[index];
    const what = check === undefined ? result.kind : describeCheck(check);
    return result.passed ? `passed: ${what}` : `failed: ${what}${found(result.detail)}`;
  });
  if (step.verification !== undefined && (state.checks ?? []).every((result) => result.passed)) {
    const predicate = `verification ${step.verification}`;
    if (state.status === 'completed') outcomes.push(`passed: ${predicate}`);
    else if (state.diagnosis !== undefined && state.status !== 'skipped') outcomes.push(`failed: ${predicate}${found(state.diagnosis)}`);
  }
  return outcomes.length === 0 ? undefined : oneLine(outcomes.join('; '), summaryLimits.checks);
}

function stepLine(state: RunState['steps'][string], stopped: StoppedRunStatus | undefined): string {
  switch (state.status) {
    case 'completed': {
      const result = state.result;
      const produced =
        result === undefined
          ? 'completed'
          : (describedResult(result, summaryLimits.line) ?? boundedText(result, summaryLimits.line * 4));
      // A step that needed another attempt (a failed check or predicate, an error) says so: the summary shows every attempt.
      return oneLine(state.attempts > 1 ? `after ${state.attempts} attempts: ${produced}` : produced, summaryLimits.line);
    }
    case 'failed':
      return oneLine(`failed: ${head(state.diagnosis ?? state.error ?? 'no reason recorded')}`, summaryLimits.line);
    case 'skipped': {
      // A failure its policy went past is said with its diagnosis, as a failure is.
      const reason = state.skipCause === 'failed' ? (state.diagnosis ?? state.error) : (state.reason ?? state.error);
      return oneLine(skippedStepText(state.skipCause, reason, head), summaryLimits.line);
    }
    default:
      return stepStateView(state, stopped).label;
  }
}

/** The file change a completed step's summary line names (`fileChangeLine`), if it names one. */
function fileChangeOf(state: RunState['steps'][string]): { path: string } | undefined {
  return state.status === 'completed' ? fileChangeResult(state.result) : undefined;
}

/** Why the attempt before a completed step's last one failed, when it took more than one. */
function earlierFailure(state: RunState['steps'][string]): string | undefined {
  if (state.status !== 'completed' || state.attempts < 2) return undefined;
  // Every retried attempt's step_failed carries its error (a verification failure's is its diagnosis); the diagnosis may be older.
  const why = state.error ?? state.diagnosis;
  return why === undefined ? undefined : oneLine(`attempt ${state.attempts - 1} failed: ${head(why)}`, summaryLimits.line);
}

/**
 * The start of a text, enough for one line (joining a 5 MB text to a prefix would copy it all); of a failed check's
 * text, what it says and the end of the command's output (`outputEndLine`), in room for the line's own words before it.
 */
function head(text: string): string {
  return outputEndLine(text, summaryLimits.line - 32) ?? text.slice(0, summaryLimits.line * 4);
}

/**
 * A value as a line a person reads (a string as it is; an object's fields as `name: value, …`,
 * what they hold as compact JSON), stopping soon after `max` characters: a 5 MB result is not
 * turned into 5 MB of text to show its first line. A repeated object shows as "[cycle]"; what
 * JSON cannot show, as `valueText` shows it; an agent's result as its answer.
 */
function boundedText(value: unknown, max: number): string {
  if (typeof value === 'string') return value.slice(0, max);
  // An agent's answer says what it produced; its file changes are the summary's changed files.
  if (isAgentResult(value)) return value.answer.slice(0, max);
  let out = '';
  const open = new Set<object>();
  const put = (text: string): boolean => {
    out += text;
    return out.length < max;
  };
  const visit = (item: unknown): boolean => {
    if (typeof item === 'string') return put(JSON.stringify(item.slice(0, max)));
    if (item === null || typeof item !== 'object') return put(valueText(item));
    if (open.has(item)) return put('"[cycle]"');
    open.add(item);
    const entries = Array.isArray(item) ? arrayEntries(item as unknown[]) : ownEntries(item);
    let first = true;
    if (!put(Array.isArray(item) ? '[' : '{')) return false;
    for (const [key, inner] of entries) {
      if (!first && !put(',')) return false;
      first = false;
      if (key !== undefined && !put(`${JSON.stringify(key)}:`)) return false;
      if (!visit(inner)) return false;
    }
    open.delete(item);
    return put(Array.isArray(item) ? ']' : '}');
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    visit(value);
    return out;
  }
  // The result's own fields read as words ("path: src/a.ts, created: true"), not as a JSON object.
  open.add(value);
  let first = true;
  for (const [key, inner] of ownEntries(value)) {
    if (!put(`${first ? '' : ', '}${key}: `)) break;
    first = false;
    if (!(typeof inner === 'string' ? put(inner.slice(0, max)) : visit(inner))) break;
  }
  return out;
}

function* arrayEntries(items: readonly unknown[]): Generator<[undefined, unknown]> {
  for (const item of items) yield [undefined, item];
}

function* ownEntries(value: object): Generator<[string, unknown]> {
  for (const key in value) if (Object.hasOwn(value, key)) yield [key, (value as Record<string, unknown>)[key]];
}

function usageOf(journaled: BudgetUsage | undefined, counted: BudgetUsage | undefined): UsageSummary | undefined {
  const usage = counted && counted.requests > (journaled?.requests ?? 0) ? counted : journaled;
  if (!usage || usage.requests === 0) return undefined;
  return {
    requests: usage.requests,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens,
    cachedTokens: usage.cachedTokens,
    costUsd: usage.costUsd,
    savedUsd: usage.savedUsd,
    unpricedRequests: usage.unpricedRequests,
  };
}
