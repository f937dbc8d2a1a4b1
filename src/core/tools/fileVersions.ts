import { createHash } from 'node:crypto';
import type { FileVersion } from '../runStorePorts';
import type { ExpectedContent, ReadOptions } from '../workspacePorts';
import { isWorkspaceError, WorkspaceError } from '../workspace/workspaceError';
import type { ToolContext } from './tool';

/** sha256 of `text` encoded as UTF-8, in hex. */
export function sha256(text: string): string {
  // Stryker disable next-line StringLiteral: UTF-8 is also the default encoding of a string given to update().
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The version of `text` (`undefined`: absent), with the file's permission bits `mode` where known. */
export function versionOf(text: string | undefined, mode?: number): FileVersion {
  if (text === undefined) return { exists: false };
  return { exists: true, text, sha256: sha256(text), ...(mode === undefined ? {} : { mode }) };
}

/** What a change computed from `version` expects to find. */
export function expectedOf(version: FileVersion): ExpectedContent {
  return version.exists ? { exists: true, sha256: version.sha256 } : { exists: false };
}

/** The text of `version`, `undefined` when absent. */
export function textOf(version: FileVersion): string | undefined {
  return version.exists ? version.text : undefined;
}

/** The largest file, in bytes, the file tools read to change: a larger one is refused before it is read (`readVersion`). */
export const maxChangedFileBytes = 64 * 1024 * 1024;

// Fatal: bytes that are not UTF-8 are refused rather than replaced; ignoreBOM: a BOM is kept as U+FEFF, so the text encodes back to the same bytes.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The file's current version: absent, or its text and hash. The text encodes back to
 * exactly the file's bytes: a file that is not valid UTF-8 (Latin-1, Windows-1252,
 * Shift-JIS, binary) is refused with a `WorkspaceError` of code `not_utf8`, so no change
 * computed on a lossy decoding can rewrite bytes the user never saw change. Refuses
 * directories. A file that is there but reads as missing (a link swapped between the
 * calls) is refused: taken for absent, it would be written as a new file and checkpointed
 * as one, and Undo would delete it instead of restoring it. `refuseTarget` judges the file the read opens (see
 * `ReadOptions`).
 */
export async function readVersion(
  ctx: Pick<ToolContext, 'workspace'>,
  path: string,
  signal: AbortSignal,
  refuseTarget?: ReadOptions['refuseTarget'],
): Promise<FileVersion> {
  const stat = await ctx.workspace.stat(path, signal);
  if (stat === undefined) return { exists: false };
  if (stat.type === 'directory') throw new WorkspaceError('is_directory', path, `${path} is a directory, not a file`);
  let text: string;
  try {
    const limit: ReadOptions = { maxBytes: maxChangedFileBytes, ...(refuseTarget === undefined ? {} : { refuseTarget }) };
    text = ctx.workspace.readBytes
      ? decodeStrictly(path, await ctx.workspace.readBytes(path, signal, limit))
      : await ctx.workspace.readText(path, signal, limit);
  } catch (error) {
    if (isWorkspaceError(error, 'too_large')) {
      throw new WorkspaceError(
        'too_large',
        path,
        `${path} is larger than the file tools change (${maxChangedFileBytes / 1024 / 1024} MB), so it was not read or changed; change it with a command.`,
        { cause: error },
      );
    }
    if (!isWorkspaceError(error, 'not_found')) throw error;
    if ((await ctx.workspace.stat(path, signal)) === undefined) return { exists: false };
    throw new Error(
      `${path} exists but could not be read; nothing was written. Check that it is a readable file (not a link that changes), then run the step again.`,
      { cause: error },
    );
  }
  return versionOf(text, stat.mode);
}

/** The file's text, or `undefined` when it does not exist; as `readVersion`. */
export async function readCurrent(ctx: ToolContext, path: string, signal: AbortSignal): Promise<string | undefined> {
  return textOf(await readVersion(ctx, path, signal));
}

/** Whether `bytes` are UTF-8 text (a byte order mark included): what a file tool can change without rewriting bytes it cannot show. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function decodeStrictly(path: string, bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new WorkspaceError(
      'not_utf8',
      path,
      `${path} is not UTF-8 text (it holds bytes of another encoding, such as Latin-1 or Shift-JIS, or binary data), so the file tools refuse to change it: a text change would rewrite bytes the diff cannot show. Convert it to UTF-8 first, or change it with a command.`,
    );
  }
}
