import type { McpServerConfig } from './mcpConfig';

/** Why a workspace's servers are not started in Restricted Mode, and what to do. */
export const mcpRestrictedModeReason =
  'this workspace is in Restricted Mode (not trusted), so its MCP servers are not started. Trust the workspace (Workspaces: Manage Workspace Trust), then restart the server.';

/**
 * Whether `server` may start: the user's own servers (settings, `--mcp-config`) start;
 * a workspace's server (its `.vscode/mcp.json`, which anyone who wrote the repository
 * controls) is refused while the workspace is not `trusted`, starts when the user allowed it
 * before (`allowedBefore`), and otherwise needs the user's answer (`'ask'`).
 */
export function mcpStartDecision(server: McpServerConfig, state: { trusted: boolean; allowedBefore: boolean }): 'start' | 'ask' | { refused: string } {
  if (server.source.origin === 'user') return 'start';
  if (!state.trusted) return { refused: mcpRestrictedModeReason };
  return state.allowedBefore ? 'start' : 'ask';
}
