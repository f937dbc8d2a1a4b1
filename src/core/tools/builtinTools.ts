import { createSessionPlanner } from '../session/createSessionPlanner';
import type { SessionPlanner } from '../session/createSessionPlanner';
import { createPlanningTools } from './planningTools';
import { askUserTool } from './askUserTool';
import { createDirectoryTool } from './createDirectoryTool';
import { deleteFileTool } from './deleteFileTool';
import { editFileTool } from './editFileTool';
import { listFilesTool } from './listFilesTool';
import { readFileTool } from './readFileTool';
import { runCommandTool } from './runCommandTool';
import { searchTextTool } from './searchTextTool';
import type { Tool } from './tool';
import { writeFileTool } from './writeFileTool';

/** Options of `builtinTools`. */
export interface BuiltinToolsOptions {
  /**
   * The session planner the `planning_*` tools act on. Default: one planner per run id,
   * created on first use and kept by this tool set.
   */
  sessionPlanner?: SessionPlanner;
}

/**
 * Every built-in tool (docs/architecture.md §6): the file tools, `run_command`, `ask_user` and the six
 * session planning tools. Safety lives in the tools, not in the caller: paths are
 * confined, changes ask per the approval policy, commands always ask.
 */
export function builtinTools(options: BuiltinToolsOptions = {}): Tool[] {
  const planners = new Map<string, SessionPlanner>();
  const plannerFor = (runId: string): SessionPlanner => {
    if (options.sessionPlanner) return options.sessionPlanner;
    let planner = planners.get(runId);
    if (!planner) {
      planner = createSessionPlanner();
      planners.set(runId, planner);
    }
    return planner;
  };
  return [...workspaceTools, ...createPlanningTools((ctx) => plannerFor(ctx.runId))] as Tool[];
}

/** The file, search, command and question tools every host has, in the order models see them. */
export const workspaceTools: readonly Tool[] = [
  readFileTool,
  listFilesTool,
  searchTextTool,
  writeFileTool,
  editFileTool,
  createDirectoryTool,
  deleteFileTool,
  runCommandTool,
  askUserTool,
] as Tool[];
