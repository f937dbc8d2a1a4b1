import { newRunId, toRegistry } from '../engine/resolveRunOptions';
import { runPolicyOf } from '../engine/runPolicy';
import { resumeRun } from '../engine/resumeRun';
import { journaledSpending } from '../engine/journaledSpending';
import { runPlan } from '../engine/runPlan';
import type { ResumeOptions, RunHandle, RunOptions, RunResult } from '../engine/runOptions';
import { stampEvent, type RunEvent, type RunEventBody } from '../engine/runEvents';
import { createBudgetTracker } from '../llm/budget';
import type { FailedStepInfo } from '../planner/prompts/replanPrompt';
import type { Plan } from '../plan/planSchema';
import type { LlmClient } from '../servicePorts';
import { withModel } from '../llm/modelRoles';
import { requestRepairPlan } from './requestRepairPlan';
import { createTrialCollector, describeApproach } from './trialHistory';
import type { ReplanRecord, TrialRecord } from '../engine/replanRecord';
import { errorMessage } from '../../shared/errorMessage';
import { keptChangesOf } from '../engine/keptChanges';
import type { JournalEntry } from '../runStorePorts';
import { nextRepairRunId, repairCutOff } from '../engine/awaitsRepair';
import { isRunInterruption } from '../engine/runInterruption';

/** Hooks of `executeWithReplanning`; its limits are the run policy's (`maxTotalReplans`, `maxReplanAttempts`, `replanCooldownMs`). */
export interface ReplanOptions {
  /** The model that designs repair plans; default `RunOptions.llm`. */
  replanner?: LlmClient;
  /**
   * Every event of every run in order, plus `replan_started` and `replan_completed`
   * (stamped with the failed run's id, the next `seq` and the clock's time; not journaled).
   */
  onEvent?: (event: RunEvent) => void;
}

/**
 * Executes `plan` and repairs it when steps fail under a `replan` policy (docs/architecture.md §4). Each
 * run goes through `runPlan`; when one ends `failed` only because of replan requests, the
 * replanner (`chatStructured` with `plannerOutputSchema`) gets the objective, the
 * completed results, the failed steps with output and diagnosis, and the trial history of
 * every earlier failed attempt, and returns a repair plan that keeps completed step ids;
 * the next run gets their results as `initialResults`, so they are not re-run. Stops and
 * returns the failed result, with the reason, when `maxTotalReplans` is used up, a step
 * asks more than `maxReplanAttempts` times, there is no model, or the replanner fails.
 * Run ids: the first from `idSource` (or a new one), then `<id>-replan-<n>`; each repair
 * run journals the repairs so far with its start (`RunOptions.replanHistory`).
 * Metadata: `replanCount`, `replanHistory` (`ReplanRecord`s), `executionAttempts` and
 * `totalDurationMs` over all runs, and `llmUsage` (every model call: agents, gates, replanner).
 */
export function executeWithReplanning(plan: Plan, objective: string, options: RunOptions & ReplanOptions): Promise<RunResult> {
  const runId = newRunId(options);
  return replanLoop(options, objective, runId, (runOptions) => runPlan(plan, { ...runOptions, idSource: () => runId }));
}

/**
 * Continues a journaled run (`resumeRun`, with the answers in `options`) and repairs it
 * like `executeWithReplanning` when its steps ask for a repair plan. A resumed repair run
 * (`<id>-replan-<n>`) reports the repairs before it in `replanCount` and `replanHistory`,
 * counts them against the limits, gives the replanner their trial history, and names the
 * next repair run `<id>-replan-<n+1>`. A run that had already ended is returned as recorded,
 * without a repair.
 */
export function resumeWithReplanning(runId: string, options: ResumeOptions & ReplanOptions): Promise<RunResult> {
  // The loop counts the model's use itself (a wrapped model): the resumed run must not count it again.
  const { budget: _counted, ...answered } = options;
  return replanLoop(options, undefined, runId, (runOptions) => resumeRun(runId, { ...answered, ...runOptions }), true);
}

