import type { StepKind } from './vocabulary';

/**
 * Each step kind as the step form's Kind choice names it: who does the step's work and how, in words a user who never read
 * the plan format understands (a newcomer met `synthesis_gate`, `human_review` and `clarification` there unexplained).
 * The kind's own name stays the choice's value, and the plan file's word.
 */
export const stepKindLabels: Readonly<Record<StepKind, string>> = {
  tool: 'Tool: one tool call with its arguments',
  agent: 'Agent: a model works on it with tools',
  synthesis_gate: 'Summary: a model sums up earlier results',
  human_review: 'Your review: you approve or reject',
  clarification: 'Question: you answer it',
  manual: 'Yours to do: you do it, then say done',
};
