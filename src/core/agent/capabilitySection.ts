import { renderBoundedBlocks as renderBlocks } from '../capabilities/boundedBlocks';
import { capabilityLimits } from '../capabilities/capabilityCatalogue';
import type { StepCapabilities } from '../capabilities/stepCapabilities';
import { countTokens } from '../llm/tokenCount';

/**
 * The step prompt's section with the instructions and skills `stepCapabilities` chose for
 * the step (empty when there are none), within `budgetTokens` tokens (default
 * `capabilityLimits.stepSectionTokens`) plus, when something did not fit, one line per part
 * naming what was left out: instructions take at most half, skills the rest and whatever
 * the instructions left. Blocks go in order, each cut to what is left (the cut is marked);
 * a block with fewer than 64 tokens of room is left out and named.
 */
export function capabilitySection(selected: StepCapabilities, budgetTokens: number = capabilityLimits.stepSectionTokens): string {
  const parts: string[] = [];
  let left = budgetTokens;
  if (selected.instructions.length > 0) {
    const share = Math.floor(budgetTokens / 2);
    const rendered = renderBlocks(
      '## Project instructions for this step\nThe project\'s own conventions for this work, from its instruction files: follow them where they apply.',
      selected.instructions.map((instruction) => ({
        heading: `### ${instruction.path}${instruction.applyTo.length > 0 ? ` (applies to ${instruction.applyTo.join(', ')})` : ''}`,
        text: instruction.text,
      })),
      share,
    );
    parts.push(rendered);
    left -= countTokens(rendered);
  }
  if (selected.skills.length > 0) {
    parts.push(
      renderBlocks(
        '## Skills for this step\nUse these skills for this step. Files a skill refers to are in its folder; read them with the file tools where it is in the workspace.',
        selected.skills.map((skill) => ({
          heading: `### Skill ${skill.name} (${skill.source}${skill.workspaceFolder === undefined ? '' : `; folder ${skill.workspaceFolder}`})`,
          text: `${skill.description}\n\n${skill.text}`,
        })),
        left,
      ),
    );
  }
  return parts.filter((part) => part !== '').join('\n\n');
}
