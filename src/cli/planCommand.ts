import type { Critique } from '../core/plan/critiquePlan';
import { showCliEstimate, showEstimateAgainstActual } from './cliEstimate';
import { describeChecks } from '../core/plan/describeCheck';
import type { Plan } from '../core/plan/planSchema';
import { planRequest, type PlannedRequest } from '../core/planner/planRequest';
import { stepApproval, type StepApproval } from '../core/plan/stepApproval';
import type { ApprovalPolicy, ToolRegistry } from '../core/tools/tool';
import { executeWithReplanning } from '../core/replan/executeWithReplanning';
import { type CliIo, warningLine } from './cliIo';
import { cliCapabilities } from './cliCapabilities';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import { stepCapabilities, type StepCapabilities } from '../core/capabilities/stepCapabilities';
import { exitCodeOf, followExecution, onStopSignals, reportRunResult, resumeFlags } from './executeCliRun';
import { sendRunTraces } from './traceCommand';
import { type CliRunOptions, engineOptions, newCliRunId, parseStrategy, requireAttachments, startProblems } from './runCommand';
import { cliInvestigationBudget, cliPlanningQuestions, describeBasis, type CliInvestigationOptions } from './cliInvestigation';
import { describeInvestigationEnd } from '../core/planner/investigateRequest';
import { oneLine } from '../core/text/oneLine';
import { shownRef } from '../core/plan/attachmentTarget';
import { shownUsd } from '../shared/shownUsd';

/** Options of `plan` besides those it shares with `run`. */
export interface CliPlanOptions extends CliRunOptions, CliInvestigationOptions {
  /** `--model-critique`: a model reviews the plan too, beside the static critic. */
  modelCritique?: boolean;
  /** `--answer Qn=TEXT`: answers to the planner's questions, by their number. */
  answers?: Readonly<Record<string, string>>;
}

/**
 * `plan "<request>"`: plans the request with an OpenAI-compatible model (API key from the
 * environment, never printed; a base URL alone is enough for local servers), or with the
 * heuristic planner when there is neither; shows the plan and its critique on stderr; refuses
 * a plan that cannot start (validation errors) as bad input, exit 2, starting nothing; else asks
 * to start (or starts with `--yes`; without a terminal it stops there), then executes with
 * the same approvals as `run`, replanning failed steps when a model is configured.
 */
export async function planCommand(request: string, options: CliPlanOptions, io: CliIo): Promise<number> {
  const strategy = parseStrategy(options.strategy);
  const budget = cliInvestigationBudget(options);
  const controller = new AbortController();
  // While the model investigates, the first Ctrl+C means "plan now with what was read"; the next one cancels.
  const planNow = new AbortController();
  let investigating = false;
  const onInterrupt = (): void => {
    if (investigating && !planNow.signal.aborted) {
      planNow.abort();
      io.err('Planning with what was read so far (Ctrl+C again to cancel).');
      return;
    }
    process.removeListener('SIGINT', onInterrupt);
    controller.abort(new Error('Interrupted (Ctrl+C).'));
  };
  process.on('SIGINT', onInterrupt);
  const stopOn = onStopSignals((reason) => controller.abort(reason), ['SIGTERM', 'SIGHUP']);
  try {
    const capabilities = await cliCapabilities(options, io, controller.signal);
    const engine = engineOptions(options, io, capabilities);
    const llm = engine.llm;
    io.err(
      llm === undefined
        ? 'No API key (OPENAI_API_KEY or TASK_PLANNER_API_KEY) and no --base-url: planning with the heuristic planner, without a model.'
        : `Planning with ${llm.model}…${budget.maxToolCalls > 0 ? ' It may read the workspace first (Ctrl+C: plan with what it read).' : ''}`,
    );
    investigating = llm !== undefined && budget.maxToolCalls > 0;
    const planned = await planRequest(request, {
      llm,
      models: engine.models,
      tools: engine.tools,
      signal: controller.signal,
      clock: engine.clock,
      strategy,
      workspace: engine.workspace,
      modelCritique: options.modelCritique === true,
      skills: capabilities.skills,
      instructions: capabilities.instructions,
      investigate: {
        budget,
        stop: planNow.signal,
        progress: (line) => io.err(`  ${line}`),
        ask: cliPlanningQuestions(io, { yes: options.yes === true, answers: options.answers ?? {} }),
        // The plan is being written now: Ctrl+C cancels, it no longer means "plan with what was read".
        ended: () => (investigating = false),
        writing: () => (investigating = false),
      },
    });
    investigating = false;
    const { plan, critique, warnings } = planned;
    if (planned.investigation && planned.investigation.end !== 'answered') io.err(describeInvestigationEnd(planned.investigation));
    io.err(describePlan(plan, critique, warnings, engine.approvalPolicy ?? 'writesAndCommands', engine.tools, capabilities));
    if (plan.basis) io.err(describeBasis(plan.basis));
    if (planned.modelCritique) io.err(describeModelCritique(planned.modelCritique));
    // A plan that cannot start is refused here, with or without --yes: it was journaled as a failed run (exit 1), or "Not started" with exit 0.
    const problems = startProblems(plan, engine, capabilities);
    if (problems.length > 0) {
      if (options.json) io.out(JSON.stringify({ plan, critique, warnings, started: false }, null, 2));
      io.err(
        `The plan cannot start as it is; nothing was started:\n${problems.join('\n')}\n` +
          'Plan again with the request worded otherwise, or save the plan with --json, fix it and start it with "task-planner run".',
      );
      return 2;
    }
    const estimate = showCliEstimate(plan, engine, io, options.budgetFromEstimate === true);
    if (!options.yes && !(io.interactive && (await confirm(io, 'Start this plan? [y/N] ', controller.signal)))) {
      if (options.json) io.out(JSON.stringify({ plan, critique, warnings, started: false, ...(estimate ? { estimate } : {}) }, null, 2));
      io.err(
        `Not started.${io.interactive ? '' : ' Without a terminal, pass --yes to start (it also approves every change), or save the plan with --json and use "task-planner run".'}`,
      );
      return 0;
    }
    const fix = 'save the plan with --json, edit the "attachments" of that step (another file, or none) and start it with "task-planner run"';
    await requireAttachments(plan, engine.workspace, fix);
    const { result, state, runIds } = await followExecution(
      (hooks) => executeWithReplanning(plan, plan.objective, { ...engine, ...hooks, idSource: newCliRunId, planOrigin: planned.origin }),
      plan,
      io,
      { json: options.json, resumeFlags: resumeFlags(options) },
    );
    await sendRunTraces(engine.store, runIds, options, io);
    showEstimateAgainstActual(estimate, engine, io);
    if (options.json) {
      // `usage` is the run's own model use (planning not counted), what `estimate` estimated.
      io.out(JSON.stringify({ plan, critique, warnings, started: true, result, ...(estimate ? { estimate } : {}), usage: engine.budget.usage() }, null, 2));
      return exitCodeOf(result);
    }
    return reportRunResult(result, state, { ...options, json: false }, io);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    stopOn.remove();
  }
}

