import type { Critique } from '../core/plan/critiquePlan';
import { describeChecks } from '../core/plan/describeCheck';
import type { Plan } from '../core/plan/planSchema';
import { planRequest } from '../core/planner/planRequest';
import { executeWithReplanning } from '../core/replan/executeWithReplanning';
import { planningStrategies, type PlanningStrategy } from '../core/session/planningPrompt';
import { type CliIo, UsageError } from './cliIo';
import { exitCodeOf, followExecution, reportRunResult } from './executeCliRun';
import { type CliRunOptions, engineOptions, newCliRunId } from './runCommand';

/** Options of `plan` besides those it shares with `run`. */
export interface CliPlanOptions extends CliRunOptions {
  strategy: string | undefined;
}

/**
 * `plan "<request>"`: plans the request with an OpenAI-compatible model (API key from the
 * environment, never printed; a base URL alone is enough for local servers), or with the
 * heuristic planner when there is neither; shows the plan and its critique on stderr; asks
 * to start (or starts with `--yes`; without a terminal it stops there), then executes with
 * the same approvals as `run`, replanning failed steps when a model is configured.
 */
export async function planCommand(request: string, options: CliPlanOptions, io: CliIo): Promise<number> {
  const strategy = parseStrategy(options.strategy);
  const engine = engineOptions(options, io);
  const llm = engine.llm;
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort(new Error('Interrupted (Ctrl+C).'));
  process.once('SIGINT', onInterrupt);
  try {
    io.err(
      llm === undefined
        ? 'No API key (OPENAI_API_KEY or TASK_PLANNER_API_KEY) and no --base-url: planning with the heuristic planner, without a model.'
        : `Planning with ${llm.model}…`,
    );
    const { plan, critique, warnings } = await planRequest(request, {
      llm,
      tools: engine.tools,
      signal: controller.signal,
      clock: engine.clock,
      strategy,
      workspace: engine.workspace,
    });
    io.err(describePlan(plan, critique, warnings));
    if (!options.yes && !(io.interactive && (await confirm(io, 'Start this plan? [y/N] ', controller.signal)))) {
      if (options.json) io.out(JSON.stringify({ plan, critique, warnings, started: false }, null, 2));
      io.err(
        `Not started.${io.interactive ? '' : ' Without a terminal, pass --yes to start (it also approves every change), or save the plan with --json and use "task-planner run".'}`,
      );
      return 0;
    }
    const { result, state } = await followExecution(
      (hooks) => executeWithReplanning(plan, plan.objective, { ...engine, ...hooks, idSource: newCliRunId }),
      plan,
      io,
    );
    if (options.json) {
      io.out(JSON.stringify({ plan, critique, warnings, started: true, result }, null, 2));
      return exitCodeOf(result);
    }
    return reportRunResult(result, state, options.workspace, false, io);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

function parseStrategy(text: string | undefined): PlanningStrategy {
  if (text === undefined) return 'react';
  if ((planningStrategies as readonly string[]).includes(text)) return text as PlanningStrategy;
  throw new UsageError(`--strategy must be one of ${planningStrategies.join(', ')}; got "${text}".`);
}

/** The plan as numbered lines with kinds, dependencies and checks, then the critique. */
function describePlan(plan: Plan, critique: Critique, warnings: readonly string[]): string {
  const steps = plan.steps.map((step, index) => {
    const what = step.kind === 'tool' ? `tool ${step.tool ?? '?'}` : step.kind === 'agent' ? `agent ${step.agent ?? 'default'}` : step.kind;
    const checks = describeChecks(step.checks);
    return `  ${index + 1}. ${step.id} ${step.title} (${what}${step.dependsOn.length > 0 ? `, after ${step.dependsOn.join(', ')}` : ''})${checks === undefined ? '' : `\n     checks: ${checks}`}`;
  });
  const issues = critique.issues.map((issue) => `  - ${issue.severity}${issue.stepId ? ` ${issue.stepId}` : ''}: ${issue.message}`);
  return [
    `Plan: ${plan.objective}`,
    ...steps,
    `Critique: score ${critique.score}/10. ${critique.summary}`,
    ...issues,
    ...warnings.map((warning) => `  warning: ${warning}`),
  ].join('\n');
}

async function confirm(io: CliIo, question: string, signal: AbortSignal): Promise<boolean> {
  const answer = (await io.ask(question, signal)).toLowerCase();
  return answer === 'y' || answer === 'yes';
}
