import { z } from 'zod';
import type { AgentChanges } from '../text/agentChanges';
import { capabilitySection } from '../agent/capabilitySection';
import { capabilityLimits, type CapabilityCatalogue } from '../capabilities/capabilityCatalogue';
import { projectConventions } from '../capabilities/projectConventions';
import { stepCapabilities } from '../capabilities/stepCapabilities';
import { chatStructured, StructuredOutputError } from '../llm/chatStructured';
import { reviewPrompt, type ReviewedCheck } from './reviewPrompt';
import type { Plan, Step } from '../plan/planSchema';
import type { LlmClient } from '../servicePorts';
import { capText } from '../text/capText';

/** Longest diagnosis a review gives a retry, in characters. */
export const maxReviewDiagnosisChars = 2_000;

const verdictSchema = z.object({
  verdict: z.enum(['pass', 'fail']),
  diagnosis: z.string().optional(),
});

/** Whether a step gets a model's review: its own `review`, else the run's setting for critical agent steps. */
export function reviewWanted(step: Step, reviewCriticalSteps: boolean): boolean {
  if (step.review !== undefined) return step.review;
  return reviewCriticalSteps && step.critical && step.kind === 'agent';
}

/** What the review of one result needs. */
export interface StepReviewInput {
  plan: Plan;
  step: Step;
  /** The workspace's instructions and skills: the reviewer judges the result by those of the step too. */
  capabilities?: CapabilityCatalogue;
  input: unknown;
  result: unknown;
  /** The step's host-run checks and how they ended, when it has any. */
  checks?: readonly ReviewedCheck[];
  changes?: AgentChanges;
  signal: AbortSignal;
}

/** The reviewer's verdict: pass, fail with a diagnosis, or no usable verdict (why). */
export type StepReview = { kind: 'pass' } | { kind: 'fail'; diagnosis: string } | { kind: 'unusable'; message: string };

/**
 * One model call that judges a step's result against its input, its checks, its file
 * changes and the project's conventions for it (`reviewPrompt`): an agent step's instructions
 * and skills as its agent got them (`stepCapabilities`), another step's the project's
 * instruction files, within `capabilityLimits.reviewSectionTokens`. Answered as structured output `{ verdict, diagnosis }` with one
 * repair round. `llm` is the run's client, so the call counts in the run's budget and
 * usage. A reply that stays malformed is `unusable`, never a pass; the client's errors
 * (a used-up budget, a refused request, a cancellation) propagate.
 */
export async function reviewStep(llm: LlmClient, review: StepReviewInput): Promise<StepReview> {
  const messages = reviewPrompt({
    objective: review.plan.objective,
    stepId: review.step.id,
    title: review.step.title,
    input: review.input,
    result: review.result,
    ...(review.checks === undefined ? {} : { checks: review.checks }),
    ...(review.changes === undefined ? {} : { changes: review.changes }),
    ...conventionsOf(review),
  });
  try {
    const reply = await chatStructured(llm, { messages, signal: review.signal, schemaName: 'step_review', maxReplyChars: 100_000 }, verdictSchema);
    if (reply.value.verdict === 'pass') return { kind: 'pass' };
    const diagnosis = reply.value.diagnosis?.trim() ?? '';
    return {
      kind: 'fail',
      diagnosis: `The review found the result wanting: ${diagnosis === '' ? 'it gave no reason.' : capText(diagnosis, maxReviewDiagnosisChars)}`,
    };
  } catch (error) {
    if (!(error instanceof StructuredOutputError)) throw error;
    return {
      kind: 'unusable',
      message: capText(`The review of step ${review.step.id} gave no usable verdict: ${error.problems.join(' ')}`, maxReviewDiagnosisChars),
    };
  }
}

function conventionsOf(review: StepReviewInput): { conventions?: string } {
  if (review.capabilities === undefined) return {};
  const budget = capabilityLimits.reviewSectionTokens;
  const text =
    review.step.kind === 'agent'
      ? capabilitySection(stepCapabilities(review.step, review.plan, review.capabilities), budget)
      : projectConventions(review.capabilities.instructions, 'review', budget);
  return text === '' ? {} : { conventions: text };
}
