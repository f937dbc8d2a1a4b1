import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { hostRunOptions, type HostRunOptions } from '../core/engine/hostRunOptions';
import { runPlan } from '../core/engine/runPlan';
import { createFileRunStore } from '../node/fileRunStore';
import { createNodeCommandRunner } from '../node/nodeCommandRunner';
import { createNodeWorkspace } from '../node/nodeWorkspace';
import { timerClock } from '../node/timerClock';
import { validatePlan } from '../core/plan/validatePlan';
import { type CliIo, loadPlanFile, runsDirectory, UsageError } from './cliIo';
import { cliBudgetLimits, cliModel, type CliModelOptions } from './cliModel';
import { cliTools } from './cliTools';
import { followRun } from './executeCliRun';
import { terminalInteraction } from './terminalInteraction';

/** Options shared by `plan`, `run` and `resume`. */
export interface CliRunOptions extends CliModelOptions {
  workspace: string;
  concurrency: number | undefined;
  yes: boolean;
  json: boolean;
  /** Tools may read and change files with several hard links (`--allow-hard-links`). */
  allowHardLinks?: boolean;
  /** A model reviews the result of critical agent steps (`--review-critical-steps`). */
  reviewCriticalSteps?: boolean;
}

/** What `plan`, `run` and `resume` hand to the engine for a workspace (and the model, when configured). */
export function engineOptions(options: CliRunOptions, io: CliIo): HostRunOptions {
  const root = resolve(options.workspace);
  return hostRunOptions({
    tools: cliTools(),
    workspace: createNodeWorkspace(root, { allowHardLinks: options.allowHardLinks ?? false }),
    commandRunner: createNodeCommandRunner(root),
    store: createFileRunStore(runsDirectory(root)),
    interaction: terminalInteraction(io, { yes: options.yes }),
    checkpoints: undefined,
    logger: undefined,
    clock: timerClock,
    signal: undefined,
    llm: cliModel(options),
    budget: cliBudgetLimits(options),
    approvalPolicy: undefined,
    maxConcurrency: options.concurrency,
    agentLimits: undefined,
    reviewCriticalSteps: options.reviewCriticalSteps ?? false,
    noModelHint: 'Give the command a model with --base-url URL and --model NAME (an API key in OPENAI_API_KEY for a hosted one), or change the step to one you do yourself.',
  });
}

/** `run <plan.json>`: executes the plan in the workspace, journaling it for `resume`. */
export async function runCommand(file: string, options: CliRunOptions, io: CliIo): Promise<number> {
  const { plan, warnings } = await loadPlanFile(file);
  for (const warning of warnings) io.err(`plan warning: ${warning}`);
  const engine = engineOptions(options, io);
  const errors = validatePlan(plan, { tools: engine.tools }).filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) {
    const problems = errors.map((error) => `  - ${error.stepId ? `${error.stepId}: ` : ''}${error.message} (${error.code})`);
    throw new UsageError(
      `${file} is invalid, so it cannot run; nothing was started:\n${problems.join('\n')}\nSee every problem with: task-planner validate ${file}`,
    );
  }
  const handle = runPlan(plan, { ...engine, idSource: newCliRunId });
  return followRun(handle, plan, options.workspace, options.json, io);
}

/** Sortable, file-name-safe run ids: `20250101-120000-1a2b3c`. */
export function newCliRunId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomUUID().slice(0, 6)}`;
}
