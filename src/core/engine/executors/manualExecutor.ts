import { expandTemplatesDetailed } from '../../plan/expandTemplates';
import type { Attachment } from '../../plan/planSchema';
import { DeferredError } from '../../tools/deferral';
import type { ExecuteContext, PrepareContext, PreparedInput, StepExecutor } from './stepExecutor';
import { StepFailure } from './stepExecutor';

/** Longest preview of one dependency's result in the instructions, in characters. */
export const manualResultPreviewLength = 600;

/** What a completed manual step returns when the person left no note. */
export const manualDoneWithoutNote = 'Done by you.';

/**
 * `manual` steps: a person does the work the step's input (else its title) describes.
 * The person is asked through the review request of the `Interaction` port, worded as
 * "Mark <id> done?" with the instructions, the step's attachments and the results of its
 * dependencies: approving means done (the notes, else `manualDoneWithoutNote`, become the
 * result); rejecting means it could not be done (the step fails with the notes as reason,
 * never retried); a deferred answer suspends the step like any review (resumed with a
 * review answer for the step).
 */
export const manualExecutor: StepExecutor = {
  prepare(ctx: PrepareContext): PreparedInput {
    const expansion = expandTemplatesDetailed(ctx.step.input ?? ctx.step.title, ctx.results);
    return { input: expansion.text, unresolved: expansion.unresolved };
  },

  async execute(ctx: ExecuteContext, input: unknown): Promise<unknown> {
    const { step } = ctx;
    const prompt = manualPrompt(step.id, String(input), step.attachments ?? [], ctx.depends);
    const decision = await ctx.interaction.requestReview({ stepId: step.id, title: step.title, prompt }, ctx.signal);
    if (decision === 'defer') throw new DeferredError('review', step.id);
    const notes = decision.notes?.trim();
    if (!decision.approved) throw new StepFailure(`You marked step ${step.id} as not done${notes ? `: ${notes}` : ' (no reason given)'}.`, false);
    return notes ? notes : manualDoneWithoutNote;
  },
};

function manualPrompt(stepId: string, instructions: string, attachments: readonly Attachment[], depends: Readonly<Record<string, unknown>>): string {
  const lines = [`Mark ${stepId} done? This step is yours to do:`, instructions];
  if (attachments.length > 0) lines.push('', `Attached: ${attachments.map((attachment) => attachment.label ?? attachment.ref).join(', ')}`);
  const results = Object.entries(depends);
  if (results.length > 0) {
    lines.push('', 'Results of the steps before it:');
    for (const [id, result] of results) lines.push(`${id}: ${preview(result)}`);
  }
  lines.push('', 'Approve once you have done it (your notes become its result). Reject if it cannot be done (your notes say why).');
  return lines.join('\n');
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length <= manualResultPreviewLength ? text : `${text.slice(0, manualResultPreviewLength - 1)}…`;
}
