import * as vscode from 'vscode';
import { defaultAgentLimits, type AgentLimits } from '../core/agent/agentLimits';
import { defaultRunPolicy, maxReplanCooldownMs, type ReplanLimits } from '../core/engine/runPolicy';
import type { BudgetLimits } from '../core/llm/budget';
import { cleanModelRoles, modelRoleNames, type ModelRoles } from '../core/llm/modelRoles';
import { providerSettings, type ProviderSetting } from '../core/llm/selectProvider';
import { planningStrategies, type PlanningStrategy } from '../core/session/planningPrompt';
import type { ApprovalPolicy } from '../core/tools/tool';
import { otlpTracesUrl } from '../core/trace/otlpTracesUrl';
import {
  approvalPolicyValue,
  eitherTurnsOn,
  longerWait,
  lowerLimit,
  settingValue,
  tighterLimit,
  userValue,
  type SettingOrigin,
  type SettingValues,
} from './settingValues';
import { defaultInvestigationBudget, type InvestigationBudget } from '../core/planner/investigationBudget';

/** The `taskPlanner.*` settings (package.json `contributes.configuration`), read at one moment. */
export interface TaskPlannerSettings {
  provider: ProviderSetting;
  /** Where `provider` comes from: a workspace that sets it may send requests (and so your code) to a VS Code chat model. */
  providerFrom: SettingOrigin;
  /** The provider of the user's own settings (or the default), whatever the workspace says. */
  userProvider: ProviderSetting;
  baseUrl: string;
  /** Where `baseUrl` comes from: a workspace that sets it decides where requests (and so your code) go. */
  baseUrlFrom: SettingOrigin;
  /** The base URL of the user's own settings (or the default), whatever the workspace says. */
  userBaseUrl: string;
  /** Send the API key over plain http to another machine all the same (user settings only). */
  allowInsecureKey: boolean;
  model: string;
  /**
   * `taskPlanner.llm.models.*`: the model name of each role on the same endpoint as `model`
   * (blank and unusable names left out). Names only: the key goes where `baseUrl` says, so
   * a workspace's role setting can pick a model, never a server.
   */
  models: ModelRoles;
  /** Family of the VS Code chat model to prefer (empty: the first available). */
  vscodeModelFamily: string;
  strategy: PlanningStrategy;
  maxConcurrency: number;
  /** The user's own policy, made stricter (never weaker) by the workspace's (`approvalPolicyValue`). */
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
  /** What the model may read before it plans (`taskPlanner.planning.investigation.*`); `maxToolCalls` 0 plans without looking. */
  investigation: InvestigationBudget;
  /** Tools may read and change files with several hard links (`taskPlanner.workspace.allowHardLinks`, user settings only). */
  allowHardLinks: boolean;
  /** Names or patterns of other extensions' tools a plan may use (`taskPlanner.tools.extensionTools`, user settings only). */
  extensionTools: string[];
  /** The model's context window in tokens, 0 when unknown (`taskPlanner.llm.contextTokens`). */
  contextTokens: number;
  /** A model reviews the result of critical agent steps (`taskPlanner.verification.reviewCriticalSteps`; a workspace may turn it on, not off). */
  reviewCriticalSteps: boolean;
  /**
   * Where run traces go (`taskPlanner.tracing.endpoint`, an OTLP/HTTP collector) and whether
   * they hold content (`taskPlanner.tracing.includeContent`): the user's own settings only,
   * so a repository's settings never send traces anywhere, trusted or not. Absent: off.
   */
  trace?: { url: string; content: boolean };
  /** How long an MCP server may take to start and each call may take, in ms (`taskPlanner.mcp.timeoutSeconds`, user settings only). */
  mcpTimeoutMs: number;
}

/** The model's context when `taskPlanner.llm.contextTokens` is 0 (unknown): what Task Planner's own chat model announces. */
export const unknownContextTokens = 16_384;
/** Time limit of one LLM request when the user set none (`taskPlanner.timeouts.llmRequestMs`). */
const defaultRequestTimeoutMs = 120_000;
/** Node's largest timer delay: a timer set for longer fires after 1 ms, so a longer time limit is held to it. */
const largestTimerDelayMs = 2 ** 31 - 1;

/** The settings as last read, until VS Code reports a change that may alter them (see `readSettings`). */
let current: Readonly<TaskPlannerSettings> | undefined;
let watching: vscode.Disposable | undefined;

