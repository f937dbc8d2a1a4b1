import { createHash } from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import type { FileProposal, FileVersion } from '../ports';
import { isProtectedPath, protectedPlaceReason } from '../workspace/protectedPlaces';
import { normalizeWorkspacePath, PathRefusedError } from '../workspace/resolveInRoot';
import { isWorkspaceError, WorkspaceError } from '../workspace/workspaceError';
import { needsApproval, requireApproval } from './approvals';
import type { ToolContext } from './tool';

/** Largest text a tool writes, in UTF-8 bytes. */
export const maxWriteBytes = 5 * 1024 * 1024;

/** sha256 of `text` encoded as UTF-8, in hex. */
export function sha256(text: string): string {
  // Stryker disable next-line StringLiteral: UTF-8 is also the default encoding of a string given to update().
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** What a file change did. `changed` is false when the proposed text equals the current one. */
export interface FileChangeResult {
  path: string;
  operation: 'created' | 'overwritten' | 'edited' | 'deleted' | 'unchanged';
  changed: boolean;
  /** Size of the text written, in UTF-8 bytes (0 for a deletion). */
  bytes: number;
}

/**
 * The one way tools change files. Reads the current content, lets `propose` compute the
 * new one (`undefined` deletes), shows the user a proposal with a unified diff and waits
 * for approval (per the context's policy), checks the file did not change meanwhile,
 * records a checkpoint of the previous content, then applies the change through the
 * workspace (atomic). A rejection or any failure before the last step leaves the file as
 * it was. Refuses paths inside `.git`, as written or once symbolic links are followed; the
 * proposal names where a path leads through links when that differs.
 */
export async function changeFile(
  ctx: ToolContext,
  input: { path: string; operation: 'write' | 'edit' | 'delete'; propose(current: string | undefined): string | undefined },
  signal: AbortSignal,
): Promise<FileChangeResult> {
  const path = workspacePath(ctx, input.path);
  if (path === '') throw new PathRefusedError(input.path, 'it names the workspace root, not a file');
  if (path.split('/').includes('.git')) throw new PathRefusedError(input.path, 'files inside .git are managed by git and are never changed by tools');
  // Checked again where the path really leads (a link such as docs -> .git); the workspace
  // itself refuses the change should a link be swapped in after this check.
  const resolvedPath = (await ctx.workspace.locate?.(path, signal)) ?? path;
  if (isProtectedPath(resolvedPath)) throw new PathRefusedError(input.path, protectedPlaceReason(resolvedPath));
  const current = await readCurrent(ctx, path, signal);
  const proposed = input.propose(current);
  // Stryker disable next-line ConditionalExpression: a deletion (undefined) encodes to 0 bytes, so measuring it too changes nothing.
  if (proposed !== undefined) {
    const bytes = new TextEncoder().encode(proposed).length;
    if (bytes > maxWriteBytes) {
      throw new WorkspaceError('too_large', path, `Refused to write ${path}: ${bytes} bytes is more than the ${maxWriteBytes}-byte limit`);
    }
  }
  if (proposed === current) return { path, operation: 'unchanged', changed: false, bytes: 0 };
  const proposal: FileProposal = {
    path,
    currentText: current,
    proposedText: proposed,
    diff: createTwoFilesPatch(
      current === undefined ? '/dev/null' : `a/${path}`,
      proposed === undefined ? '/dev/null' : `b/${path}`,
      current ?? '',
      proposed ?? '',
    ),
    ...(resolvedPath === path ? {} : { resolvedPath }),
  };
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: writes and deletions follow one approval rule today; the effect stays exact for when they do not.
  const effect = input.operation === 'delete' ? 'delete' : 'write';
  if (needsApproval(effect, ctx.approvalPolicy)) {
    const verb = input.operation === 'delete' ? 'deleting' : current === undefined ? 'creating' : input.operation === 'edit' ? 'editing' : 'overwriting';
    await requireApproval(ctx, { kind: 'file', stepId: ctx.stepId, title: ctx.stepTitle, operation: input.operation, proposal }, `${verb} ${path}`, signal);
    const now = await readCurrent(ctx, path, signal);
    if (now !== current) {
      throw new Error(
        `${path} changed while the change was waiting for approval; nothing was written. Run the step again to propose the change against the new content.`,
      );
    }
  }
  if (ctx.checkpoints) {
    await ctx.checkpoints.record({
      runId: ctx.runId,
      stepId: ctx.stepId,
      path,
      operation: input.operation,
      before: versionOf(current),
      afterSha256: proposed === undefined ? undefined : sha256(proposed),
    });
  }
  if (proposed === undefined) {
    await ctx.workspace.delete(path, signal);
    return { path, operation: 'deleted', changed: true, bytes: 0 };
  }
  await ctx.workspace.writeText(path, proposed, signal);
  const operation = current === undefined ? 'created' : input.operation === 'edit' ? 'edited' : 'overwritten';
  return { path, operation, changed: true, bytes: new TextEncoder().encode(proposed).length };
}

/**
 * The file's text, or `undefined` when it does not exist; refuses directories. A file that
 * is there but reads as missing (a link swapped between the calls) is refused: taken for
 * absent, it would be written as a new file and checkpointed as one, and Undo would delete
 * it instead of restoring it.
 */
export async function readCurrent(ctx: ToolContext, path: string, signal: AbortSignal): Promise<string | undefined> {
  const stat = await ctx.workspace.stat(path, signal);
  if (stat === undefined) return undefined;
  if (stat.type === 'directory') throw new WorkspaceError('is_directory', path, `${path} is a directory, not a file`);
  try {
    return await ctx.workspace.readText(path, signal);
  } catch (error) {
    if (!isWorkspaceError(error, 'not_found')) throw error;
    if ((await ctx.workspace.stat(path, signal)) === undefined) return undefined;
    throw new Error(
      `${path} exists but could not be read; nothing was written. Check that it is a readable file (not a link that changes), then run the step again.`,
      { cause: error },
    );
  }
}

/** A path as the workspace will see it (relative, normalised); refuses what confinement refuses. */
export function workspacePath(ctx: ToolContext, path: string): string {
  return normalizeWorkspacePath(path, ctx.workspace.rootLabel.startsWith('/') ? ctx.workspace.rootLabel : undefined);
}

function versionOf(text: string | undefined): FileVersion {
  return text === undefined ? { exists: false } : { exists: true, text, sha256: sha256(text) };
}
