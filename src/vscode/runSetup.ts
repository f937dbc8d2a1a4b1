import type * as vscode from 'vscode';
import type { ProviderChoice } from '../core/llm/selectProvider';
import type { EstimateSetup } from '../core/view/panelSession';
import type { ApiKeyStore } from './apiKeyStore';
import { resolveProvider } from './llmProvider';
import { defaultRunPolicy, type RunPolicy } from '../core/engine/runPolicy';
import type { BudgetLimits } from '../core/llm/budget';
import type { LlmClient } from '../core/servicePorts';
import type { ModelRoles } from '../core/llm/modelRoles';
import type { TaskPlannerSettings } from './settings';
import { errorMessage } from '../shared/errorMessage';

/** What a run needs besides its plan, read when it starts. */
export interface RunSetup {
  llm: LlmClient | undefined;
  /**
   * The run settings (`taskPlanner.*`: the model of each role on `llm`'s endpoint, the approval
   * policy, the strategy, concurrency, agent limits, the review of critical steps, replanning),
   * every one but the no-model hint the controller words.
   */
  policy: Omit<RunPolicy, 'noModelHint'>;
  /** Per-run limits of model use (`taskPlanner.budget.*`); reaching one pauses the run. */
  budget: BudgetLimits;
  /** Where each ended run's trace goes (`taskPlanner.tracing.*`, the user's settings only); none: nothing is sent. */
  trace?: { url: string; content: boolean };
}


/**
 * The options of a run from the settings: the model for agent steps (none when it cannot
 * be reached: such steps then fail with that reason), the budgets, and every run setting
 * (`RunPolicy`) but the host's no-model hint, which the controller words. (Restricted Mode is enforced on the tools themselves, at each
 * call: see `gateByWorkspaceTrust`.)
 */
export async function runSetupFor(settings: TaskPlannerSettings, keys: ApiKeyStore, log: vscode.LogOutputChannel): Promise<RunSetup> {
  let llm: RunSetup['llm'];
  let models: ModelRoles = {};
  try {
    ({ llm, models } = await resolveProvider(settings, keys));
  } catch (error) {
    log.warn(`No model for agent steps: ${errorMessage(error)}`);
  }
  return {
    llm,
    policy: {
      maxConcurrency: settings.maxConcurrency,
      approvalPolicy: settings.approvalPolicy,
      strategy: settings.strategy,
      reviewCriticalSteps: settings.reviewCriticalSteps,
      agentLimits: settings.agentLimits,
      models,
      retryBaseDelayMs: defaultRunPolicy.retryBaseDelayMs,
      retryMaxDelayMs: defaultRunPolicy.retryMaxDelayMs,
      predicateTimeoutMs: defaultRunPolicy.predicateTimeoutMs,
      snapshotEvery: defaultRunPolicy.snapshotEvery,
      stepCost: defaultRunPolicy.stepCost,
      ...settings.replan,
    },
    budget: settings.budget,
    ...(settings.trace !== undefined ? { trace: settings.trace } : {}),
  };
}

/**
 * What the review estimates a run with, from the settings and the provider in use
 * (`ModelStatus`): the OpenAI-compatible model and its roles, or the VS Code chat model
 * (no price: the cost shows as unknown); `undefined` for the heuristic planner.
 */
export function estimateSetupFor(settings: TaskPlannerSettings, choice: ProviderChoice | undefined): EstimateSetup | undefined {
  if (choice === undefined || choice === 'heuristic') return undefined;
  const common = { agentLimits: settings.agentLimits, reviewCriticalSteps: settings.reviewCriticalSteps };
  if (choice === 'vscode') return { model: settings.vscodeModelFamily || 'VS Code chat model', ...common };
  return { model: settings.model, models: settings.models, ...common };
}
