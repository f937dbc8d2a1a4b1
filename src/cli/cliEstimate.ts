import type { HostRunOptions } from '../core/engine/hostRunOptions';
import { estimateRun, type RunEstimate } from '../core/agent/estimateRun';
import { budgetFromEstimate, estimateAgainstActual, estimateLines, shownTokens } from '../core/agent/estimateText';
import { shownUsd } from '../shared/shownUsd';
import type { Plan } from '../core/plan/planSchema';
import type { CliIo } from './cliIo';
import { terminalSafe } from './terminalSafe';

/**
 * Shows the estimate of running `plan` on stderr before it starts, and with
 * `budgetFromEstimate` (`--budget-from-estimate`) makes the estimate's high end the run's
 * budget where the user set no limit of that kind. `undefined` without a model: nothing asks
 * one, so there is nothing to estimate.
 */
export function showCliEstimate(plan: Plan, engine: HostRunOptions, io: CliIo, fromEstimate: boolean): RunEstimate | undefined {
  if (engine.llm === undefined) return undefined;
  const estimate = estimateRun(plan, {
    model: engine.llm.model,
    models: engine.models,
    tools: engine.tools,
    agentLimits: engine.agentLimits,
    reviewCriticalSteps: engine.reviewCriticalSteps,
  });
  io.err(terminalSafe(estimateLines(estimate).join('\n')));
  if (fromEstimate) {
    const limits = budgetFromEstimate(estimate);
    const set = engine.budget.limits();
    if (limits?.maxCostUsd !== undefined && set.maxCostUsd === undefined) {
      engine.budget.raise({ maxCostUsd: limits.maxCostUsd });
      io.err(`Budget: the run stops at ${shownUsd(limits.maxCostUsd)}, the estimate's high end.`);
    } else if (limits?.maxTokens !== undefined && set.maxTokens === undefined) {
      engine.budget.raise({ maxTokens: limits.maxTokens });
      io.err(`Budget: the run stops at ${shownTokens(limits.maxTokens)} tokens, the estimate's high end (the cost is unknown).`);
    }
  }
  return estimate;
}

/** The run's use beside its estimate, on stderr after the run. */
export function showEstimateAgainstActual(estimate: RunEstimate | undefined, engine: HostRunOptions, io: CliIo): void {
  if (estimate !== undefined) io.err(terminalSafe(estimateAgainstActual(estimate, engine.budget.usage())));
}