async function replanLoop(
  options: RunOptions & ReplanOptions,
  givenObjective: string | undefined,
  firstRunId: string,
  startFirst: (runOptions: RunOptions) => RunHandle,
  resuming = false,
): Promise<RunResult> {
  const policy = runPolicyOf(options);
  const maxTotalReplans = Math.max(0, Math.floor(policy.maxTotalReplans));
  const maxReplanAttempts = Math.max(0, Math.floor(policy.maxReplanAttempts));
  const cooldownMs = Math.max(0, policy.replanCooldownMs);
  const clock = options.clock;
  const signal = options.signal ?? new AbortController().signal;
  // One tracker over every run and the replanner; the runs get the wrapped model, not the tracker.
  const tracker = options.budget ?? createBudgetTracker();
  const llm = options.llm ? tracker.wrap(options.llm) : undefined;
  const replanner = options.replanner ? tracker.wrap(options.replanner) : llm && withModel(llm, options.models?.planner);
  const tools = toRegistry(options.tools ?? []);
  const startedAt = clock.now();
  const trials: TrialRecord[] = [];
  const history: ReplanRecord[] = [];
  const perStep = new Map<string, number>();
  let executionAttempts = 0;
  let current: Plan | undefined;
  let completed: Record<string, unknown> = { ...options.initialResults };
  // What the completed steps changed, so a repair run's steps are held to it as the run's own steps were.
  let kept: Readonly<Record<string, readonly string[]>> = { ...options.keptChanges };

  const finish = (result: RunResult, reason?: string): RunResult => ({
    ...result,
    metadata: {
      ...result.metadata,
      ...(reason === undefined ? {} : { reason: result.metadata.reason ? `${result.metadata.reason} ${reason}` : reason }),
      startedAt,
      endedAt: clock.now(),
      totalDurationMs: clock.now() - startedAt,
      executionAttempts,
      replanCount: history.length,
      replanHistory: history,
      llmUsage: tracker.usage(),
    },
  });
  // A resumed repair run brings the repairs before it: they count against the limits and their trials go to the replanner.
  const adoptEarlierRepairs = (earlier: readonly ReplanRecord[] | undefined): void => {
    const records = earlier ?? [];
    history.push(...records);
    trials.push(...(records.at(-1)?.trials ?? []));
    for (const record of records) for (const id of record.stepIds) perStep.set(id, (perStep.get(id) ?? 0) + 1);
  };

  // A repair run's plan is the repair plan (journaled as replan_completed), not the one planned from the request.
  const { budget: _counted, planOrigin, ...sharedOptions } = options;
  for (let first = true; ; first = false) {
    // A repair run is named as the repair before its record was kept (`nextRepairRunId`, which a resume checks for).
    const runId = first ? firstRunId : nextRepairRunId({ runId: firstRunId, replanHistory: history.slice(0, -1) });
    const runOptions: RunOptions = {
      ...sharedOptions,
      ...(llm ? { llm } : {}),
      initialResults: completed,
      keptChanges: kept,
      ...(first ? (planOrigin === undefined ? {} : { planOrigin }) : { replanHistory: [...history] }),
    };
    // A resumed run's failed attempts before the stop are the replanner's trials too: they are in its journal.
    const journaled = first && resuming ? ((await options.store?.load(firstRunId).catch(() => undefined))?.entries ?? []) : [];
    const handle = first || current === undefined ? startFirst(runOptions) : runPlan(current, { ...runOptions, idSource: () => runId });
    let collect: ((event: RunEvent) => void) | undefined;
    const collector = (): ((event: RunEvent) => void) => {
      if (collect !== undefined) return collect;
      const state = handle.state();
      if (first) {
        adoptEarlierRepairs(state.replanHistory);
        tracker.seed(journaledSpending(state));
      }
      collect = createTrialCollector(state.plan ?? (current as Plan), trials);
      for (const entry of journaled) collect(entry as unknown as RunEvent);
      return collect;
    };
    let lastSeq: number | undefined;
    /** When a run whose repair a stop cut off was resumed to get it (its views count the stop as a pause). */
    let resumedAt: number | undefined;
    handle.events.subscribe((event) => {
      lastSeq = event.seq;
      collector()(event);
      options.onEvent?.(event);
    });
    const result = await handle.result;
    executionAttempts += result.metadata.executionAttempts;
    if (lastSeq === undefined) {
      // A run that emitted nothing (a resumed run that had already ended, a plan refused before it started) is reported as
      // it is; but one whose repair a crash or a reload cut off before it began gets it now (an attack: the repair was lost).
      const ended = handle.state();
      const store = options.store;
      const cutOff = first && resuming && store !== undefined && (await repairCutOff(ended, (id) => store.load(id)));
      if (!cutOff) {
        if (first) adoptEarlierRepairs(result.metadata.replanHistory);
        return finish(result);
      }
      collector();
      lastSeq = ended.lastSeq;
      resumedAt = clock.now();
    }
    current = handle.state().plan ?? current;
    // Stryker disable next-line ConditionalExpression: a run that emitted events has its plan (run_started or the journal's).
    if (current === undefined) return finish(result);
    completed = { ...result.results };
    kept = keptChangesOf(result.steps, Object.keys(completed));
    const requests = result.metadata.replanRequests;
    const failedOtherwise = Object.values(result.steps).some((step) => step.status === 'failed' && !step.replanRequested);
    if (result.status !== 'failed' || requests.length === 0 || failedOtherwise) return finish(result);
    let seq = lastSeq;
    // The run's journal ends at its last event: the repair's own events are not journaled, but why none came is.
    const journalEnd = lastSeq;
    const emit = (body: RunEventBody): void => {
      options.onEvent?.(stampEvent(body, result.runId, ++seq, clock.now()));
    };
    if (resumedAt !== undefined) emit({ type: 'run_resumed', supplied: {} });
    // Stopped while the repair plan was asked for: the run is cancelled (or interrupted, by a window closing), not failed,
    // and nothing is journaled, so resuming it asks again (`awaitsRepair`).
    const stopped = (why: string): RunResult => {
      const interrupted = isRunInterruption(signal.reason);
      emit({ type: 'run_cancelled', reason: why, ...(interrupted ? { interrupted: true as const } : {}) });
      return finish({ ...result, status: interrupted ? 'interrupted' : 'cancelled' }, why);
    };
    if (signal.aborted) return stopped('The run was stopped before a repair plan was asked for; resume it to ask for the repair plan.');
    // The views say why no repair came, not only that one was asked for; and so does the run read again (a reload lost
    // it: an attack), from the line journaled after its end.
    const giveUp = async (why: string): Promise<RunResult> => {
      const body: RunEventBody = { type: 'replan_failed', stepId: requests[0] as string, reason: why };
      emit(body);
      const ended = finish(result, why);
      const entry = stampEvent(body, result.runId, journalEnd + 1, clock.now()) as unknown as JournalEntry;
      const unjournaled = await options.store?.append(result.runId, [entry]).then(
        () => undefined,
        (error: unknown) => `Could not journal why no repair plan came: ${errorMessage(error)}`,
      );
      return unjournaled === undefined ? ended : { ...ended, metadata: { ...ended.metadata, warnings: [...ended.metadata.warnings, unjournaled] } };
    };
    if (history.length >= maxTotalReplans) return giveUp(`No repair plan was made: the limit of ${maxTotalReplans} repair plans per run is used up.`);
    for (const id of requests) perStep.set(id, (perStep.get(id) ?? 0) + 1);
    const exhausted = requests.filter((id) => (perStep.get(id) ?? 0) > maxReplanAttempts);
    if (exhausted.length > 0) {
      return giveUp(
        `No repair plan was made: step${exhausted.length > 1 ? 's' : ''} ${exhausted.join(', ')} already had ${maxReplanAttempts} repair plan${maxReplanAttempts === 1 ? '' : 's'} (maxReplanAttempts).`,
      );
    }
    if (!replanner) return giveUp('No repair plan was made: replanning needs a language model, and none is set up.');

    const reason = `Step${requests.length > 1 ? 's' : ''} ${requests.join(', ')} failed and asked for a repair plan.`;
    const replanStartedAt = clock.now();
    emit({ type: 'replan_started', stepId: requests[0] as string, reason });
    if (cooldownMs > 0) {
      try {
        await clock.sleep(cooldownMs, signal);
      } catch {
        return stopped('The run was stopped before a repair plan was asked for; resume it to ask for the repair plan.');
      }
    }
    const failing = current;
    const failed: FailedStepInfo[] = requests.map((id) => {
      const step = failing.steps.find((candidate) => candidate.id === id);
      const state = result.steps[id];
      const lastTrial = [...trials].reverse().find((trial) => trial.stepId === id);
      return {
        stepId: id,
        title: step?.title ?? id,
        approach: step ? describeApproach(step) : '(unknown step)',
        error: state?.error ?? 'failed',
        ...(state?.diagnosis === undefined ? {} : { diagnosis: state.diagnosis }),
        output: lastTrial?.output ?? '',
        ...(lastTrial?.result === undefined ? {} : { result: lastTrial.result }),
      };
    });
    let repair;
    try {
      const objective = givenObjective ?? failing.objective;
      const { skills, instructions } = options.capabilities ?? {};
      repair = await requestRepairPlan({
        llm: replanner,
        objective,
        plan: failing,
        completed,
        failed,
        trials,
        tools,
        ...(skills ? { skills } : {}),
        ...(instructions ? { instructions } : {}),
        signal,
      });
    } catch (error) {
      // Cancelled (Ctrl+C, a reload) while the model was asked: nothing is journaled, so resuming the run asks again.
      if (signal.aborted) return stopped('The run was stopped while its repair plan was being made; resume it to ask for the repair plan again.');
      return giveUp(`No repair plan could be made, so the run stops here: ${errorMessage(error)}`);
    }
    history.push({
      replan: history.length + 1,
      failedRunId: result.runId,
      stepIds: [...requests],
      reason,
      startedAt: replanStartedAt,
      endedAt: clock.now(),
      keptStepIds: repair.plan.steps.filter((step) => Object.hasOwn(completed, step.id)).map((step) => step.id),
      newStepIds: repair.newStepIds,
      repaired: repair.repaired,
      planVersion: repair.plan.version,
      ...(resumedAt === undefined ? {} : { resumedAt }),
      trials: [...trials],
      usage: tracker.usage(),
    });
    emit({ type: 'replan_completed', plan: repair.plan });
    current = repair.plan;
  }
}
