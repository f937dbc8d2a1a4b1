import { z } from 'zod';
import { WorkspaceError } from '../workspace/workspaceError';
import { changeFile, workspacePath } from './fileChange';
import type { FileChangeResult } from './fileChange';
import type { Tool, ToolContext } from './tool';

const inputSchema = z.strictObject({
  path: z.string().describe('Workspace-relative path of the file to delete (files only, not directories).'),
});

/**
 * `delete_file`: removes one file after approval, keeping its content and permission bits
 * in the run's checkpoints. Refuses a symbolic link: removing one goes through no
 * checkpoint that could restore it.
 */
export const deleteFileTool: Tool<z.infer<typeof inputSchema>, FileChangeResult> = {
  name: 'delete_file',
  description: 'Delete one file of the workspace (not a directory). The user sees what is removed and may reject it; "Undo run" can restore it.',
  inputSchema,
  effects: 'delete',
  async run(ctx, input, signal) {
    const path = workspacePath(ctx, input.path);
    const target = await linkTarget(ctx, path, signal);
    if (target !== undefined) {
      throw new WorkspaceError(
        'not_regular',
        path,
        `${path} is a symbolic link (to ${target}); delete_file removes files, and Undo could not bring a link back. Delete the file it leads to (${target}), or remove the link with a command.`,
      );
    }
    return changeFile(ctx, { path, operation: 'delete', propose: () => undefined }, signal);
  },
};

/** Where the link `path` leads (workspace-relative), or `undefined` when its last part is no link. */
async function linkTarget(ctx: ToolContext, path: string, signal: AbortSignal): Promise<string | undefined> {
  const locate = ctx.workspace.locate?.bind(ctx.workspace);
  if (locate === undefined) return undefined;
  const slash = path.lastIndexOf('/');
  const parent = slash === -1 ? '' : await locate(path.slice(0, slash), signal);
  const itself = parent === '' ? path.slice(slash + 1) : `${parent}/${path.slice(slash + 1)}`;
  const leadsTo = await locate(path, signal);
  return leadsTo === itself ? undefined : leadsTo;
}
