import { executeLlmStep } from './executeLlmStep';
import { withModel } from '../../llm/modelRoles';
import { expandTemplatesDetailed } from '../../plan/expandTemplates';
import type { Step } from '../../plan/planSchema';
import type { ExecuteContext, PrepareContext, PreparedInput, StepExecutor } from './stepExecutor';
import { withDiagnosis } from './stepExecutor';
import { StepFailure } from '../../tools/stepFailure';

/**
 * `agent` and `synthesis_gate` steps, run by `RunOptions.stepRunner` when there is one,
 * else by `RunOptions.llm` (`executeLlmStep`: the agent loop or the gate's condensing call),
 * asking the step's own `model`, else the run's agent model.
 * A gate without an input is asked to condense its dependencies' results.
 */
export const llmStepExecutor: StepExecutor = {
  prepare(ctx: PrepareContext): PreparedInput {
    const expansion = expandTemplatesDetailed(defaultInput(ctx.step), ctx.results, ctx.resultText);
    return { input: withDiagnosis(expansion.text, ctx.diagnosis), unresolved: expansion.unresolved };
  },

  async execute(ctx: ExecuteContext, input: unknown): Promise<unknown> {
    const runner = ctx.options.stepRunner;
    if (!runner) {
      if (ctx.options.llm) return executeLlmStep(ctx, String(input), withModel(ctx.options.llm, ctx.step.model ?? ctx.options.models.agent));
      throw new StepFailure(`Step ${ctx.step.id} needs a language model and none is set up. ${ctx.options.noModelHint}`, false);
    }
    return runner(ctx.step, {
      runId: ctx.runId,
      objective: ctx.plan.objective,
      input: String(input),
      depends: ctx.depends,
      attempt: ctx.attempt,
      ...(ctx.diagnosis === undefined ? {} : { diagnosis: ctx.diagnosis }),
      signal: ctx.signal,
      interaction: ctx.interaction,
      output: ctx.output,
      progress: ctx.progress,
    });
  },
};

function defaultInput(step: Step): string {
  if (step.input !== undefined && step.input.trim() !== '') return step.input;
  if (step.kind === 'synthesis_gate') {
    return `${step.title}\n\nCondense the results of ${step.dependsOn.join(', ') || 'the previous steps'} into what the next steps need.`;
  }
  return step.title;
}
