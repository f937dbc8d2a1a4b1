import { expandTemplatesDetailed } from '../../plan/expandTemplates';
import { DeferredError } from '../../tools/deferral';
import type { ExecuteContext, PrepareContext, PreparedInput, StepExecutor } from './stepExecutor';
import { StepFailure } from '../../tools/stepFailure';

/**
 * `clarification` steps: the user answers a question (the step's input, else its title);
 * the answer is the result. `args.suggestions` (strings) are offered as quick answers.
 */
export const clarificationExecutor: StepExecutor = {
  prepare(ctx: PrepareContext): PreparedInput {
    const expansion = expandTemplatesDetailed(ctx.step.input ?? ctx.step.title, ctx.results, ctx.resultText);
    return { input: expansion.text, unresolved: expansion.unresolved };
  },

  async execute(ctx: ExecuteContext, input: unknown): Promise<unknown> {
    const raw = ctx.step.args?.['suggestions'];
    const suggestions = Array.isArray(raw) ? raw.filter((item): item is string => typeof item === 'string') : [];
    const answer = await ctx.interaction.askClarification(
      { stepId: ctx.step.id, title: ctx.step.title, question: String(input), ...(suggestions.length > 0 ? { suggestions } : {}) },
      ctx.signal,
    );
    if (answer === 'defer') throw new DeferredError('clarification', ctx.step.id);
    if (answer.trim() === '') throw new StepFailure(`Step ${ctx.step.id} got an empty answer; answer the question to continue.`, true);
    return answer;
  },
};
