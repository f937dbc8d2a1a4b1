import type * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import { resolveProvider } from './llmProvider';
import type { RunSetup } from './runController';
import type { TaskPlannerSettings } from './settings';
import { errorMessage } from '../shared/errorMessage';

/**
 * The options of a run from the settings: the model for agent steps (none when it cannot
 * be reached: such steps then fail with that reason), concurrency, agent limits, budgets
 * the approval policy and the replanning limits. (Restricted Mode is enforced on the tools themselves, at each
 * call: see `gateByWorkspaceTrust`.)
 */
export async function runSetupFor(settings: TaskPlannerSettings, keys: ApiKeyStore, log: vscode.LogOutputChannel): Promise<RunSetup> {
  let llm: RunSetup['llm'];
  let models: RunSetup['models'] = {};
  try {
    ({ llm, models } = await resolveProvider(settings, keys));
  } catch (error) {
    log.warn(`No model for agent steps: ${errorMessage(error)}`);
  }
  return {
    llm,
    models,
    approvalPolicy: settings.approvalPolicy,
    strategy: settings.strategy,
    maxConcurrency: settings.maxConcurrency,
    agentLimits: settings.agentLimits,
    reviewCriticalSteps: settings.reviewCriticalSteps,
    budget: settings.budget,
    replan: settings.replan,
    ...(settings.trace !== undefined ? { trace: settings.trace } : {}),
  };
}
