import { oneLine } from '../core/text/oneLine';
import { toolParameters } from '../core/tools/toolParameters';
import type { Tool } from '../core/tools/tool';
import type { McpServers } from '../node/mcpServers';
import type { CliIo } from './cliIo';
import { cliTools } from './cliTools';

/**
 * `tools`: every tool a plan may use, with its source (`builtin`, or the MCP server that
 * runs it) and effect, then the configured MCP servers and their state. With `json`, the
 * same as JSON on stdout (with each tool's input JSON Schema). Exit code 0.
 */
export function toolsCommand(mcp: { tools: readonly Tool[]; servers: McpServers }, json: boolean, io: CliIo): number {
  const builtins = cliTools().list();
  const listed = [
    ...builtins.map((tool) => ({ tool, source: 'builtin' })),
    ...mcp.tools.map((tool) => ({ tool, source: mcp.servers.serverOf(tool.name) ?? 'mcp' })),
  ];
  const servers = mcp.servers.list().map(({ config, state }) => ({
    name: config.name,
    configuredIn: config.source.label,
    state: state.state,
    ...('reason' in state ? { reason: state.reason } : {}),
    ...(state.state === 'running' ? { tools: state.tools } : {}),
  }));
  if (json) {
    io.out(
      JSON.stringify(
        {
          tools: listed.map(({ tool, source }) => ({
            name: tool.name,
            source,
            effect: tool.effects,
            description: tool.description,
            parameters: toolParameters(tool),
          })),
          servers,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  const lines = listed.map(
    ({ tool, source }) =>
      `  ${tool.name}  [${source === 'builtin' ? 'builtin' : `MCP server "${oneLine(source, 100)}"`}, ${tool.effects}]  ${oneLine(tool.description, 100)}`,
  );
  lines.unshift(`${listed.length} tools a plan may use:`);
  for (const server of servers) {
    lines.push(
      `MCP server "${oneLine(server.name, 100)}" (${server.configuredIn}): ${server.state}${server.reason !== undefined ? `: ${oneLine(server.reason, 2000)}` : ''}`,
    );
  }
  io.out(lines.join('\n'));
  return 0;
}
