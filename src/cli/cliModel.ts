import { baseUrlProblem } from '../core/llm/baseUrlProblem';
import type { BudgetLimits } from '../core/llm/budget';
import { cleanModelRoles, type ModelRole, type ModelRoles } from '../core/llm/modelRoles';
import { createOpenAiClient } from '../node/openAiClient';
import type { LlmClient } from '../core/servicePorts';
import { UsageError } from './cliIo';
import { shellWord } from './shellWord';

/** Model and budget options shared by `plan`, `run` and `resume`. */
export interface CliModelOptions {
  baseUrl: string | undefined;
  model: string | undefined;
  /** The environment to read the API key from (`OPENAI_API_KEY`, else `TASK_PLANNER_API_KEY`). */
  env: Readonly<Record<string, string | undefined>>;
  maxRequests: string | undefined;
  maxTokens: string | undefined;
  maxCost: string | undefined;
  /** `--timeout`: seconds one model request may take, its whole reply included. */
  timeout: string | undefined;
  /** `--allow-insecure-key`: send the key over plain http to another machine all the same. */
  allowInsecureKey: boolean;
  /** `--planner-model`, `--agent-model`, `--reviewer-model`, `--compaction-model`: each role's model on the same endpoint. */
  roleModels?: Partial<Record<ModelRole, string | undefined>>;
}

const defaultBaseUrl = 'https://api.openai.com/v1';
const defaultModel = 'gpt-4o-mini';

/**
 * The OpenAI-compatible model the command line uses, or `undefined` when there is neither
 * an API key in the environment nor `--base-url` (a local server needs no key). The key is
 * never printed. A base URL that `baseUrlProblem` refuses, or a bad `--timeout`, is a
 * `UsageError`.
 */
export function cliModel(options: CliModelOptions): LlmClient | undefined {
  const apiKey = options.env['OPENAI_API_KEY']?.trim() || options.env['TASK_PLANNER_API_KEY']?.trim() || undefined;
  const timeoutSeconds = positive(options.timeout, '--timeout', false, 'number of seconds');
  if (apiKey === undefined && options.baseUrl === undefined) return undefined;
  const baseURL = options.baseUrl ?? defaultBaseUrl;
  const problem = baseUrlProblem(baseURL, {
    sendsKey: apiKey !== undefined,
    allowInsecureKey: options.allowInsecureKey,
    allowHint: 'add --allow-insecure-key',
  });
  if (problem !== undefined) throw new UsageError(problem);
  return createOpenAiClient({
    baseURL,
    model: options.model ?? defaultModel,
    allowInsecureKey: options.allowInsecureKey,
    ...(apiKey ? { apiKey } : {}),
    ...(timeoutSeconds === undefined ? {} : { timeoutMs: Math.ceil(timeoutSeconds * 1000) }),
  });
}

/** The model of each role from `--<role>-model`; a name `modelNameProblem` refuses is a `UsageError`. */
export function cliModelRoles(options: Pick<CliModelOptions, 'roleModels'>): ModelRoles {
  return cleanModelRoles(options.roleModels ?? {}, (role, problem) => {
    throw new UsageError(`--${role}-model: ${problem}.`);
  });
}

/** The run's budget limits from `--max-requests`, `--max-tokens` and `--max-cost` (none: unlimited). */
export function cliBudgetLimits(options: CliModelOptions): BudgetLimits {
  const limits: BudgetLimits = {};
  const requests = positive(options.maxRequests, '--max-requests', true);
  const tokens = positive(options.maxTokens, '--max-tokens', true);
  const cost = positive(options.maxCost, '--max-cost', false);
  if (requests !== undefined) limits.maxRequests = requests;
  if (tokens !== undefined) limits.maxTokens = tokens;
  if (cost !== undefined) limits.maxCostUsd = cost;
  return limits;
}

function positive(text: string | undefined, flag: string, whole: boolean, what = whole ? 'whole number' : 'number'): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    throw new UsageError(`${flag} must be a positive ${what}, got "${text}".`);
  }
  return value;
}

/** The options a command the user is told to paste (`resume`, `rerun`) carries on, as this command was given them. */
export type CarriedOptions = Pick<CliModelOptions, 'baseUrl' | 'model' | 'roleModels' | 'allowInsecureKey'> &
  Partial<Pick<CliModelOptions, 'maxRequests' | 'maxTokens' | 'maxCost' | 'timeout'>> & {
    strategy?: string | undefined;
    concurrency?: number | undefined;
    maxReplans?: string | undefined;
    maxReplanAttempts?: string | undefined;
    replanCooldown?: string | undefined;
    reviewCriticalSteps?: boolean | undefined;
    allowHardLinks?: boolean | undefined;
    /**
     * `--allow-file-changes` of a run whose steps tick their checkboxes (`ticksCheckboxes`): without it the pasted resume of a
     * run with no terminal was refused ("a tick is a file change that asks first"), the one command it printed a dead end.
     */
    allowTicks?: boolean | undefined;
  };

/**
 * The model options, budget limits and ways of running given, as flags for the next command the user is told to paste
 * (`resume`, `rerun`): without the model's a pasted resume ran with no model, and a repair that could have worked said
 * "replanning needs a language model"; without `--max-requests 1` a pasted resume went past the budget the user set (a
 * newcomer's trial). Empty when none was given. The key is never one of them: it stays in the environment. Consents
 * (`--allow-command`, `--yes`) are not carried: the printed command answers what waits, each by its id; but for
 * `--allow-file-changes`, carried for a run that ticks checkboxes (`allowTicks`), which cannot go on without it.
 */
export function carriedFlags(options: CarriedOptions): string {
  const valued = (flag: string, value: string | number | undefined): string[] => (value === undefined ? [] : [`--${flag} ${shellWord(String(value))}`]);
  const roles = Object.entries(options.roleModels ?? {}).flatMap(([role, model]) => valued(`${role}-model`, model));
  return [
    ...valued('base-url', options.baseUrl),
    ...valued('model', options.model),
    ...roles,
    ...(options.allowInsecureKey ? ['--allow-insecure-key'] : []),
    ...valued('max-requests', options.maxRequests),
    ...valued('max-tokens', options.maxTokens),
    ...valued('max-cost', options.maxCost),
    ...valued('timeout', options.timeout),
    ...valued('strategy', options.strategy),
    ...valued('concurrency', options.concurrency),
    ...valued('max-replans', options.maxReplans),
    ...valued('max-replan-attempts', options.maxReplanAttempts),
    ...valued('replan-cooldown', options.replanCooldown),
    ...(options.reviewCriticalSteps === true ? ['--review-critical-steps'] : []),
    ...(options.allowHardLinks === true ? ['--allow-hard-links'] : []),
    ...(options.allowTicks === true ? ['--allow-file-changes'] : []),
  ]
    .map((flag) => ` ${flag}`)
    .join('');
}
