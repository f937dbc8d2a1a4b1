import type { LlmContentPart } from '../llm/llmTypes';
import type { Step } from '../plan/planSchema';
import type { WorkspaceFs } from '../workspacePorts';
import { renderPlanningSection, renderStrategySection, type PlanningStrategy } from '../session/planningPrompt';
import { attachmentSection, defaultAttachmentLimits, type AttachmentLimits } from './attachmentSection';
import type { StepCapabilities } from '../capabilities/stepCapabilities';
import { capabilitySection } from './capabilitySection';

/** The name of the tool that sets a session plan up: an agent that has it gets the planning tools' instructions. */
const planningToolName = 'planning_setup_plan';

/** What a step's agent gets besides its plan entry's prompt and `buildStepPrompt`'s text. */
export interface StepContextSections {
  /** Added to the agent's system prompt: the run's strategy (with the planning tools' instructions when the agent has them); may be empty. */
  system: string;
  /** Added to the step prompt: the step's instructions and skills, then its attachments; empty without any. */
  user: string;
  /** The step's images, sent after the step prompt. */
  images: LlmContentPart[];
}

/** What `stepContextSections` reads. */
export interface StepContextOptions {
  /** The tools the agent is given, by name. */
  agentTools: readonly string[];
  strategy: PlanningStrategy;
  workspace: WorkspaceFs;
  signal: AbortSignal;
  limits?: AttachmentLimits;
  /** The project's instructions and skills this step uses (`stepCapabilities`); none when absent. */
  capabilities?: StepCapabilities;
}

/**
 * The sections an agent step's prompts get from the run and the step rather than from the
 * plan's agent: the planning strategy's guidance (`renderPlanningSection` when the agent
 * may keep a session plan, else `renderStrategySection`) for the system prompt, and for the
 * step prompt, after the step's own text: its instructions and skills
 * (`capabilitySection`), then its attachments (`attachmentSection`).
 */
export async function stepContextSections(step: Step, options: StepContextOptions): Promise<StepContextSections> {
  const system = options.agentTools.includes(planningToolName) ? renderPlanningSection(options.strategy) : renderStrategySection(options.strategy);
  const attached = await attachmentSection(step.attachments ?? [], options.workspace, options.signal, options.limits ?? defaultAttachmentLimits);
  const capabilities = options.capabilities === undefined ? '' : capabilitySection(options.capabilities);
  return { system, user: [capabilities, attached.text].filter((part) => part !== '').join('\n\n'), images: attached.images };
}

/** `base` followed by `section` after a blank line; `base` alone when the section is empty. */
export function withSection(base: string, section: string): string {
  return section === '' ? base : `${base.trimEnd()}\n\n${section}`;
}