/** How the review names what a step will do about approval; the command line has no Restricted Mode. */
const approvalWords: Record<StepApproval, string> = { asks: 'asks approval', mayAsk: 'may ask approval', refused: 'refused: workspace not trusted', none: '' };

/** What the model critique took, and why its findings are missing when they are. */
function describeModelCritique(model: NonNullable<PlannedRequest['modelCritique']>): string {
  const tokens = model.usage.promptTokens + model.usage.completionTokens;
  const cost = model.costUsd === undefined ? 'cost unknown' : shownUsd(model.costUsd);
  return `Model critique: ${tokens} tokens, ${cost}.${model.error === undefined ? '' : ` ${warningLine(model.error)}`}`;
}

/** The plan as numbered lines with kinds, dependencies, whether each asks for approval, and checks, then the critique. */
function describePlan(
  plan: Plan,
  critique: Critique,
  warnings: readonly string[],
  policy: ApprovalPolicy,
  tools: ToolRegistry,
  capabilities: CapabilityCatalogue,
): string {
  const steps = plan.steps.map((step, index) => {
    // Names the model gives are quoted on one bounded line: a line break in one forged a line of the review.
    const what = step.kind === 'tool' ? `tool ${shownRef(step.tool ?? '?')}` : step.kind === 'agent' ? `agent ${shownRef(step.agent ?? 'default')}` : step.kind;
    const after = step.dependsOn.length > 0 ? `, after ${step.dependsOn.map((id) => shownRef(id)).join(', ')}` : '';
    const approval = approvalWords[stepApproval(step, plan, tools, { policy, trusted: true })];
    const checks = describeChecks(step.checks);
    const uses = describeUses(stepCapabilities(step, plan, capabilities));
    const basedOn = step.basedOn?.length ? `\n     based on: ${step.basedOn.join(', ')}` : '';
    return `  ${index + 1}. ${step.id} ${oneLine(step.title, 200)} (${what}${after}${approval === '' ? '' : `, ${approval}`})${checks === undefined ? '' : `\n     checks: ${checks}`}${uses}${basedOn}`;
  });
  const issues = critique.issues.map(
    (issue) => `  - ${issue.severity}${issue.stepId ? ` ${issue.stepId}` : ''}${issue.check === 'llm_review' ? ' (model)' : ''}: ${issue.message}`,
  );
  return [
    `Plan: ${oneLine(plan.objective, 300)}`,
    ...steps,
    `Critique: ${critique.summary}`,
    ...issues,
    ...warnings.map((warning) => `  warning: ${warningLine(warning)}`),
  ].join('\n');
}

/** The lines naming the instructions and skills a step's agent gets, and the skills it names that are missing; empty when none. */
function describeUses(uses: StepCapabilities): string {
  const lines = [
    ...(uses.instructions.length > 0 ? [`instructions: ${uses.instructions.map((instruction) => instruction.path).join(', ')}`] : []),
    ...(uses.skills.length > 0 ? [`skills: ${uses.skills.map((skill) => skill.name).join(', ')}`] : []),
    ...(uses.unknownSkills.length > 0 ? [`missing skills: ${uses.unknownSkills.join(', ')}`] : []),
  ];
  return lines.map((line) => `\n     ${line}`).join('');
}

async function confirm(io: CliIo, question: string, signal: AbortSignal): Promise<boolean> {
  const answer = (await io.ask(question, signal)).toLowerCase();
  return answer === 'y' || answer === 'yes';
}
