import type { StepApproval } from '../../shared/vocabulary';
import type { Plan, Step } from './planSchema';
import { needsApproval } from '../tools/approvals';
import { builtinTools } from '../tools/builtinTools';
import type { ApprovalPolicy, ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import { refusedWithoutTrust } from '../tools/workspaceTrustGate';

export type { StepApproval } from '../../shared/vocabulary';

/** What decides approvals when a run starts: the approval policy, and whether the workspace is trusted. */
export interface ApprovalSetting {
  policy: ApprovalPolicy;
  /** False in Restricted Mode; hosts without one (the command line) are trusted. */
  trusted: boolean;
}

/**
 * What `step` of `plan` will do about approval under `setting`, decided by the rules the
 * tools apply when they run (`needsApproval` for the policy, `refusedWithoutTrust` for
 * Restricted Mode) over the effects the run's `tools` declare (the built-in tools when
 * absent). A tool step asks, is refused or does neither; an agent step may ask when one of
 * its agent's tools (the `default` agent: every tool) would ask; other steps ask nothing.
 * The plan's own `requiresApproval` field changes none of this, since the tools do not read it.
 */
export function stepApproval(step: Step, plan: Plan, tools: ToolRegistry | undefined, setting: ApprovalSetting): StepApproval {
  if (step.kind === 'tool') {
    const effect = step.tool === undefined ? undefined : toolEffectOf(step.tool, tools);
    if (effect === undefined) return 'none';
    if (refusedWithoutTrust(effect, setting.trusted)) return 'refused';
    return needsApproval(effect, setting.policy) ? 'asks' : 'none';
  }
  if (step.kind !== 'agent') return 'none';
  const asks = agentToolNames(step, plan, tools).some((name) => {
    const effect = toolEffectOf(name, tools);
    return effect !== undefined && !refusedWithoutTrust(effect, setting.trusted) && needsApproval(effect, setting.policy);
  });
  return asks ? 'mayAsk' : 'none';
}

/** The tools an agent step's agent is given, as `executeLlmStep` gives them. */
function agentToolNames(step: Step, plan: Plan, tools: ToolRegistry | undefined): readonly string[] {
  const name = step.agent ?? 'default';
  const agent = plan.agents[name];
  if (agent) return agent.tools;
  if (name === 'default') return tools ? tools.names() : builtinTools().map((tool) => tool.name);
  return [];
}
