import { validatePlan } from '../plan/validatePlan';
import { configuredModels } from '../llm/modelRoles';
import type { Plan } from '../plan/planSchema';
import { initialRunState } from './reduceRunEvent';
import { executeRun } from './runEngine';
import { createRunHandle } from './runHandle';
import type { RunHandle, RunOptions } from './runOptions';
import { newRunId, resolveRunOptions } from './resolveRunOptions';

/**
 * Executes `plan` (docs/architecture.md §4) and returns at once with a handle; the run starts on the
 * next microtask. An invalid plan (validation errors against `options.tools`) ends the
 * run `failed` with every error in `metadata.reason`, without running a step and without
 * journaling anything to `options.store`.
 */
export function runPlan(plan: Plan, options: RunOptions): RunHandle {
  const runId = newRunId(options);
  const resolved = resolveRunOptions(plan, options);
  return createRunHandle(runId, options.signal, (control) => {
    const models = resolved.llm ? { models: configuredModels(resolved.llm.model, resolved.models) } : {};
    const errors = validatePlan(plan, { tools: resolved.tools, ...models }).filter((diagnostic) => diagnostic.severity === 'error');
    return executeRun(
      {
        runId,
        state: initialRunState(runId),
        // An invalid plan never becomes a stored run: there is nothing to resume.
        options: errors.length > 0 ? { ...resolved, store: undefined } : resolved,
        opening: { type: 'run_started', plan, ...(options.replanHistory === undefined ? {} : { replanHistory: [...options.replanHistory] }) },
        ...(options.planOrigin === undefined ? {} : { afterOpening: [{ type: 'plan_generated', ...options.planOrigin }] }),
        ...(options.initialResults ? { initialResults: options.initialResults } : {}),
        ...(options.keptChanges ? { keptChanges: options.keptChanges } : {}),
        ...(errors.length > 0
          ? { preflightError: `The plan is invalid: ${errors.map((error) => (error.stepId ? `${error.stepId}: ${error.message}` : error.message)).join(' ')}` }
          : {}),
      },
      control,
    );
  });
}
