import { randomUUID } from 'node:crypto';
import { showCliEstimate, showEstimateAgainstActual } from './cliEstimate';
import { configuredModels } from '../core/llm/modelRoles';
import { resolve } from 'node:path';
import { hostRunOptions, type HostEnvironment, type HostRunOptions } from '../core/engine/hostRunOptions';
import { defaultRunPolicy, type RunPolicy } from '../core/engine/runPolicy';
import { noAllowRules, silentLogger } from '../core/engine/runEnvironment';
import { toRegistry } from '../core/engine/resolveRunOptions';
import { createBudgetTracker } from '../core/llm/budget';
import { createCheckpointFolder } from '../node/checkpointFolder';
import { createFileRunStore } from '../node/fileRunStore';
import { createNodeCommandRunner } from '../node/nodeCommandRunner';
import { createNodeWorkspace } from '../node/nodeWorkspace';
import { createUserAnswerSeal } from '../node/userAnswerSeal';
import { sharedPredicateThreads } from '../node/predicateThreads';
import { findRipgrepOnPath } from '../node/ripgrepSearcher';
import { timerClock } from '../node/timerClock';
import { findAttachmentProblems, type AttachmentProblem } from '../core/engine/attachmentProblems';
import type { Plan } from '../core/plan/planSchema';
import type { WorkspaceFs } from '../core/workspacePorts';
import type { Tool } from '../core/tools/tool';
import { validatePlan } from '../core/plan/validatePlan';
import { planningStrategies, type PlanningStrategy } from '../core/session/planningPrompt';
import { type CliIo, runsDirectory, UsageError } from './cliIo';
import { cliBudgetLimits, cliModel, cliModelRoles, type CliModelOptions } from './cliModel';
import { checkCommandsConsent } from './checkCommandsConsent';
import { cliReplanLimits, type CliReplanOptions } from './cliReplan';
import { cliTools } from './cliTools';
import { cliCapabilities } from './cliCapabilities';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import { executeWithReplanning } from '../core/replan/executeWithReplanning';
import { followExecution, reportRunResult, resumeFlags } from './executeCliRun';
import { terminalInteraction } from './terminalInteraction';
import { loadRunnablePlan, requireTickApprovals, withTickConsent } from './taskFileCommands';
import { tickSourceCheckbox } from '../core/interop/tickSourceCheckbox';
import { cliAllowList } from './cliAllowRules';
import { sendRunTraces, traceUrl, type CliTraceOptions } from './traceCommand';

/** Options shared by `plan`, `run` and `resume`. */
export interface CliRunOptions extends CliModelOptions, CliReplanOptions, CliTraceOptions {
  workspace: string;
  concurrency: number | undefined;
  yes: boolean;
  json: boolean;
  /** `--tick` (`run` of a task file): each step's checkbox is ticked in the file as the step completes, asked like any change. */
  tick?: boolean;
  /** Tools may read and change files with several hard links (`--allow-hard-links`). */
  allowHardLinks?: boolean;
  /** `--strategy`: how the agents are guided (and the model plans); default `react`. */
  strategy?: string | undefined;
  /** A model reviews the result of critical agent steps (`--review-critical-steps`). */
  reviewCriticalSteps?: boolean;
  /** Tools beyond the built-in ones: the started MCP servers' (see `withCliMcp`). */
  extraTools?: readonly Tool[];
  /** `--allow-command RULE`: commands these allow rules allow run without asking (`parseAllowRule`). */
  allowCommands?: readonly string[] | undefined;
  /** `--allow-file-changes`: file changes are made without asking, except outside the files a step named. */
  allowFileChanges?: boolean;
  /** `--budget-from-estimate`: the run stops at the estimate's high end (its cost, else its tokens) unless a limit of that kind was given. */
  budgetFromEstimate?: boolean;
}

/**
 * What `plan`, `run` and `resume` hand to the engine for a workspace (and the model, when configured), with the workspace's `capabilities` (`cliCapabilities`).
 */
export function engineOptions(options: CliRunOptions, io: CliIo, capabilities: CapabilityCatalogue): HostRunOptions {
  const root = resolve(options.workspace);
  const environment = {
    tools: toRegistry(cliTools(options.extraTools)),
    stepRunner: undefined,
    llm: cliModel(options),
    budget: createBudgetTracker(cliBudgetLimits(options)),
    interaction: terminalInteraction(io, { yes: options.yes }),
    clock: timerClock,
    store: createFileRunStore(runsDirectory(root), { lockRuns: true }),
    workspace: createNodeWorkspace(root, { allowHardLinks: options.allowHardLinks ?? false, ripgrepPath: findRipgrepOnPath(process.env.PATH) }),
    capabilities,
    // The workspace you named is your choice: commands run in its environment (.venv, node_modules/.bin), its programs shown and asked about.
    commandRunner: createNodeCommandRunner(root, { projectEnvironment: {} }),
    // Only the rules given with --allow-command: other commands ask on the terminal (or --yes approves them all).
    allowedCommands: cliAllowList(options.allowCommands) ?? noAllowRules,
    // No editor here: `no_new_diagnostics` checks fail as not available in the command line.
    diagnostics: undefined,
    // Beside the journals: `task-planner undo` reads them back, and a resumed run knows which changes were under way.
    checkpoints: createCheckpointFolder(runsDirectory(root)),
    // A step imported with `run --tick` ticks its checkbox in the task file as it completes (resumed and rerun too); others are left alone.
    stepEpilogue: tickSourceCheckbox,
    logger: silentLogger,
    // The user's key: another `resume` takes back the answers given here, and none a journal in the workspace made up.
    answerSeal: createUserAnswerSeal(),
    // Each predicate on a thread ended at its time limit, which QuickJS alone does not always hold.
    predicates: sharedPredicateThreads(),
  } satisfies HostEnvironment;
  return hostRunOptions(environment, cliRunPolicy(options));
}

