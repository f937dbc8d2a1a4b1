import { z } from 'zod';
import { resolveArgs } from '../../plan/expandTemplates';
import type { ExecuteContext, PrepareContext, PreparedInput, StepExecutor } from './stepExecutor';
import { StepFailure } from '../../tools/stepFailure';
import { withReferenceTexts } from './referenceTexts';
import { toolContextFor } from './toolContextFor';
import type { ToolContext } from '../../tools/tool';
import { approvingCommands, consentFor, consentedProgram, type CheckCommandConsent } from '../checkCommandConsent';

/**
 * `tool` steps: the registered tool called with the step's args, templates and `$<id>…`
 * references resolved (no LLM); a string parameter a reference gave another value gets
 * its text (`withReferenceTexts`).
 */
export const toolExecutor: StepExecutor = {
  prepare(ctx: PrepareContext): PreparedInput {
    const { args, unresolved } = resolveArgs(ctx.step.args ?? {}, ctx.results, ctx.resultText);
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
    return tool.run(withStartConsent(toolContextFor(ctx), step.tool, parsed.data, options.checkCommands), parsed.data, ctx.signal);
  },
};

/**
 * A `run_command` step that runs exactly a check command the user allowed at Start (same
 * argv and folder) is not asked about again: the allowance was for the run. Anything else,
 * a program other than the one shown then, or one whose defining files the run changed, asks.
 */
function withStartConsent(context: ToolContext, toolName: string, input: unknown, consent: CheckCommandConsent | undefined): ToolContext {
  if (toolName !== 'run_command' || consent === undefined || !isCommandInput(input)) return context;
  const command = { argv: input.argv, cwd: input.cwd ?? '' };
  if (consentFor(consent, command) !== true) return context;
  return { ...context, interaction: approvingCommands(context.interaction, consentedProgram(consent, command)) };
}

function isCommandInput(input: unknown): input is { argv: string[]; cwd?: string } {
  if (typeof input !== 'object' || input === null) return false;
  const { argv, cwd } = input as { argv?: unknown; cwd?: unknown };
  return Array.isArray(argv) && argv.every((arg) => typeof arg === 'string') && (cwd === undefined || typeof cwd === 'string');
}
