import { z } from 'zod';
import { DeferredError } from './deferral';
import type { Tool } from './tool';
import { valueText } from '../text/valueText';

const inputSchema = z.strictObject({
  question: z.string().trim().min(1).max(2000).describe('One clear question for the user.'),
  suggestions: z.array(z.string().min(1).max(200)).max(10).optional().describe('Likely answers offered as quick picks; the user may also type their own.'),
});

/** `ask_user`: asks the user a question and returns the answer; only this step's branch waits. */
export const askUserTool: Tool<z.infer<typeof inputSchema>, { answer: string }> = {
  name: 'ask_user',
  description: 'Ask the user a question when information is missing or a choice is theirs to make, optionally offering suggested answers. Returns their answer.',
  inputSchema,
  effects: 'interaction',
  // The answer as the user wrote it: what an agent gets back and what a `$id` reference names.
  resultText: (output) => {
    const answer = typeof output === 'object' && output !== null ? (output as { answer?: unknown }).answer : undefined;
    return typeof answer === 'string' ? answer : valueText(output);
  },
  async run(ctx, input, signal) {
    const request = { stepId: ctx.stepId, title: ctx.stepTitle, question: input.question, ...(input.suggestions ? { suggestions: input.suggestions } : {}) };
    const answer = await ctx.interaction.askClarification(request, signal);
    if (answer === 'defer') throw new DeferredError('clarification', ctx.stepId);
    return { answer };
  },
};
