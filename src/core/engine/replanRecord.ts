import type { BudgetUsage } from '../llm/budget';

/** One entry of the trial history, as rendered (see `TrialRecord`). `time` in ms since the epoch. */
export interface TrialInfo {
  stepId: string;
  /** What the attempt tried: the tool and its args, or the agent and its input. */
  approach: string;
  /** 1-based attempt within its run. */
  attempt: number;
  /** The text the attempt streamed. */
  output: string;
  error: string;
  /** The verification diagnosis, when verification is what failed. */
  diagnosis?: string;
  /** What the attempt returned, when verification is what failed. */
  result?: unknown;
  /** When the attempt ended. */
  time: number;
}

/**
 * One failed attempt of a step, as the replanner is told about it (`output` cut to its last
 * few thousand characters); `time` in ms since the epoch.
 */
export interface TrialRecord extends TrialInfo {
  title: string;
  durationMs: number;
}

/**
 * One repair of a run, as `executeWithReplanning` makes it: kept in `RunMetadata.replanHistory`
 * and journaled with each repair run's start (`run_started.replanHistory`), so a resumed repair
 * run reports the repairs before it. Times in ms since the epoch.
 */
export interface ReplanRecord {
  /** 1-based. */
  replan: number;
  /** The run that failed and the steps that asked for the repair. */
  failedRunId: string;
  stepIds: string[];
  reason: string;
  startedAt: number;
  endedAt: number;
  /** Steps kept from earlier runs (not re-run) and steps the repair plan added or changed. */
  keptStepIds: string[];
  newStepIds: string[];
  /** Whether the repair plan was sent back once with its validation errors. */
  repaired: boolean;
  planVersion: number;
  /** The trial history the replanner was given (every earlier failed attempt). */
  trials: TrialRecord[];
  /**
   * The model use of the run so far once this repair plan was made (every earlier run and repair plan): a resumed
   * repair run counts it against its budget. Absent in journals written before it was recorded.
   */
  usage?: BudgetUsage;
  /**
   * When the run that failed was resumed to get this repair plan, after a stop (a crash, a reload, a cancel) cut it off
   * before the repair began: the views leave the stretch from that run's end to here out of its time.
   */
  resumedAt?: number;
}

/**
 * The runs that together are what the user sees as the run `state`, oldest first: the runs its repairs replaced
 * (each repair is a run of its own, `<first>-replan-<n>`), in the order they ran, then itself. Just itself for a run no
 * repair led to. Only ids of its own chain before it count: a journal (a committed one too) naming another run as replaced
 * cannot make Undo take it back, nor the views show it as this run's.
 */
export function runChain(state: { runId: string; replanHistory?: readonly Pick<ReplanRecord, 'failedRunId'>[] }): string[] {
  const first = firstRunId(state.runId);
  const number = (id: string): number | undefined => {
    if (id === first) return 0;
    const tail = id.startsWith(`${first}-replan-`) ? id.slice(first.length + '-replan-'.length) : '';
    return /^\d+$/.test(tail) ? Number(tail) : undefined;
  };
  const own = number(state.runId) ?? 0;
  // In the order they ran, whatever order the journal lists them in (an attack: listed out of order, Undo went out of
  // order and left a file at an in-between version), and only runs before this one.
  const earlier = [...new Set((state.replanHistory ?? []).map((record) => record.failedRunId))]
    .map((id) => ({ id, at: number(id) }))
    .filter((run): run is { id: string; at: number } => run.at !== undefined && run.at < own)
    .sort((a, b) => a.at - b.at);
  return [...earlier.map((run) => run.id), state.runId];
}

/** The first run of the runs a repair `runId` (`<first>-replan-<n>`) belongs to; `runId` itself for a run no repair led to. */
export function firstRunId(runId: string): string {
  return runId.replace(/-replan-\d+$/, '');
}

/** The number of the repair the run `state` is (its last repair's), or `undefined` for a run no repair led to. */
export function repairNumber(state: { replanHistory?: readonly Pick<ReplanRecord, 'replan'>[] }): number | undefined {
  return state.replanHistory?.at(-1)?.replan;
}

/** Among the runs `states`, each run a repair replaced, with that repair's number (a repair is a run of its own, with the same request). */
export function replacedByRepair(states: Iterable<{ replanHistory?: readonly Pick<ReplanRecord, 'failedRunId' | 'replan'>[] }>): Map<string, number> {
  const replaced = new Map<string, number>();
  for (const state of states) for (const record of state.replanHistory ?? []) replaced.set(record.failedRunId, record.replan);
  return replaced;
}
