import { workspaceTools } from '../core/tools/builtinTools';
import { createToolRegistry, type ToolCatalog } from '../core/tools/createToolRegistry';
import { createFetchUrlTool } from '../core/tools/fetchUrlTool';
import type { Tool } from '../core/tools/tool';
import { createNodeUrlFetcher } from '../node/nodeUrlFetcher';

/**
 * The tools a CLI run can call: the file, search, command and question tools every host
 * has, `fetch_url` (the editor's language features have no command-line adapter), then
 * `extra` (the MCP servers' tools).
 */
export function cliTools(extra: readonly Tool[] = []): ToolCatalog {
  return createToolRegistry([...workspaceTools, createFetchUrlTool(createNodeUrlFetcher()), ...extra]);
}
