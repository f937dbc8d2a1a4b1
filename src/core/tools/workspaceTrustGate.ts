import { StepFailure } from './stepFailure';
import type { WorkspaceTrustGate } from '../editorPorts';
import { effectTraits } from './effectTraits';
import type { Tool, ToolEffect } from './tool';

/** Why a step that writes files, runs commands, reaches the network or uses other tools is not run in Restricted Mode, and how to allow it. */
export const restrictedModeReason =
  'this workspace is in Restricted Mode (not trusted), so Task Planner does not write files, run commands, reach the network or use the tools of MCP servers and other extensions in it. Trust the workspace (Workspaces: Manage Workspace Trust), then retry the step; planning and read steps work without trust.';

/**
 * Whether Restricted Mode refuses a tool with `effect` (one that writes, deletes, runs a
 * command or reaches the network) when the workspace is not `trusted`.
 */
export function refusedWithoutTrust(effect: ToolEffect, trusted: boolean): boolean {
  return !trusted && effectTraits[effect].needsTrust;
}

/**
 * The tools as runs see them in the editor (`capabilities.untrustedWorkspaces: limited`):
 * in Restricted Mode a tool that writes, deletes, runs a command or reaches the network
 * fails before it does anything (no approval is asked) with `restrictedModeReason`, and
 * not retryable, since another attempt would be refused the same way. Names, schemas and
 * effects are unchanged, so planning sees the same tools.
 */
export function gateByWorkspaceTrust(tools: readonly Tool[], gate: WorkspaceTrustGate): Tool[] {
  return tools.map((tool) =>
    refusedWithoutTrust(tool.effects, false)
      ? {
          ...tool,
          run(ctx, input, signal) {
            if (refusedWithoutTrust(tool.effects, gate.isTrusted())) {
              gate.onRefused({ runId: ctx.runId, stepId: ctx.stepId, stepTitle: ctx.stepTitle, tool: tool.name });
              return Promise.reject(new StepFailure(`${tool.name} was not run because ${restrictedModeReason}`, false));
            }
            return tool.run(ctx, input, signal);
          },
        }
      : tool,
  );
}
