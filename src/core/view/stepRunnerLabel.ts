import type { Step, StepKind } from '../plan/planSchema';

const kindName = (step: Step): string => step.kind.replace('_', ' ');

const runnerOf: Readonly<Record<StepKind, (step: Step) => string>> = {
  tool: (step) => step.tool ?? 'tool',
  agent: (step) => `agent: ${step.agent ?? 'default'}`,
  synthesis_gate: kindName,
  human_review: kindName,
  clarification: kindName,
  manual: () => 'you',
};

/**
 * Who or what does a step, in a few words for trees, panels and listings: the tool's name,
 * "agent: <name>", "you" for a step a person does, or the kind for gates, reviews and
 * questions ("synthesis gate").
 */
export function stepRunnerLabel(step: Step): string {
  return runnerOf[step.kind](step);
}
