import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import { resolveProvider } from './llmProvider';
import type { RunSetup } from './runController';
import type { TaskPlannerSettings } from './settings';

/**
 * The options of a run from the settings: the model for agent steps (none when it cannot
 * be reached: such steps then fail with that reason), concurrency, agent limits, and the
 * approval policy, forced to `always` in Restricted Mode so every change reaches the
 * interaction, which refuses it there with the reason.
 */
export async function runSetupFor(settings: TaskPlannerSettings, keys: ApiKeyStore, log: vscode.LogOutputChannel): Promise<RunSetup> {
  let llm: RunSetup['llm'];
  try {
    llm = (await resolveProvider(settings, keys)).llm;
  } catch (error) {
    log.warn(`No model for agent steps: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    llm,
    approvalPolicy: vscode.workspace.isTrusted ? settings.approvalPolicy : 'always',
    maxConcurrency: settings.maxConcurrency,
    agentLimits: settings.agentLimits,
    budget: settings.budget,
  };
}
