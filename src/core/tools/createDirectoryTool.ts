import { z } from 'zod';
import { isProtectedPath, protectedPlaceHint, protectedPlaceReason } from '../workspace/protectedPlaces';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { WorkspaceError } from '../workspace/workspaceError';
import { needsApproval, requireApproval } from './approvals';
import { workspacePath } from './fileChange';
import { createDirectoryRecorded } from './recordedChange';
import type { Tool } from './tool';

const inputSchema = z.strictObject({
  path: z.string().describe('Workspace-relative directory path; missing parents are created too.'),
});

/**
 * `create_directory`: creates a directory (and its parents). A new directory is a write:
 * it asks for approval under the same policy as file writes, before anything is created;
 * undo removes it again while it is still empty. An existing directory is no change and
 * asks nothing.
 */
export const createDirectoryTool: Tool<z.infer<typeof inputSchema>, { path: string; created: boolean }> = {
  name: 'create_directory',
  description: 'Create a directory in the workspace, with any missing parents. Succeeds without change when it already exists.',
  inputSchema,
  effects: 'write',
  async run(ctx, input, signal) {
    const path = workspacePath(ctx, input.path);
    if (path.split('/').includes('.git')) {
      throw new PathRefusedError(input.path, 'the .git directory is managed by git and is never changed by tools', protectedPlaceHint);
    }
    // Also `.GIT` and `.task-planner`; where a link leads is refused by the workspace itself.
    if (isProtectedPath(path)) throw new PathRefusedError(input.path, protectedPlaceReason(path, path), protectedPlaceHint);
    const existing = await ctx.workspace.stat(path, signal);
    if (existing?.type === 'directory') return { path, created: false };
    if (existing) throw new WorkspaceError('not_directory', path, `Cannot create directory ${path}: a file with that name exists`);
    if (needsApproval(createDirectoryTool.effects, ctx.approvalPolicy)) {
      await requireApproval(ctx, { kind: 'directory', stepId: ctx.stepId, title: ctx.stepTitle, path }, `creating the directory ${path}`, signal);
    }
    await createDirectoryRecorded(ctx, path, signal);
    return { path, created: true };
  },
};
