import type { ApprovalRequest } from '../interactionPorts';
import { boundedFeedback } from './approvalFeedback';
import { DeferredError } from './deferral';
import { StepFailure } from './stepFailure';
import { toolInputTooLongToAsk } from './toolCallApprovalText';
import type { ApprovalPolicy, ToolContext, ToolEffect } from './tool';

/**
 * Whether a tool with `effect` must ask the user first under `policy`. Reads and
 * interactions never ask, commands and tools of other programs (`external`) always ask
 * (such a tool may skip asking only where the user allowed it, as its own decision), file
 * changes ask unless the policy is `commandsOnly`, network access asks only under `always`. Decided from the tool's
 * declared effect alone: nothing in a tool's input or in file content can change it.
 */
export function needsApproval(effect: ToolEffect, policy: ApprovalPolicy): boolean {
  switch (effect) {
    case 'read':
    case 'interaction':
      return false;
    case 'command':
    case 'external':
      return true;
    case 'write':
    case 'delete':
      return policy !== 'commandsOnly';
    case 'network':
      return policy === 'always';
  }
}

/**
 * The user said no; nothing was changed. `reason` is the user's, when given; `feedback`, when
 * given, what the user asks instead (already made safe by `boundedFeedback`), which is then
 * also the reason.
 */
export class ApprovalRejectedError extends Error {
  readonly reason: string | undefined;
  constructor(
    readonly what: string,
    reason: string | undefined,
    readonly feedback?: string,
  ) {
    const why = feedback ?? reason;
    super(`The user rejected ${what}${why ? `: ${why}` : ''}. Nothing was changed.`);
    this.reason = why;
    this.name = 'ApprovalRejectedError';
  }
}

/** True for an `ApprovalRejectedError`, also across bundle copies (checked by name and shape). */
export function isApprovalRejectedError(error: unknown): error is ApprovalRejectedError {
  return error instanceof ApprovalRejectedError || (error instanceof Error && error.name === 'ApprovalRejectedError' && 'what' in error);
}

/**
 * Asks before `call` (a tool another program runs, or one that reaches the network) for the
 * step of `ctx`, as `requireApproval` does; `what` names the call in a rejection. A call
 * whose arguments its question could not show whole (`toolInputTooLongToAsk`) is refused
 * without asking, as a `StepFailure` that is not retried.
 */
export async function requireToolCallApproval(
  ctx: ToolContext,
  call: { tool: string; source: string; input: unknown; rememberAs?: string },
  what: string,
  signal: AbortSignal,
): Promise<void> {
  const tooLong = toolInputTooLongToAsk(call.input);
  if (tooLong !== undefined) throw new StepFailure(tooLong, false);
  return requireApproval(ctx, { kind: 'tool', stepId: ctx.stepId, title: ctx.stepTitle, ...call }, what, signal);
}

/**
 * Asks the user through `Interaction.requestApproval` and returns only when approved.
 * Throws `DeferredError` when nobody can answer now and `ApprovalRejectedError` on "no".
 */
export async function requireApproval(ctx: ToolContext, request: ApprovalRequest, what: string, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  const decision = await ctx.interaction.requestApproval(request, signal);
  if (decision === 'defer') throw new DeferredError('approval', ctx.stepId);
  if (!decision.approved) throw new ApprovalRejectedError(what, decision.reason, boundedFeedback(decision.feedback));
  signal.throwIfAborted();
}
