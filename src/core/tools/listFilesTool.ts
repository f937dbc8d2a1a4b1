import { z } from 'zod';
import type { Tool } from './tool';

/** Default and largest number of paths `list_files` returns. */
export const listFilesDefaultLimit = 1000;
export const listFilesMaxLimit = 10_000;

const inputSchema = z.strictObject({
  glob: z.string().optional().describe('Glob relative to the workspace root, e.g. "src/**/*.ts"; a glob without "/" matches file names at any depth ("*.md").'),
  limit: z.int().min(1).max(listFilesMaxLimit).optional().describe(`Most paths to return (default ${listFilesDefaultLimit}).`),
});

/** What `list_files` returns: sorted paths, how many matched in all, and whether the limit cut the list. */
export interface ListFilesOutput {
  files: string[];
  total: number;
  truncated: boolean;
}

/** `list_files`: workspace files by glob, honouring `.gitignore`, never in `.git`, `node_modules` or `.task-planner`. */
export const listFilesTool: Tool<z.infer<typeof inputSchema>, ListFilesOutput> = {
  name: 'list_files',
  description: 'List workspace files (not directories), sorted, optionally filtered by a glob. Honours .gitignore and always skips .git, node_modules and .task-planner (Task Planner\'s own runs). The list is capped by "limit".',
  inputSchema,
  effects: 'read',
  async run(ctx, input, signal) {
    const all = await ctx.workspace.list(input.glob, signal);
    const limit = input.limit ?? listFilesDefaultLimit;
    return { files: all.slice(0, limit), total: all.length, truncated: all.length > limit };
  },
};
