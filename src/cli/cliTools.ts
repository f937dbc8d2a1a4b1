import { askUserTool } from '../core/tools/askUserTool';
import { createDirectoryTool } from '../core/tools/createDirectoryTool';
import { createToolRegistry, type ToolCatalog } from '../core/tools/createToolRegistry';
import { deleteFileTool } from '../core/tools/deleteFileTool';
import { editFileTool } from '../core/tools/editFileTool';
import { listFilesTool } from '../core/tools/listFilesTool';
import { readFileTool } from '../core/tools/readFileTool';
import { runCommandTool } from '../core/tools/runCommandTool';
import { searchTextTool } from '../core/tools/searchTextTool';
import type { Tool } from '../core/tools/tool';
import { writeFileTool } from '../core/tools/writeFileTool';

/** The tools a CLI run can call: the built-in file, search, command and question tools, then `extra` (the MCP servers' tools). */
export function cliTools(extra: readonly Tool[] = []): ToolCatalog {
  const tools = [readFileTool, listFilesTool, searchTextTool, writeFileTool, editFileTool, createDirectoryTool, deleteFileTool, runCommandTool, askUserTool];
  return createToolRegistry([...(tools as Tool[]), ...extra]);
}
