import type { Step } from '../plan/planSchema';

/**
 * Who or what does a step, in a few words for trees, panels and listings: the tool's name,
 * "agent: <name>", "you" for a step a person does, or the kind for gates, reviews and
 * questions ("synthesis gate").
 */
export function stepRunnerLabel(step: Step): string {
  if (step.kind === 'tool') return step.tool ?? 'tool';
  if (step.kind === 'agent') return `agent: ${step.agent ?? 'default'}`;
  if (step.kind === 'manual') return 'you';
  return step.kind.replace('_', ' ');
}
