import { z } from 'zod';
import { keepLineEnds } from '../text/keepLineEnds';
import { changeFile, maxWriteBytes } from './fileChange';
import type { FileChangeResult } from './fileChange';
import type { Tool } from './tool';

const inputSchema = z.strictObject({
  path: z.string().describe('Workspace-relative path of the file to create or overwrite; missing directories are created.'),
  content: z.string().describe('The complete new text of the file.'),
});

/**
 * `write_file`: creates or replaces a whole file, after approval, atomically, with a
 * checkpoint; a replaced file keeps its line ends and byte order mark (`keepLineEnds`), which
 * the diff shown for approval could not show changing.
 */
export const writeFileTool: Tool<z.infer<typeof inputSchema>, FileChangeResult> = {
  name: 'write_file',
  description: `Create a file or replace its whole content (at most ${maxWriteBytes} bytes). The user sees a diff and may reject it. A replaced file keeps its line endings and byte order mark. Prefer edit_file for changing part of an existing file.`,
  inputSchema,
  effects: 'write',
  run(ctx, input, signal) {
    return changeFile(ctx, { path: input.path, operation: 'write', propose: (current) => keepLineEnds(current, input.content) }, signal);
  },
};
