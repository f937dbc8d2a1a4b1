import type { ExecuteContext } from './stepExecutor';
import { StepFailure } from '../../tools/stepFailure';
import { buildStepPrompt, defaultAgentPrompt, directAgentPrompt, stepPromptHead } from '../../agent/stepPrompt';
import type { LlmClient } from '../../servicePorts';
import { withModel } from '../../llm/modelRoles';
import { toolContextFor } from './toolContextFor';
import type { Tool } from '../../tools/tool';
import { rollingSummary } from './rollingSummary';
import { resultTextFor } from './referenceTexts';
import { agentSystemPrompt, runStepAgent } from '../../agent/runStepAgent';
import { toolDefinition } from '../../agent/agentToolCall';
import { stepContextSections, withSection } from '../../agent/stepContextSections';
import { runSynthesisGate } from '../../agent/runSynthesisGate';
import { StepOutcome } from '../stepOutcome';
import type { AgentResult } from '../../text/agentResult';
import { stepCapabilities } from '../../capabilities/stepCapabilities';
import { shownRef } from '../../plan/attachmentTarget';

/**
 * Runs an `agent` or `synthesis_gate` step with `llm` (the engine's path when no
 * `stepRunner` is configured). The prompt is `buildStepPrompt`'s, most stable part first:
 * objective, plan outline, the rolling summary, the live statuses, the direct dependencies'
 * results, `input` (which carries the verification diagnosis on a retry) and the step's
 * attachments. Agents get their plan entry's
 * prompt and exactly its tools, plus `ask_user` when the run has it (asking the user is
 * how any step clarifies, docs/architecture.md §4); `default` without an entry has every tool, `direct`
 * none. A gate gets no summary and no tools: it condenses its dependencies only.
 * A gate resolves to its answer text; an agent to an `AgentResult` (its answer and the
 * file changes its tool calls asked for) in a `StepOutcome` that also carries the changes.
 * With an output schema the result is the parsed JSON value instead (or, in the outcome,
 * why the answer was not JSON).
 */
export async function executeLlmStep(ctx: ExecuteContext, input: string, llm: LlmClient): Promise<string | StepOutcome> {
  const { step, plan, options } = ctx;
  const limits = options.agentLimits;
  const state = ctx.state();
  // Each result in the one text form a "$id" reference and a tool call's answer give it (an MCP tool's text as it is, not
  // that text JSON-encoded again), in the dependencies' results and the summary's facts alike.
  const textOf = resultTextFor(plan, options.tools);
  const resultText = (stepId: string, value: unknown): unknown => (value === undefined ? undefined : textOf({ ok: true, id: stepId, keys: [], value }));
  const depends = Object.fromEntries(Object.entries(ctx.depends).map(([id, value]) => [id, resultText(id, value)]));
  const statuses: Record<string, string> = {};
  for (const [id, stepState] of Object.entries(state.steps)) statuses[id] = stepState.status;

  if (step.kind === 'synthesis_gate') {
    const prompt = buildStepPrompt({ objective: plan.objective, plan, statuses, summary: '', step, depends, input });
    const result = await runSynthesisGate({
      llm,
      stepId: step.id,
      prompt: prompt.text,
      clock: options.clock,
      signal: ctx.signal,
      timeoutMs: limits.timeoutMs,
      output: ctx.output,
      ...(step.outputSchema === undefined ? {} : { outputSchema: step.outputSchema }),
    });
    if (result.structured === undefined) return result.text;
    return result.structured.kind === 'value' ? new StepOutcome(result.structured.value) : new StepOutcome(undefined, undefined, result.structured.problem);
  }

  const agentName = step.agent ?? 'default';
  const agent =
    plan.agents[agentName] ??
    (agentName === 'default'
      ? { prompt: defaultAgentPrompt, tools: options.tools.names() }
      : agentName === 'direct'
        ? { prompt: directAgentPrompt, tools: [] }
        : undefined);
  if (!agent) {
    throw new StepFailure(
      `Step ${step.id} uses the agent "${agentName}", which the plan does not define. Defined agents: ${Object.keys(plan.agents).join(', ') || 'none'} (plus the built-in "default" and "direct").`,
      false,
    );
  }
  const tools: Tool[] = [];
  for (const name of new Set([...agent.tools, ...(options.tools.get('ask_user') ? ['ask_user'] : [])])) {
    const tool = options.tools.get(name);
    if (!tool) {
      throw new StepFailure(
        `The agent "${agentName}" of step ${step.id} lists the tool "${name}", which this run does not have. Registered tools: ${options.tools.names().join(', ') || 'none'}.`,
        false,
      );
    }
    tools.push(tool);
  }
  const capabilities = stepCapabilities(step, plan, options.capabilities);
  if (capabilities.unknownSkills.length > 0) {
    const known = options.capabilities.skills.map((skill) => skill.name);
    throw new StepFailure(
      `Step ${step.id} uses the skill${capabilities.unknownSkills.length === 1 ? '' : 's'} ${capabilities.unknownSkills.map((name) => `"${shownRef(name)}"`).join(', ')}, which this workspace does not have. Available skills: ${known.join(', ') || 'none'}.`,
      false,
    );
  }
  const toolContext = toolContextFor(ctx);
  const sections = await stepContextSections(step, {
    agentTools: tools.map((tool) => tool.name),
    strategy: options.strategy,
    workspace: options.workspace,
    signal: ctx.signal,
    capabilities,
  });
  const agentPrompt = withSection(agent.prompt, sections.system);
  const summary = await rollingSummary(state, {
    llm: withModel(llm, options.models.compaction),
    budgetTokens: limits.summaryBudgetTokens,
    signal: ctx.signal,
    prefix: { system: agentSystemPrompt(agentPrompt), tools: tools.map(toolDefinition), head: stepPromptHead(plan.objective, plan) },
    onCompacted: ctx.compacted,
    resultText,
  });
  // The step's instructions and skills, then its attachments: step-specific, so after everything the run's requests share.
  const extra = { attachments: sections.user };
  const prompt = buildStepPrompt({ objective: plan.objective, plan, statuses, summary, step, depends, input, extra });
  const result = await runStepAgent({
    llm,
    stepId: step.id,
    agentPrompt,
    stepPrompt: prompt.text,
    images: sections.images,
    tools,
    toolContext,
    clock: options.clock,
    signal: ctx.signal,
    maxTurns: limits.maxTurns,
    timeoutMs: limits.timeoutMs,
    toolResultTokens: limits.toolResultTokens,
    maxToolCallsPerTurn: limits.maxToolCallsPerTurn,
    maxToolResultBytes: limits.maxToolResultBytes,
    output: ctx.output,
    progress: ctx.progress,
    ...(step.outputSchema === undefined ? {} : { outputSchema: step.outputSchema }),
    ...(ctx.agentJournal === undefined ? {} : { journal: ctx.agentJournal }),
  });
  if (result.structured === undefined) {
    const agentResult: AgentResult = { answer: result.text, changes: result.changes };
    return new StepOutcome(agentResult, result.changes);
  }
  if (result.structured.kind === 'unreadable') return new StepOutcome(undefined, result.changes, result.structured.problem);
  return new StepOutcome(result.structured.value, result.changes);
}
