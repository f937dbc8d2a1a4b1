import { z } from 'zod';
import { WorkspaceError } from '../workspace/workspaceError';
import { changeFile, workspacePath } from './fileChange';
import { readCurrent } from './fileVersions';
import type { FileChangeResult } from './fileChange';
import type { Tool } from './tool';

const inputSchema = z.strictObject({
  path: z.string().describe('Workspace-relative path of the file to delete (files only, not directories).'),
});

/** `delete_file`: removes one file after approval, keeping its content in the run's checkpoints. */
export const deleteFileTool: Tool<z.infer<typeof inputSchema>, FileChangeResult> = {
  name: 'delete_file',
  description: 'Delete one file of the workspace (not a directory). The user sees what is removed and may reject it; "Undo run" can restore it.',
  inputSchema,
  effects: 'delete',
  async run(ctx, input, signal) {
    const path = workspacePath(ctx, input.path);
    if ((await readCurrent(ctx, path, signal)) === undefined) {
      throw new WorkspaceError('not_found', path, `Nothing to delete: ${path} does not exist`);
    }
    return changeFile(ctx, { path, operation: 'delete', propose: () => undefined }, signal);
  },
};
