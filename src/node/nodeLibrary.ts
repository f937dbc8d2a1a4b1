/**
 * The library entry point, bundled to `dist/core.js` (docs/architecture.md §11): the pure
 * core's public API (`src/core/coreApi.ts`) composed with the Node adapters (workspace,
 * command runner, run store, the OpenAI-compatible client, real timers). `runPlan`,
 * `resumeRun`, `executeWithReplanning` and `resumeWithReplanning` run on real timers unless options give a `clock`.
 */
import type { Clock } from '../core/servicePorts';
import { resumeRun as resumeRunWith } from '../core/engine/resumeRun';
import { runPlan as runPlanWith } from '../core/engine/runPlan';
import type { ResumeOptions as CoreResumeOptions, RunHandle, RunOptions as CoreRunOptions, RunResult } from '../core/engine/runOptions';
import type { Plan } from '../core/plan/planSchema';
import {
  executeWithReplanning as executeWithReplanningWith,
  resumeWithReplanning as resumeWithReplanningWith,
  type ReplanOptions,
} from '../core/replan/executeWithReplanning';
import { timerClock } from './timerClock';
import { sharedPredicateThreads } from './predicateThreads';
import type { PredicateEvaluator } from '../core/predicate/evaluatePredicate';

export * from '../core/coreApi';
export { createFileRunStore } from './fileRunStore';
export { createNodeWorkspace } from './nodeWorkspace';
export { createNodeCommandRunner } from './nodeCommandRunner';
export { createOpenAiClient } from './openAiClient';
export type { OpenAiClientOptions } from './openAiClient';
export { timerClock } from './timerClock';

/** Options whose `clock` may be left out: real timers (`timerClock`) then. */
type WithTimers<T extends { clock: Clock }> = Omit<T, 'clock'> & { clock?: Clock };

/** Options of `runPlan`; without `clock`, real timers. */
export type RunOptions = WithTimers<CoreRunOptions>;
/** Options of `resumeRun`; without `clock`, real timers. */
export type ResumeOptions = WithTimers<CoreResumeOptions>;

function withTimers<T extends { clock?: Clock; predicates?: PredicateEvaluator }>(options: T): T & { clock: Clock } {
  // Predicates on threads ended at their time limit, unless the options give their own evaluator.
  return { ...options, clock: options.clock ?? timerClock, predicates: options.predicates ?? sharedPredicateThreads() };
}

/** The core's `runPlan` on real timers unless `options.clock` is given. */
export function runPlan(plan: Plan, options: RunOptions = {}): RunHandle {
  return runPlanWith(plan, withTimers(options));
}

/** The core's `resumeRun` on real timers unless `options.clock` is given. */
export function resumeRun(runId: string, options: ResumeOptions): RunHandle {
  return resumeRunWith(runId, withTimers(options));
}

/** The core's `executeWithReplanning` on real timers unless `options.clock` is given. */
export function executeWithReplanning(plan: Plan, objective: string, options: RunOptions & ReplanOptions = {}): Promise<RunResult> {
  return executeWithReplanningWith(plan, objective, withTimers(options));
}

/** The core's `resumeWithReplanning` on real timers unless `options.clock` is given. */
export function resumeWithReplanning(runId: string, options: ResumeOptions & ReplanOptions): Promise<RunResult> {
  return resumeWithReplanningWith(runId, withTimers(options));
}
