import { randomUUID } from 'node:crypto';
import { resolveAgentLimits } from '../agent/agentLimits';
import type { Plan } from '../plan/planSchema';
import type { Logger, WorkspaceFs } from '../ports';
import type { Tool, ToolRegistry } from '../tools/tool';
import { emptyCatalogue } from '../capabilities/capabilityCatalogue';
import { defaultBackoff } from './failurePolicy';
import type { ResolvedRunOptions, RunOptions } from './runOptions';
import { deferAllInteraction } from './stepInteraction';

const defaultMaxConcurrency = 4;
const defaultPredicateTimeoutMs = 1000;
const minSnapshotEvery = 256;

/** Fills every default of `RunOptions` (documented there) for `plan`. */
export function resolveRunOptions(plan: Plan, options: RunOptions): ResolvedRunOptions {
  const maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency ?? defaultMaxConcurrency));
  if (!Number.isFinite(maxConcurrency)) throw new Error(`maxConcurrency must be a finite number of at least 1, got ${String(options.maxConcurrency)}.`);
  return {
    plan,
    tools: toRegistry(options.tools ?? []),
    stepRunner: options.stepRunner,
    llm: options.llm && options.budget ? options.budget.wrap(options.llm) : options.llm,
    models: options.models ?? {},
    agentLimits: resolveAgentLimits(options.agentLimits),
    reviewCriticalSteps: options.reviewCriticalSteps ?? false,
    interaction: options.interaction ?? deferAllInteraction,
    maxConcurrency,
    clock: options.clock,
    store: options.store,
    workspace: options.workspace ?? missingWorkspace,
    approvalPolicy: options.approvalPolicy ?? 'writesAndCommands',
    strategy: options.strategy ?? 'react',
    capabilities: options.capabilities ?? emptyCatalogue,
    commandRunner: options.commandRunner,
    allowedCommands: options.allowedCommands,
    diagnostics: options.diagnostics,
    checkCommands: options.checkCommands,
    checkpoints: options.checkpoints,
    stepEpilogue: options.stepEpilogue,
    logger: options.logger ?? silentLogger,
    backoff: {
      baseDelayMs: options.retryBaseDelayMs ?? defaultBackoff.baseDelayMs,
      maxDelayMs: options.retryMaxDelayMs ?? defaultBackoff.maxDelayMs,
    },
    predicateTimeoutMs: options.predicateTimeoutMs ?? defaultPredicateTimeoutMs,
    snapshotEvery: Math.max(1, options.snapshotEvery ?? Math.max(minSnapshotEvery, 2 * plan.steps.length)),
    stepCost: options.stepCost,
    noModelHint: options.noModelHint ?? 'Set up a model, or change the step to one you do yourself.',
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

const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const refuse = (): Promise<never> =>
  Promise.reject(
    new Error(
      'This run has no workspace folder, so tools cannot reach files: open a folder (or give the command line --workspace DIR), then run the plan again.',
    ),
  );

const missingWorkspace: WorkspaceFs = {
  rootLabel: '(no workspace)',
  readText: refuse,
  writeText: refuse,
  delete: refuse,
  createDirectory: refuse,
  list: refuse,
  stat: refuse,
};
