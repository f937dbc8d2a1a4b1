import { askUserTool } from '../core/tools/askUserTool';
import { createDirectoryTool } from '../core/tools/createDirectoryTool';
import { createToolRegistry, type ToolCatalog } from '../core/tools/createToolRegistry';
import { deleteFileTool } from '../core/tools/deleteFileTool';
import { editFileTool } from '../core/tools/editFileTool';
import { createFetchUrlTool } from '../core/tools/fetchUrlTool';
import { listFilesTool } from '../core/tools/listFilesTool';
import { readFileTool } from '../core/tools/readFileTool';
import { runCommandTool } from '../core/tools/runCommandTool';
import { searchTextTool } from '../core/tools/searchTextTool';
import type { Tool } from '../core/tools/tool';
import { writeFileTool } from '../core/tools/writeFileTool';
import { createNodeUrlFetcher } from '../node/nodeUrlFetcher';

/**
 * The tools a CLI run can call: the built-in file, search, command and question tools,
 * `fetch_url` (the editor's language features have no command-line adapter), then `extra`
 * (the MCP servers' tools).
 */
export function cliTools(extra: readonly Tool[] = []): ToolCatalog {
  const tools = [
    readFileTool,
    listFilesTool,
    searchTextTool,
    writeFileTool,
    editFileTool,
    createDirectoryTool,
    deleteFileTool,
    runCommandTool,
    askUserTool,
    createFetchUrlTool(createNodeUrlFetcher()),
  ];
  return createToolRegistry([...(tools as Tool[]), ...extra]);
}
