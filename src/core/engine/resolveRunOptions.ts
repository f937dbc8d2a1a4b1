import { randomUUID } from 'node:crypto';
import { resolveAgentLimits } from '../agent/agentLimits';
import type { Plan } from '../plan/planSchema';
import type { Tool, ToolRegistry } from '../tools/tool';
import { bareEnvironment, type RunEnvironment } from './runEnvironment';
import { runPolicyOf, type RunPolicy } from './runPolicy';
import type { ResolvedRunOptions, RunOptions } from './runOptions';

const minSnapshotEvery = 256;

/**
 * The whole environment of `options`: what it gives, the null object of `bareEnvironment`
 * for what it leaves out.
 */
export function runEnvironmentOf(options: RunOptions): RunEnvironment {
  const bare = bareEnvironment(options.clock);
  const given = Object.fromEntries(Object.entries(options).filter(([key, value]) => value !== undefined && Object.hasOwn(bare, key)));
  return { ...bare, ...given, tools: toRegistry(options.tools ?? []) };
}

/** Every default of `RunOptions` filled (`bareEnvironment`, `defaultRunPolicy`), as the engine reads them, for `plan`. */
export function resolveRunOptions(plan: Plan, options: RunOptions): ResolvedRunOptions {
  const environment = runEnvironmentOf(options);
  const policy: RunPolicy = runPolicyOf(options);
  const { retryBaseDelayMs, retryMaxDelayMs, maxTotalReplans: _total, maxReplanAttempts: _perStep, replanCooldownMs: _cooldown, ...settings } = policy;
  const maxConcurrency = Math.max(1, Math.floor(policy.maxConcurrency));
  if (!Number.isFinite(maxConcurrency)) throw new Error(`maxConcurrency must be a finite number of at least 1, got ${String(policy.maxConcurrency)}.`);
  const { llm, budget } = environment;
  return {
    ...environment,
    ...settings,
    plan,
    llm: llm && budget ? budget.wrap(llm) : llm,
    agentLimits: resolveAgentLimits(policy.agentLimits),
    maxConcurrency,
    backoff: { baseDelayMs: retryBaseDelayMs, maxDelayMs: retryMaxDelayMs },
    snapshotEvery: Math.max(1, policy.snapshotEvery === 'planSize' ? Math.max(minSnapshotEvery, 2 * plan.steps.length) : policy.snapshotEvery),
    checkCommands: options.checkCommands,
  };
}

/** A new run id from `idSource`, else `run-<base36 time>-<8 hex>`. */
export function newRunId(options: Pick<RunOptions, 'idSource' | 'clock'>): string {
  if (options.idSource) return options.idSource();
  return `run-${options.clock.now().toString(36)}-${randomUUID().slice(0, 8)}`;
}

/** A registry over a list of tools (later names win), or the registry itself. */
export function toRegistry(tools: ToolRegistry | readonly Tool[]): ToolRegistry {
  if (!Array.isArray(tools)) return tools as ToolRegistry;
  const byName = new Map((tools as readonly Tool[]).map((tool) => [tool.name, tool]));
  return { names: () => [...byName.keys()], get: (name) => byName.get(name) };
}
