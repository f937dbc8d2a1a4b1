/** Why a workspace operation failed, for callers that react differently per cause. */
export type WorkspaceErrorCode =
  | 'not_found'
  | 'is_directory'
  | 'not_directory'
  | 'not_empty'
  | 'too_large'
  | 'binary'
  | 'not_regular'
  | 'hard_link'
  /** The file is not the version a change was computed from (someone changed it meanwhile); nothing was changed. */
  | 'changed'
  /** The file's bytes are not UTF-8 text, so a text change could not keep them. */
  | 'not_utf8'
  /** The file is open in the editor with unsaved changes, which a change would write over. */
  | 'unsaved'
  /** The file system refused access (permissions). */
  | 'no_permission'
  /** The file system failed otherwise (a full disk, a read-only file system, an input/output error…). */
  | 'io_error';

/**
 * A workspace operation failed for a reason other than path confinement (see
 * `PathRefusedError`). `path` is the workspace-relative path the caller gave. `message` is
 * for the person (no tool names); `modelHint` is what a model that called the tool should
 * do instead ("Use list_files to see what exists."), told to an agent after the message.
 */
export class WorkspaceError extends Error {
  readonly modelHint: string | undefined;

  constructor(
    readonly code: WorkspaceErrorCode,
    readonly path: string,
    message: string,
    options?: { cause?: unknown; modelHint?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WorkspaceError';
    this.modelHint = options?.modelHint;
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

/** Codes of a file system failure (Node's `E…` codes, VS Code's `FileSystemError` codes) that mean access was refused. */
const permissionCodes: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'NoPermissions']);

/** Other file system failures, in words. */
const failureReasons: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EIO: 'an input/output error',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  EBUSY: 'it is busy',
  ETXTBSY: 'it is busy',
  ENAMETOOLONG: 'a name on its path is too long',
  EFBIG: 'it is too large for the file system',
  ESTALE: 'the network file system lost it',
  Unavailable: 'the file system is unavailable',
};

/** The string `code` of `error`, else `''`. */
function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/** `true` when `error` is a file system failure that means access was refused (EACCES, EPERM). */
export function isPermissionDenied(error: unknown): boolean {
  return permissionCodes.has(failureCode(error));
}

/**
 * `error` in the user's words: a file system failure while working on `input` (an error
 * with a code such as EACCES or ENOSPC, whose own message names an internal path such as
 * `/proc/self/fd/12/…`) becomes a `WorkspaceError` that names `input` and says what went
 * wrong, the failure kept as its `cause`; any other error (a `WorkspaceError`, whose codes
 * are lower case, a refusal, a cancellation) is returned as it is.
 */
export function asWorkspaceFailure(error: unknown, input: string, action: 'read' | 'changed' | 'listed'): unknown {
  const code = failureCode(error);
  const shown = input === '' ? 'the workspace folder' : input;
  if (permissionCodes.has(code)) {
    const hint = 'Check the permissions of it and of the folders above it.';
    return new WorkspaceError('no_permission', input, `${shown} cannot be ${action}: permission denied. ${hint}`, { cause: error });
  }
  const reason = failureReasons[code] ?? (/^E[A-Z0-9]+$/.test(code) ? 'a file system error' : undefined);
  return reason === undefined ? error : new WorkspaceError('io_error', input, `${shown} cannot be ${action}: ${reason} (${code}).`, { cause: error });
}
