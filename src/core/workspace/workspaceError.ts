/** Why a workspace operation failed, for callers that react differently per cause. */
export type WorkspaceErrorCode = 'not_found' | 'is_directory' | 'not_directory' | 'not_empty' | 'too_large' | 'binary' | 'not_regular' | 'hard_link';

/**
 * A workspace operation failed for a reason other than path confinement (see
 * `PathRefusedError`). `path` is the workspace-relative path the caller gave.
 */
export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

/** `true` when `error` is a `WorkspaceError` with `code`. */
export function isWorkspaceError(error: unknown, code?: WorkspaceErrorCode): error is WorkspaceError {
  return error instanceof WorkspaceError && (code === undefined || error.code === code);
}

/**
 * The refusal of a regular file that has `links` (more than one) hard links: another name of
 * the same file may lie outside the workspace, so it is neither read nor changed.
 */
export function hardLinkError(relative: string, input: string, links: number): WorkspaceError {
  return new WorkspaceError(
    'hard_link',
    input,
    `${relative} is a hard link: the same file has ${links} names, and another one may be outside the workspace, so it is neither read nor changed. ` +
      'Replace it with a copy, or allow hard links (setting taskPlanner.workspace.allowHardLinks, or --allow-hard-links on the command line) if you trust every name it has.',
  );
}
