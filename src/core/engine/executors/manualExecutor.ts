import { describeCheck } from '../../plan/describeCheck';
import { expandTemplatesDetailed, templateReferencesOf } from '../../plan/expandTemplates';
import { capText, textCaps } from '../../text/capText';
import { DeferredError } from '../../tools/deferral';
import { manualResultPreview } from '../manualStepText';
import type { ExecuteContext, PrepareContext, PreparedInput, StepExecutor } from './stepExecutor';
import { StepFailure } from '../../tools/stepFailure';

/** What a completed manual step returns when the person left no note. */
export const manualDoneWithoutNote = 'Done by you.';

/**
 * `manual` steps: a person does the work the step's input (else its title) describes.
 * The person is asked through `Interaction.requestManualStep` with the instructions (capped
 * like a message), the
 * step's attachments and the results of its dependencies the instructions do not quote, and may take as long as the
 * work does. Done: the note (else `manualDoneWithoutNote`) is the result. Not done: the
 * step fails with the person's reason and is never retried (nothing would change).
 * Deferred: the step waits and the run ends `waiting` (resumed with a manual answer).
 */
export const manualExecutor: StepExecutor = {
  prepare(ctx: PrepareContext): PreparedInput {
    const expansion = expandTemplatesDetailed(ctx.step.input ?? ctx.step.title, ctx.results, ctx.resultText);
    return { input: expansion.text, unresolved: expansion.unresolved };
  },

  async execute(ctx: ExecuteContext, input: unknown): Promise<unknown> {
    const { step } = ctx;
    // A result the instructions quote already ("What `pytest` printed: {{results.S001.stdout}}") is not shown twice.
    const quoted = templateReferencesOf(step.input ?? '');
    const shown = Object.entries(ctx.depends).filter(([id]) => !quoted.some((reference) => reference === id || reference.startsWith(`${id}.`)));
    const depends = Object.fromEntries(shown.map(([id, result]) => [id, manualResultPreview(result)]));
    const outcome = await ctx.interaction.requestManualStep(
      {
        stepId: step.id,
        title: step.title,
        // Asked again after a Done its checks refuted: what failed comes first.
        instructions: capText(ctx.diagnosis === undefined ? String(input) : `Not done yet: ${ctx.diagnosis}\n\n${String(input)}`, textCaps.message),
        attachments: [...(step.attachments ?? [])],
        depends,
        // Said before the person answers: a Done given before the work is done fails them (a newcomer's whole run failed so).
        checks: (step.checks ?? []).map(describeCheck),
      },
      ctx.signal,
    );
    if (outcome === 'defer') throw new DeferredError('manual', step.id);
    if (!outcome.done) throw new StepFailure(`You marked step ${step.id} as failed: ${outcome.reason.trim() || 'no reason given'}.`, false);
    return outcome.note?.trim() || manualDoneWithoutNote;
  },
};
