import * as vscode from 'vscode';
import type { AgentLimits } from '../core/agent/agentLimits';
import type { ReplanLimits } from '../core/engine/hostRunOptions';
import type { BudgetLimits } from '../core/llm/budget';
import type { ProviderSetting } from '../core/llm/selectProvider';
import type { PlanningStrategy } from '../core/session/planningPrompt';
import type { ApprovalPolicy } from '../core/tools/tool';

/** The `taskPlanner.*` settings (package.json `contributes.configuration`), read at one moment. */
export interface TaskPlannerSettings {
  provider: ProviderSetting;
  baseUrl: string;
  /** Send the API key over plain http to another machine all the same (user settings only). */
  allowInsecureKey: boolean;
  model: string;
  /** Family of the VS Code chat model to prefer (empty: the first available). */
  vscodeModelFamily: string;
  strategy: PlanningStrategy;
  maxConcurrency: number;
  approvalPolicy: ApprovalPolicy;
  budget: BudgetLimits;
  agentLimits: Partial<AgentLimits>;
  /** `taskPlanner.replan.*`: how far a failed run is repaired with new plans. */
  replan: ReplanLimits;
  /** Time limit of one LLM request, in milliseconds. */
  requestTimeoutMs: number;
  planTreeLayout: 'flat' | 'levels';
  /** Where "Plan task" shows the plan for review before it runs (`taskPlanner.review.show`). */
  review: 'panel' | 'quickPick';
  /** The model reviews each new plan too (`taskPlanner.review.modelCritique`). */
  modelCritique: boolean;
  /** Tools may read and change files with several hard links (`taskPlanner.workspace.allowHardLinks`). */
  allowHardLinks: boolean;
}

/** Reads the settings for the first workspace folder; 0 budget values mean "no limit". */
export function readSettings(): TaskPlannerSettings {
  const config = vscode.workspace.getConfiguration('taskPlanner');
  const positive = (key: string): number | undefined => {
    const value = config.get<number>(key, 0);
    return value > 0 ? value : undefined;
  };
  const budget: BudgetLimits = {};
  const maxRequests = positive('budget.maxLlmRequests');
  const maxTokens = positive('budget.maxTokens');
  const maxCostUsd = positive('budget.maxCostUsd');
  if (maxRequests !== undefined) budget.maxRequests = maxRequests;
  if (maxTokens !== undefined) budget.maxTokens = maxTokens;
  if (maxCostUsd !== undefined) budget.maxCostUsd = maxCostUsd;
  const agentLimits: Partial<AgentLimits> = {};
  const summaryBudgetTokens = positive('compaction.tokenBudget');
  const stepTimeoutMs = positive('timeouts.agentStepMs');
  if (summaryBudgetTokens !== undefined) agentLimits.summaryBudgetTokens = summaryBudgetTokens;
  if (stepTimeoutMs !== undefined) agentLimits.timeoutMs = stepTimeoutMs;
  const atLeastZero = (key: string, fallback: number): number => {
    const value = config.get<number>(key, fallback);
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
  };
  const replan: ReplanLimits = {
    maxTotalReplans: atLeastZero('replan.maxTotalReplans', 3),
    maxReplanAttempts: atLeastZero('replan.maxReplanAttempts', 2),
    replanCooldownMs: atLeastZero('replan.cooldownSeconds', 0) * 1000,
  };
  return {
    provider: config.get<ProviderSetting>('llm.provider', 'auto'),
    baseUrl: config.get<string>('llm.baseUrl', 'https://api.openai.com/v1').trim(),
    allowInsecureKey: config.get<boolean>('llm.allowInsecureKey', false) === true,
    model: config.get<string>('llm.model', 'gpt-4o-mini').trim(),
    vscodeModelFamily: config.get<string>('llm.vscodeModelFamily', '').trim(),
    strategy: config.get<PlanningStrategy>('strategy', 'react'),
    maxConcurrency: Math.max(1, Math.floor(config.get<number>('maxConcurrency', 4))),
    approvalPolicy: config.get<ApprovalPolicy>('approvalPolicy', 'writesAndCommands'),
    budget,
    agentLimits,
    replan,
    requestTimeoutMs: positive('timeouts.llmRequestMs') ?? 120_000,
    planTreeLayout: config.get<'flat' | 'levels'>('planTree.layout', 'flat'),
    review: config.get<'panel' | 'quickPick'>('review.show', 'panel'),
    modelCritique: config.get<boolean>('review.modelCritique', false) === true,
    allowHardLinks: config.get<boolean>('workspace.allowHardLinks', false),
  };
}
