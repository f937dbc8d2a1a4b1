import { expandTemplatesDetailed } from '../../plan/expandTemplates';
import { DeferredError } from '../../tools/deferral';
import type { ExecuteContext, PrepareContext, PreparedInput, StepExecutor } from './stepExecutor';
import { StepFailure } from '../../tools/stepFailure';

/**
 * `human_review` steps: the user approves or rejects with notes. The decision is the
 * result (`{ approved: true, notes? }`); a rejection fails the step without retrying.
 */
export const humanReviewExecutor: StepExecutor = {
  prepare(ctx: PrepareContext): PreparedInput {
    const expansion = expandTemplatesDetailed(ctx.step.input ?? `Review: ${ctx.step.title}`, ctx.results, ctx.resultText);
    return { input: expansion.text, unresolved: expansion.unresolved };
  },

  async execute(ctx: ExecuteContext, input: unknown): Promise<unknown> {
    const decision = await ctx.interaction.requestReview({ stepId: ctx.step.id, title: ctx.step.title, prompt: String(input) }, ctx.signal);
    if (decision === 'defer') throw new DeferredError('review', ctx.step.id);
    if (!decision.approved) {
      const notes = decision.notes?.trim();
      throw new StepFailure(`Rejected in review${notes ? `: ${notes}` : ' (no notes given)'}.`, false);
    }
    return decision.notes === undefined ? { approved: true } : { approved: true, notes: decision.notes };
  },
};
