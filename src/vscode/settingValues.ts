import type { ApprovalPolicy } from '../core/tools/tool';

/** A setting's values as `WorkspaceConfiguration.inspect` reports them (`taskPlanner.` left out of the key). */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** What the settings are read from: each setting's values by scope, and whether the workspace is trusted now. */
export interface SettingValues {
  inspect(key: string): InspectedSetting | undefined;
  trusted: boolean;
}

/**
 * Settings whose workspace value is ignored while the workspace is not trusted
 * (Restricted Mode): where requests go and with which model, and every limit on cost and
 * time. Each is in package.json's `capabilities.untrustedWorkspaces.restrictedConfigurations`
 * too; reading them here does not rely on VS Code having dropped the workspace value.
 */
export const restrictedInUntrustedWorkspace: readonly string[] = [
  'llm.provider',
  'llm.baseUrl',
  'llm.model',
  'llm.models.planner',
  'llm.models.agent',
  'llm.models.reviewer',
  'llm.models.compaction',
  'llm.vscodeModelFamily',
  'maxConcurrency',
  'budget.maxLlmRequests',
  'budget.maxTokens',
  'budget.maxCostUsd',
  'replan.maxTotalReplans',
  'replan.maxReplanAttempts',
  'replan.cooldownSeconds',
  'compaction.tokenBudget',
  'timeouts.llmRequestMs',
  'timeouts.agentStepMs',
  'approvalPolicy',
  'verification.reviewCriticalSteps',
  'review.modelCritique',
  'strategy',
  'llm.contextTokens',
  'planning.investigation.maxToolCalls',
  'planning.investigation.maxTokens',
  'planning.investigation.maxSeconds',
];

/**
 * Settings only the user's own settings can set (package.json `"scope": "application"`):
 * a workspace value, were one there, is never read.
 */
export const userSettingsOnly: readonly string[] = [
  'llm.allowInsecureKey',
  'commands.allowed',
  'workspace.allowHardLinks',
  'mcp.servers',
  'skills.folders',
  'tracing.endpoint',
  'tracing.includeContent',
  // Application-scoped in package.json too: without them here a workspace value was read wherever a caller asked
  // `settingValue` or `WorkspaceConfiguration.get` (`mcp.timeoutSeconds` in mcpHost), relying on VS Code to drop it.
  'tools.extensionTools',
  'mcp.timeoutSeconds',
];

/** Where a setting's value in force comes from. */
export type SettingOrigin = 'default' | 'user' | 'workspace' | 'workspaceFolder';

/** The value in force of `key` and where it comes from, under the rules above. */
export function settingValue(values: SettingValues, key: string): { value: unknown; from: SettingOrigin } {
  const inspected = values.inspect(key) ?? {};
  const workspaceCounts = values.trusted || !restrictedInUntrustedWorkspace.includes(key);
  if (workspaceCounts && !userSettingsOnly.includes(key)) {
    if (inspected.workspaceFolderValue !== undefined) return { value: inspected.workspaceFolderValue, from: 'workspaceFolder' };
    if (inspected.workspaceValue !== undefined) return { value: inspected.workspaceValue, from: 'workspace' };
  }
  if (inspected.globalValue !== undefined) return { value: inspected.globalValue, from: 'user' };
  return { value: inspected.defaultValue, from: 'default' };
}

/** The value of `key` in the user's settings (or the default): what a workspace cannot change. */
export function userValue(values: SettingValues, key: string): unknown {
  const inspected = values.inspect(key) ?? {};
  return inspected.globalValue !== undefined ? inspected.globalValue : inspected.defaultValue;
}

const strictness: Record<ApprovalPolicy, number> = { commandsOnly: 0, writesAndCommands: 1, always: 2 };
const isApprovalPolicy = (value: unknown): value is ApprovalPolicy => typeof value === 'string' && Object.hasOwn(strictness, value);

/**
 * `taskPlanner.approvalPolicy` in force: the user's own value (or the default), made
 * stricter, never weaker, by the workspace's. A workspace that says `commandsOnly` where
 * the user says `writesAndCommands` changes nothing; one that says `always` is obeyed.
 */
export function approvalPolicyValue(values: SettingValues): ApprovalPolicy {
  const own = userValue(values, 'approvalPolicy');
  const user: ApprovalPolicy = isApprovalPolicy(own) ? own : 'writesAndCommands';
  const workspace = settingValue(values, 'approvalPolicy').value;
  return isApprovalPolicy(workspace) && strictness[workspace] > strictness[user] ? workspace : user;
}

/** A boolean safety switch that a workspace may turn on but never off (`verification.reviewCriticalSteps`). */
export function eitherTurnsOn(values: SettingValues, key: string): boolean {
  return userValue(values, key) === true || settingValue(values, key).value === true;
}

/**
 * A limit a workspace may tighten but never loosen (a budget, a time limit, a count of repairs or of steps at once): the
 * smaller of the user's own value (or the default) and the workspace's. With `zeroIsNone` a value of 0 or less means no
 * limit, so it is never the smaller (a workspace's 0 does not lift the user's budget). `undefined` when no number is set.
 */
export function tighterLimit(values: SettingValues, key: string, zeroIsNone: boolean): number | undefined {
  const set = limitValues(values, key).filter((value) => !zeroIsNone || value > 0);
  return set.length === 0 ? undefined : Math.min(...set);
}

/**
 * A limit whose 0 (or less) is no value, so that the default stands (a time limit, the summary's size, the model's context):
 * the user's own positive value, else `undefined` (the caller's default is in force); the workspace's instead only when it
 * is positive and below what is in force without it: the user's value, else `inForce`, the default. Unlike `tighterLimit`,
 * a user's 0 is not "no limit" here, so a workspace's larger value never raises the default the user has.
 */
export function lowerLimit(values: SettingValues, key: string, inForce: number): number | undefined {
  const own = userValue(values, key);
  const user = isPositive(own) ? own : undefined;
  const workspace = settingValue(values, key).value;
  return isPositive(workspace) && workspace < (user ?? inForce) ? workspace : user;
}

const isPositive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** A wait a workspace may lengthen but never shorten (`replan.cooldownSeconds`): the larger of the user's and its own. */
export function longerWait(values: SettingValues, key: string): number | undefined {
  const set = limitValues(values, key);
  return set.length === 0 ? undefined : Math.max(...set);
}

/**
 * The user's own value of `key` (or the default) and the one in force, each when it is a number of 0 or more: a
 * negative value is no limit of any kind, and never stands in for the user's (the default came back in its place).
 */
function limitValues(values: SettingValues, key: string): number[] {
  const both = [userValue(values, key), settingValue(values, key).value];
  return both.filter((value): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0);
}
