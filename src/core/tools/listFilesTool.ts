import { z } from 'zod';
import type { Tool } from './tool';

/** Default and largest number of paths `list_files` returns. */
export const listFilesDefaultLimit = 1000;
export const listFilesMaxLimit = 10_000;

const inputSchema = z.strictObject({
  glob: z.string().optional().describe('Glob relative to the workspace root, e.g. "src/**/*.ts"; a glob without "/" matches file names at any depth ("*.md").'),
  // Models ask for a folder by `path` as often as by glob (a local model's first call was refused, a turn lost): its
  // files at any depth, filtered from the listing, so no glob syntax in a folder's name ("app/[id]") can mislead it.
  path: z
    .string()
    .max(1000)
    .optional()
    .describe('A folder relative to the workspace root: only the files under it, at any depth (with glob: those it matches).'),
  limit: z.int().min(1).max(listFilesMaxLimit).optional().describe(`Most paths to return (default ${listFilesDefaultLimit}).`),
});

/**
 * The folders a listing was not allowed to read (their files are missing), in a tool's
 * output: the first 50 named, and how many more were left unnamed; absent when there are none.
 */
export interface UnreadableFoldersReport {
  unreadableFolders?: string[];
  unreadableFoldersNotNamed?: number;
}

/** What `list_files` returns: sorted paths, how many matched in all, whether the limit cut the list, and the folders it could not read. */
export interface ListFilesOutput extends UnreadableFoldersReport {
  files: string[];
  total: number;
  truncated: boolean;
}

/** Most unreadable folders a tool's output names. */
export const maxNamedUnreadableFolders = 50;

/** The report of `unreadable` folders for a tool's output (nothing when there are none). */
export function unreadableFoldersReport(unreadable: readonly string[]): UnreadableFoldersReport {
  if (unreadable.length === 0) return {};
  const notNamed = unreadable.length - maxNamedUnreadableFolders;
  return { unreadableFolders: unreadable.slice(0, maxNamedUnreadableFolders), ...(notNamed > 0 ? { unreadableFoldersNotNamed: notNamed } : {}) };
}

/** `list_files`: workspace files by glob, honouring `.gitignore`, never in `.git`, `node_modules` or `.task-planner`. */
export const listFilesTool: Tool<z.infer<typeof inputSchema>, ListFilesOutput> = {
  name: 'list_files',
  description: 'List workspace files (not directories), sorted, optionally filtered by a glob. Honours .gitignore and always skips .git, node_modules and .task-planner (Task Planner\'s own runs). The list is capped by "limit".',
  inputSchema,
  effects: 'read',
  async run(ctx, input, signal) {
    const listed = await ctx.workspace.list(input.glob, signal);
    const files = input.path === undefined ? listed.files : underFolder(listed.files, input.path);
    const { unreadable } = listed;
    const limit = input.limit ?? listFilesDefaultLimit;
    return {
      files: files.slice(0, limit),
      total: files.length,
      truncated: files.length > limit,
      ...unreadableFoldersReport(unreadable),
    };
  },
};

/** The paths of `files` under `folder` (`./src/`, `src` and `src/` alike; `.` or nothing: all of them). */
function underFolder(files: readonly string[], folder: string): readonly string[] {
  const parts = folder.replace(/\\/g, '/').split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0) return files;
  const prefix = `${parts.join('/')}/`;
  return files.filter((file) => file.startsWith(prefix));
}