/** The run settings the flags choose; what no flag sets keeps its default. */
function cliRunPolicy(options: CliRunOptions): RunPolicy {
  return {
    maxConcurrency: options.concurrency ?? defaultRunPolicy.maxConcurrency,
    approvalPolicy: options.allowFileChanges === true ? 'commandsOnly' : defaultRunPolicy.approvalPolicy,
    strategy: parseStrategy(options.strategy),
    reviewCriticalSteps: options.reviewCriticalSteps ?? false,
    agentLimits: defaultRunPolicy.agentLimits,
    models: cliModelRoles(options),
    noModelHint:
      'Give the command a model with --base-url URL and --model NAME (an API key in OPENAI_API_KEY for a hosted one), or change the step to one you do yourself.',
    retryBaseDelayMs: defaultRunPolicy.retryBaseDelayMs,
    retryMaxDelayMs: defaultRunPolicy.retryMaxDelayMs,
    predicateTimeoutMs: defaultRunPolicy.predicateTimeoutMs,
    snapshotEvery: defaultRunPolicy.snapshotEvery,
    stepCost: defaultRunPolicy.stepCost,
    ...cliReplanLimits(options),
  };
}

/** `run <plan.json>`: executes the plan in the workspace, journaling it for `resume`, repairing failed steps with the model (`executeWithReplanning`). */
export async function runCommand(file: string, options: CliRunOptions, io: CliIo): Promise<number> {
  traceUrl(options);
  const capabilities = await cliCapabilities(options, io);
  const engine = engineOptions(options, io, capabilities);
  // A task file of another tool (Spec Kit, Kiro, Cursor, Copilot, a checklist) runs as the plan it imports to.
  const { plan, warnings } = await loadRunnablePlan(file, engine.llm !== undefined, io, options.tick === true ? { tickIn: options.workspace } : {});
  for (const warning of warnings) io.err(`plan warning: ${warning}`);
  requireTickApprovals(plan, io, options);
  const carried = withTickConsent(options, plan);
  const problems = startProblems(plan, engine, capabilities);
  if (problems.length > 0) {
    throw new UsageError(
      `${file} is invalid, so it cannot run; nothing was started:\n${problems.join('\n')}\nSee every problem with: task-planner validate ${file}`,
    );
  }
  await requireAttachments(plan, engine.workspace, `edit the "attachments" of that step in ${file} (another file, or none)`);
  const estimate = showCliEstimate(plan, engine, io, options.budgetFromEstimate === true);
  const hasAllowRules = engine.allowedCommands.rules().length > 0;
  const checkCommands = await checkCommandsConsent(plan, io, options.yes, new AbortController().signal, {}, engine.commandRunner, hasAllowRules);
  const { result, state, runIds } = await followExecution(
    (hooks) => executeWithReplanning(plan, plan.objective, { ...engine, ...hooks, idSource: newCliRunId, ...(checkCommands ? { checkCommands } : {}) }),
    plan,
    io,
    { json: options.json, resumeFlags: resumeFlags(carried) },
  );
  await sendRunTraces(engine.store, runIds, options, io);
  showEstimateAgainstActual(estimate, engine, io);
  return reportRunResult(result, state, carried, io);
}

/**
 * The validation errors that keep `plan` from starting (against the run's tools, the workspace's skills and the models
 * configured), one indented line each; empty when it can start. The engine would end such a run `failed` at once: the
 * command line refuses it before, as bad input (exit 2), and starts nothing.
 */
export function startProblems(plan: Plan, engine: HostRunOptions, capabilities: CapabilityCatalogue): string[] {
  const models = engine.llm ? { models: configuredModels(engine.llm.model, engine.models) } : {};
  const errors = validatePlan(plan, { tools: engine.tools, skills: capabilities.skills.map((skill) => skill.name), ...models }).filter(
    (diagnostic) => diagnostic.severity === 'error',
  );
  // Messages name their step; the id goes first only for one that does not.
  return errors.map((error) => `  - ${error.stepId && !error.message.includes(error.stepId) ? `${error.stepId}: ` : ''}${error.message}`);
}

/**
 * Refuses to start `plan` while a step's attachment is missing or cannot be used (a file or
 * image, or an address it cannot read): a `UsageError` naming each one, with what to do
 * (`fix` says how to change the plan).
 */
export async function requireAttachments(plan: Plan, workspace: WorkspaceFs, fix: string): Promise<void> {
  const problems = await findAttachmentProblems(plan, workspace);
  if (problems.length === 0) return;
  throw new UsageError(
    `${problems.map((problem) => `  - ${problem.message}`).join('\n')}\n${repair(problems)}, or ${fix}; nothing was started.`,
  );
}

/** What the user can do in place for `problems`: put the files in place, correct the addresses, or both. */
function repair(problems: readonly AttachmentProblem[]): string {
  const addresses = problems.some((problem) => problem.reason === 'bad_url');
  const files = problems.some((problem) => problem.reason !== 'bad_url');
  return files && addresses ? 'Put the file in place or correct the address' : addresses ? 'Correct the address' : 'Put the file in place';
}

/** The `--strategy` value, `react` when absent; a `UsageError` naming the choices for anything else. */
export function parseStrategy(text: string | undefined): PlanningStrategy {
  if (text === undefined) return 'react';
  if ((planningStrategies as readonly string[]).includes(text)) return text as PlanningStrategy;
  throw new UsageError(`--strategy must be one of ${planningStrategies.join(', ')}; got "${text}".`);
}

/** Sortable, file-name-safe run ids: `20250101-120000-1a2b3c`. */
export function newCliRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomUUID().slice(0, 6)}`;
}
