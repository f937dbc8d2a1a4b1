import { maxShownTargetChars, mcpServerTargetLength, type McpServerConfig } from './mcpConfig';

/** Why a workspace's servers are not started in Restricted Mode, and what to do. */
export const mcpRestrictedModeReason =
  'this workspace is in Restricted Mode (not trusted), so its MCP servers are not started. Trust the workspace (Workspaces: Manage Workspace Trust), then restart the server.';

/** Why the user's own servers are not started in Restricted Mode either, and what to do. */
export const mcpRestrictedModeUserReason =
  'this workspace is in Restricted Mode (not trusted), so no MCP server starts in it, yours included: a server runs in the workspace folder, where npx, uvx or python -m run the programs the workspace holds, and its calls would be refused anyway. Trust the workspace (Workspaces: Manage Workspace Trust) to use your servers here.';

/**
 * Whether `server` may start. Nothing starts while the workspace is not `trusted`: a
 * workspace's server is the repository's program, and even the user's own runs in the
 * workspace folder, where `npx -y <package>` runs the package the repository holds in
 * `node_modules` and `python -m` its module (every MCP call is refused in Restricted Mode
 * anyway). In a trusted workspace the user's own servers (settings, `--mcp-config`) start;
 * a workspace's server (its `.vscode/mcp.json`, which anyone who wrote the repository
 * controls) starts when the user allowed it before (`allowedBefore`), and otherwise needs the
 * user's answer (`'ask'`), unless its launch is too long for a question to show in full: then
 * it is refused, saying how to start it.
 */
export function mcpStartDecision(server: McpServerConfig, state: { trusted: boolean; allowedBefore: boolean }): 'start' | 'ask' | { refused: string } {
  if (!state.trusted) return { refused: server.source.origin === 'user' ? mcpRestrictedModeUserReason : mcpRestrictedModeReason };
  if (server.source.origin === 'user') return 'start';
  if (state.allowedBefore) return 'start';
  // A question must show everything it asks about: padding must not push an environment variable out of sight.
  const length = mcpServerTargetLength(server);
  if (length > maxShownTargetChars) {
    return {
      refused: `its command line, environment and options take ${length} characters, more than a question can show in full (${maxShownTargetChars}), so it is not offered for starting. If you trust it, define it in your user setting taskPlanner.mcp.servers (or pass it with --mcp-config FILE on the command line).`,
    };
  }
  return 'ask';
}