/**
 * Reads the settings for the first workspace folder; 0 budget values mean "no limit". A
 * workspace value counts only as `settingsFrom` says: in Restricted Mode not at all for
 * the model, its address and the limits; never for the settings only the user may set;
 * and for the approval policy only when it is stricter than the user's.
 *
 * Read once and kept (frozen, shared by every caller) until VS Code reports a change of a
 * `taskPlanner` setting, of workspace trust or of the workspace folders: reading them all
 * takes milliseconds, and a plan panel asks at each snapshot. The first read starts the
 * watch, so its listener runs before those registered later (a listener that reads the
 * settings on a change reads the new ones). This is exactly what VS Code's own reads
 * return: the extension host's copy of the configuration changes only with that event.
 */
export function readSettings(): TaskPlannerSettings {
  watching ??= vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('taskPlanner')) current = undefined;
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => (current = undefined)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => (current = undefined)),
  );
  current ??= deepFreeze(readSettingsNow());
  return current;
}

function readSettingsNow(): TaskPlannerSettings {
  const config = vscode.workspace.getConfiguration('taskPlanner');
  return settingsFrom({ inspect: (key) => config.inspect(key), trusted: vscode.workspace.isTrusted });
}

/** `value` and every object in it, frozen: the settings are shared, so a caller that changed them would change them for all. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}

/** The settings in force given each setting's values by scope and the workspace's trust (see `settingValue`). */
export function settingsFrom(values: SettingValues): TaskPlannerSettings {
  const get = <T>(key: string, fallback: T): T => {
    const { value } = settingValue(values, key);
    return value === undefined || value === null || typeof value !== typeof fallback ? fallback : (value as T);
  };
  // Budgets: a workspace's value may make each stricter, never weaker (`tighterLimit`); 0 or less is no limit.
  const positive = (key: string): number | undefined => tighterLimit(values, key, true);
  const budget: BudgetLimits = {};
  const maxRequests = positive('budget.maxLlmRequests');
  const maxTokens = positive('budget.maxTokens');
  const maxCostUsd = positive('budget.maxCostUsd');
  if (maxRequests !== undefined) budget.maxRequests = maxRequests;
  if (maxTokens !== undefined) budget.maxTokens = maxTokens;
  if (maxCostUsd !== undefined) budget.maxCostUsd = maxCostUsd;
  const agentLimits: Partial<AgentLimits> = {};
  // A user's 0 here is the default, not "none": a workspace may go below the user's value or that default, never above.
  const summaryBudgetTokens = lowerLimit(values, 'compaction.tokenBudget', defaultAgentLimits.summaryBudgetTokens);
  const stepTimeoutMs = lowerLimit(values, 'timeouts.agentStepMs', defaultAgentLimits.timeoutMs);
  if (summaryBudgetTokens !== undefined) agentLimits.summaryBudgetTokens = summaryBudgetTokens;
  if (stepTimeoutMs !== undefined) agentLimits.timeoutMs = Math.min(stepTimeoutMs, largestTimerDelayMs);
  // A count a workspace may lower, never raise above the user's own (or the default).
  const countLimit = (key: string, fallback: number): number => {
    const value = tighterLimit(values, key, false) ?? fallback;
    return value >= 0 ? Math.floor(value) : fallback;
  };
  const defaultBaseUrl = 'https://api.openai.com/v1';
  const ownProvider = userValue(values, 'llm.provider');
  const userProvider: ProviderSetting = isProvider(ownProvider) ? ownProvider : 'auto';
  const provider = settingValue(values, 'llm.provider');
  const baseUrl = settingValue(values, 'llm.baseUrl');
  const ownBaseUrl = userValue(values, 'llm.baseUrl');
  // Held to the setting's maximum: a workspace's "longer" wait of 1e7 s passed a timer's range and fired at once.
  const cooldownSeconds = longerWait(values, 'replan.cooldownSeconds') ?? defaultRunPolicy.replanCooldownMs / 1000;
  const replan: ReplanLimits = {
    maxTotalReplans: countLimit('replan.maxTotalReplans', defaultRunPolicy.maxTotalReplans),
    maxReplanAttempts: countLimit('replan.maxReplanAttempts', defaultRunPolicy.maxReplanAttempts),
    replanCooldownMs: Math.min(maxReplanCooldownMs, Math.floor(cooldownSeconds) * 1000),
  };
  return {
    // No model is the strictest choice: a user who chose it keeps it, whatever provider a workspace names (a repository
    // turned it into Copilot, which then read the user's files, unannounced).
    provider: userProvider === 'heuristic' ? 'heuristic' : get<ProviderSetting>('llm.provider', 'auto'),
    providerFrom: userProvider === 'heuristic' ? 'user' : provider.from,
    userProvider,
    baseUrl: (typeof baseUrl.value === 'string' ? baseUrl.value : defaultBaseUrl).trim(),
    baseUrlFrom: baseUrl.from,
    userBaseUrl: (typeof ownBaseUrl === 'string' ? ownBaseUrl : defaultBaseUrl).trim(),
    allowInsecureKey: get<boolean>('llm.allowInsecureKey', false) === true,
    model: get<string>('llm.model', 'gpt-4o-mini').trim(),
    models: cleanModelRoles(Object.fromEntries(modelRoleNames.map((role) => [role, get<string>(`llm.models.${role}`, '')]))),
    vscodeModelFamily: get<string>('llm.vscodeModelFamily', '').trim(),
    strategy: knownStrategy(get<string>('strategy', defaultRunPolicy.strategy)) ?? knownStrategy(userValue(values, 'strategy')) ?? defaultRunPolicy.strategy,
    maxConcurrency: Math.max(1, countLimit('maxConcurrency', defaultRunPolicy.maxConcurrency)),
    approvalPolicy: approvalPolicyValue(values),
    budget,
    agentLimits,
    replan,
    requestTimeoutMs: Math.min(lowerLimit(values, 'timeouts.llmRequestMs', defaultRequestTimeoutMs) ?? defaultRequestTimeoutMs, largestTimerDelayMs),
    planTreeLayout: get<'flat' | 'levels'>('planTree.layout', 'flat'),
    review: get<'panel' | 'quickPick'>('review.show', 'panel'),
    // More review, never less: a workspace may turn it on, not off when the user turned it on.
    modelCritique: eitherTurnsOn(values, 'review.modelCritique'),
    investigation: {
      maxToolCalls: countLimit('planning.investigation.maxToolCalls', defaultInvestigationBudget.maxToolCalls),
      maxTokens: countLimit('planning.investigation.maxTokens', defaultInvestigationBudget.maxTokens),
      maxSeconds: countLimit('planning.investigation.maxSeconds', defaultInvestigationBudget.maxSeconds),
    },
    allowHardLinks: get<boolean>('workspace.allowHardLinks', false) === true,
    reviewCriticalSteps: eitherTurnsOn(values, 'verification.reviewCriticalSteps'),
    extensionTools: stringList(userValue(values, 'tools.extensionTools')),
    // Unknown (0) is taken as `unknownContextTokens`: a workspace's larger context would lift the tool list's budget and the context announced.
    contextTokens: Math.floor(lowerLimit(values, 'llm.contextTokens', unknownContextTokens) ?? 0),
    mcpTimeoutMs: mcpTimeoutMs(userValue(values, 'mcp.timeoutSeconds')),
    ...traceSetting(values),
  };
}

