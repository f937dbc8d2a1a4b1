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
import { writeFileTool } from '../core/tools/writeFileTool';
import { createNodeUrlFetcher } from '../node/nodeUrlFetcher';
import type { Tool } from '../core/tools/tool';

/**
 * The tools a CLI run can call: the built-in file, search, command and question tools, and
 * `fetch_url` (the editor's language features have no command-line adapter).
 */
export function cliTools(): ToolCatalog {
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
    createFetchUrlTool(createNodeUrlFetcher()) as Tool,
  ];
  return createToolRegistry(tools);
}
