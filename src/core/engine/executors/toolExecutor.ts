import { z } from 'zod';
import { resolveArgs } from '../../plan/expandTemplates';
import type { ExecuteContext, PrepareContext, PreparedInput, StepExecutor } from './stepExecutor';
import { StepFailure } from './stepExecutor';
import { withReferenceTexts } from './referenceTexts';
import { toolContextFor } from './toolContextFor';

/**
 * `tool` steps: the registered tool called with the step's args, templates and `$<id>…`
 * references resolved (no LLM); a string parameter a reference gave another value gets
 * its text (`withReferenceTexts`).
 */
export const toolExecutor: StepExecutor = {
  prepare(ctx: PrepareContext): PreparedInput {
    const { args, unresolved } = resolveArgs(ctx.step.args ?? {}, ctx.results);
    return { input: args, unresolved };
  },

  async execute(ctx: ExecuteContext, input: unknown): Promise<unknown> {
    const { step, options } = ctx;
    if (step.tool === undefined) {
      throw new StepFailure(`Step ${step.id} is a tool step without a "tool"; name the tool to call.`, false);
    }
    const tool = options.tools.get(step.tool);
    if (!tool) {
      const known = options.tools.names();
      throw new StepFailure(
        `Step ${step.id} calls the unknown tool "${step.tool}". Registered tools: ${known.length > 0 ? known.join(', ') : 'none'}. Fix the step or register the tool.`,
        false,
      );
    }
    const parsed = tool.inputSchema.safeParse(
      withReferenceTexts(tool.inputSchema, input, { written: step.args ?? {}, results: () => ctx.state().results, plan: ctx.plan, tools: options.tools }),
    );
    if (!parsed.success) {
      throw new StepFailure(`Step ${step.id}: the arguments of "${step.tool}" are invalid: ${z.prettifyError(parsed.error)}`, false);
    }
    return tool.run(toolContextFor(ctx), parsed.data, ctx.signal);
  },
};