/** The user's tracing settings when the endpoint is a collector's address (`otlpTracesUrl`); a workspace's values count for nothing. */
function traceSetting(values: SettingValues): { trace?: { url: string; content: boolean } } {
  const endpoint = userValue(values, 'tracing.endpoint');
  const checked = typeof endpoint === 'string' && endpoint.trim() !== '' ? otlpTracesUrl(endpoint) : undefined;
  return checked === undefined || 'problem' in checked ? {} : { trace: { url: checked.url, content: userValue(values, 'tracing.includeContent') === true } };
}

/**
 * `taskPlanner.mcp.timeoutSeconds` in ms: the user's own value (it is application-scoped), at least a second, 60 s when
 * it is no number. Read from the user's settings only: a workspace's value (were VS Code to pass one on) would let a
 * repository's server hold every call and a run's step for as long as it likes.
 */
function mcpTimeoutMs(value: unknown): number {
  const seconds = typeof value === 'number' && Number.isFinite(value) ? value : 60;
  return Math.max(1, seconds) * 1000;
}

/** The strings of a list setting, trimmed, empty ones left out; anything else is an empty list. */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.flatMap((entry) => (typeof entry === 'string' && entry.trim() !== '' ? [entry.trim()] : [])) : [];
}

const isProvider = (value: unknown): value is ProviderSetting => (providerSettings as readonly unknown[]).includes(value);

/** `value` when it names a planning strategy, else `undefined` (a setting written by hand, or a repository's). */
function knownStrategy(value: unknown): PlanningStrategy | undefined {
  return (planningStrategies as readonly unknown[]).includes(value) ? (value as PlanningStrategy) : undefined;
}
