import { z } from 'zod';
import { valueText } from '../text/valueText';
import { holdsPrivateKey, privateKeyReason } from '../workspace/credentialFiles';
import { PathRefusedError } from '../workspace/resolveInRoot';
import { WorkspaceError } from '../workspace/workspaceError';
import { workspacePath } from './fileChange';
import { isUtf8, sha256 } from './fileVersions';
import type { Tool, ToolContext } from './tool';
import { refuseWithheldRead, refuseWithheldTarget, withheldHint } from './withheldFiles';

/** Largest file `read_file` opens, in bytes. */
export const maxReadFileBytes = 8 * 1024 * 1024;
/** Most characters `read_file` returns at once; longer content is cut at a line end. */
export const maxReadResultChars = 200_000;

const inputSchema = z.strictObject({
  path: z.string().describe('Workspace-relative path of the file, e.g. "src/index.ts".'),
  startLine: z.int().min(1).optional().describe('First line to return, 1-based (default 1).'),
  endLine: z.int().min(1).optional().describe('Last line to return, inclusive (default: the last line).'),
});

/** What `read_file` returns. Line numbers are 1-based; `truncated` when the size cap cut the text. */
export interface ReadFileOutput {
  path: string;
  content: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  truncated: boolean;
  /** Present when the file is not UTF-8 text: bytes of another encoding are shown as U+FFFD, and the file tools refuse to change it. */
  notUtf8?: true;
}

/** What a read of a file that is not UTF-8 adds to its text, for the model and the user. */
export const notUtf8Note =
  '[not UTF-8 text: bytes of another encoding (such as Latin-1) are shown as \uFFFD; the file tools refuse to change it: convert it to UTF-8 first, or change it with a command]';

/** `read_file`: a text file, whole or a line range, refusing binary and oversized files and those `withheldReason` names. */
export const readFileTool: Tool<z.infer<typeof inputSchema>, ReadFileOutput> = {
  name: 'read_file',
  description: `Read a text file of the workspace, optionally only lines startLine..endLine (1-based, inclusive). Files over ${maxReadFileBytes} bytes are refused; results over ${maxReadResultChars} characters are cut at a line end (truncated: true), so read long files by line ranges.`,
  inputSchema,
  effects: 'read',
  async run(ctx, input, signal) {
    const path = workspacePath(ctx, input.path);
    await refuseWithheldRead(ctx, path, input.path, signal);
    const stat = await ctx.workspace.stat(path, signal);
    if (!stat) throw new WorkspaceError('not_found', path, `File not found: ${path}.`, { modelHint: 'Use list_files to see what exists.' });
    if (stat.type === 'directory') {
      throw new WorkspaceError('is_directory', path, `${path || '.'} is a directory, not a file.`, { modelHint: 'Use list_files to see its files.' });
    }
    if (stat.size > maxReadFileBytes) {
      throw new WorkspaceError(
        'too_large',
        path,
        `${path} is ${stat.size} bytes, more than the ${maxReadFileBytes}-byte read limit.`,
        { modelHint: 'Use search_text to find what you need in it.' },
      );
    }
    const text = await ctx.workspace.readText(path, signal, { maxBytes: maxReadFileBytes, refuseTarget: refuseWithheldTarget(ctx.withheld) });
    if (text.slice(0, 8192).includes('\u0000')) throw new WorkspaceError('binary', path, `${path} looks like a binary file; read_file reads text only`);
    if (holdsPrivateKey(text)) {
      ctx.withheld?.(path);
      throw new PathRefusedError(input.path, privateKeyReason, withheldHint(path));
    }
    // A newcomer's trial: a Latin-1 file was read as "Caf\uFFFD cr\uFFFDme" with nothing saying why.
    const notUtf8 = text.includes('\uFFFD') && (await isNotUtf8(ctx, path, signal));
    ctx.seenVersions?.set(path, sha256(text));
    const lines = text.split(/(?<=\n)/);
    const totalLines = lines.length;
    const startLine = input.startLine ?? 1;
    const requestedEnd = Math.min(input.endLine ?? totalLines, totalLines);
    if (input.endLine !== undefined && input.endLine < startLine) {
      throw new Error(`endLine (${input.endLine}) is before startLine (${startLine}); give endLine >= startLine`);
    }
    if (startLine > Math.max(totalLines, 1)) throw new Error(`startLine ${startLine} is past the end of ${path}, which has ${totalLines} lines`);
    let content = '';
    let endLine = startLine - 1;
    let truncated = false;
    for (let line = startLine; line <= requestedEnd; line++) {
      const next = lines[line - 1] ?? '';
      if (content.length + next.length > maxReadResultChars) {
        truncated = true;
        if (content === '') {
          content = next.slice(0, maxReadResultChars);
          endLine = line;
        }
        break;
      }
      content += next;
      endLine = line;
    }
    return { path, content, startLine, endLine: Math.max(endLine, startLine - 1), totalLines, truncated, ...(notUtf8 ? { notUtf8: true as const } : {}) };
  },
  // The content alone, so a "$S1" reference gets the file's text; a read the size cap cut also says
  // where it stopped, or an agent would take part of a file for all of it.
  resultText(output) {
    const content = output !== null && typeof output === 'object' && 'content' in output ? output.content : undefined;
    if (typeof content !== 'string') return valueText(output);
    const read = output as Partial<ReadFileOutput>;
    const encoding = read.notUtf8 === true ? `\n${notUtf8Note}` : '';
    if (read.truncated !== true || typeof read.endLine !== 'number' || typeof read.totalLines !== 'number') return `${content}${encoding}`;
    const rest = read.endLine < read.totalLines ? `; read the rest with startLine ${read.endLine + 1}` : '';
    return `${content}\n[cut at ${maxReadResultChars} characters, at line ${read.endLine} of ${read.totalLines}${rest}]${encoding}`;
  },
};

/** Whether the file's bytes are not UTF-8 (its text holds U+FFFD: written as such, or made of bytes it replaced). */
async function isNotUtf8(ctx: ToolContext, path: string, signal: AbortSignal): Promise<boolean> {
  if (ctx.workspace.readBytes === undefined) return false;
  return !isUtf8(await ctx.workspace.readBytes(path, signal, { maxBytes: maxReadFileBytes, refuseTarget: refuseWithheldTarget(ctx.withheld) }));
}
