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
