import { z } from 'zod';
import { chatStructured } from '../llm/chatStructured';
import { criticPrompt } from '../llm/prompts/criticPrompt';
import { checkName, mergeCritique, type Critique, type CritiqueIssue } from '../plan/critiquePlan';
import type { Plan } from '../plan/planSchema';
import type { LlmClient } from '../ports';

const maxFindings = 8;

/** What the model returns: findings in the critic's own terms. */
export const modelReviewSchema = z.object({
  findings: z.array(
    z.object({
      severity: z.enum(['critical', 'warning', 'info']),
      stepId: z.string().optional(),
      message: z.string().min(1),
      recommendation: z.string().optional(),
    }),
  ),
});

/**
 * The optional LLM review (docs/architecture.md §3): asks the model for findings the static checks cannot
 * see and merges them into `critique` as check `llm_review` (score recomputed). Findings
 * naming unknown steps keep their message but lose the step id; at most 8 are kept. Throws
 * the client's error (e.g. on abort); callers that treat the review as optional catch it.
 */
export async function reviewPlanWithModel(plan: Plan, critique: Critique, llm: LlmClient, signal: AbortSignal): Promise<Critique> {
  const { value } = await chatStructured(llm, { messages: criticPrompt(plan), signal, schemaName: 'plan_review' }, modelReviewSchema);
  const ids = new Set(plan.steps.map((step) => step.id));
  const issues: CritiqueIssue[] = value.findings.slice(0, maxFindings).map((finding) => ({
    check: 'llm_review',
    name: checkName('llm_review'),
    severity: finding.severity,
    ...(finding.stepId !== undefined && ids.has(finding.stepId) ? { stepId: finding.stepId } : {}),
    message: finding.message.trim(),
    ...(finding.recommendation?.trim() ? { recommendation: finding.recommendation.trim() } : {}),
  }));
  return mergeCritique(critique, issues);
}
