import { renderBoundedBlocks } from './boundedBlocks';
import { capabilityLimits, type Instruction } from './capabilityCatalogue';

/** What a model call is to do with the project's conventions: plan by them, judge a plan by them, or judge a step's result by them. */
export type ConventionsUse = 'plan' | 'critique' | 'review';

const uses: Readonly<Record<ConventionsUse, string>> = {
  plan:
    'Plan by them: the commands they give to build, test, lint or format are the command lines of your command steps and checks, ' +
    'and what they ask of changes goes into the steps\' instructions.',
  critique: 'A plan that goes against them (another command than the one they give, a rule they set broken) deserves a finding.',
  review: 'A result that goes against them where they apply to the step does not do the step.',
};

/** Where an instruction goes: Copilot's file, then the root's AGENTS.md and CLAUDE.md, then those of folders, then scoped files. */
function rank(instruction: Instruction): number {
  if (instruction.kind === 'copilot') return 0;
  if (instruction.kind === 'scoped') return 3;
  return instruction.directory === '' ? 1 : 2;
}

/**
 * The project's instruction files as a prompt section for the model calls that do not run
 * one step's work (the planner, the replanner, the model critique), within `budgetTokens`
 * (default `capabilityLimits.conventionTokens`): an introduction saying what to do with them
 * (`use`), then each file by path, those that govern one folder or some files saying so, in
 * the order Copilot's, the root's, folders', scoped; a file that does not fit is cut or named
 * as left out in one last line beyond the budget (`renderBoundedBlocks`). Empty without instruction files.
 */
export function projectConventions(
  instructions: readonly Instruction[],
  use: ConventionsUse,
  budgetTokens: number = capabilityLimits.conventionTokens,
): string {
  if (instructions.length === 0) return '';
  const ordered = instructions
    .map((instruction, index) => ({ instruction, index }))
    .sort((a, b) => rank(a.instruction) - rank(b.instruction) || a.index - b.index);
  return renderBoundedBlocks(
    `## Project conventions\nThe project's own instruction files (AGENTS.md, CLAUDE.md, Copilot instructions). ${uses[use]}`,
    ordered.map(({ instruction }) => ({ heading: `### ${instruction.path}${scopeOf(instruction)}`, text: instruction.text })),
    budgetTokens,
  );
}

function scopeOf(instruction: Instruction): string {
  if (instruction.kind === 'scoped') {
    return instruction.applyTo.length === 0 ? ' (applies to no files on its own)' : ` (applies to ${instruction.applyTo.join(', ')})`;
  }
  return instruction.kind !== 'copilot' && instruction.directory !== '' ? ` (for the files under ${instruction.directory}/)` : '';
}
