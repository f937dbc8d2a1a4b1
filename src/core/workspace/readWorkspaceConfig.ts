import { errorMessage } from '../../shared/errorMessage';
import type { WorkspaceFs } from '../workspacePorts';
import { PathRefusedError } from './resolveInRoot';
import { isWorkspaceError } from './workspaceError';

/** Why a workspace's configuration file was not read. */
export type WorkspaceConfigProblem = 'outside' | 'not_file' | 'too_large' | 'unreadable';

/** A configuration file of a workspace that was not read; the message names the file and says what to do. */
export class WorkspaceConfigError extends Error {
  override readonly name = 'WorkspaceConfigError';

  constructor(
    readonly problem: WorkspaceConfigProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How `readWorkspaceConfig` reads one file. */
export interface WorkspaceConfigRead {
  /** The file as the user knows it (its path), in messages. */
  label: string;
  /** The most bytes read; a larger file is refused, never read in part. */
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * The text of the configuration file `path` (workspace-relative) of `workspace`, read through
 * the workspace's confinement, so a repository's file gets no further than its own folder:
 * `undefined` when there is none. Throws a `WorkspaceConfigError` naming `label` when it (or
 * a folder on the way) leads outside the workspace through a link, is not a regular file (a
 * device such as /dev/zero, a named pipe, a socket, a folder), or is larger than `maxBytes`:
 * the size is the opened file's own and at most that many bytes are read, so neither an
 * endless device nor a pipe nor a huge file can hold a command up.
 */
export async function readWorkspaceConfig(workspace: WorkspaceFs, path: string, read: WorkspaceConfigRead): Promise<string | undefined> {
  const { label, maxBytes, signal } = read;
  try {
    return await workspace.readText(path, signal, { maxBytes });
  } catch (error) {
    signal?.throwIfAborted();
    if (isWorkspaceError(error, 'not_found')) return undefined;
    if (error instanceof PathRefusedError) {
      throw new WorkspaceConfigError(
        'outside',
        `${label} leads outside the workspace ${workspace.rootLabel} through a symbolic link, so it was not read: a workspace's configuration is read only from files inside it. Replace the link with the file itself.`,
        { cause: error },
      );
    }
    if (isWorkspaceError(error, 'not_regular') || isWorkspaceError(error, 'is_directory')) {
      throw new WorkspaceConfigError(
        'not_file',
        `${label} is not a regular file (it is a folder, a device, a named pipe or a socket), so it was not read. Replace it with a regular file.`,
        { cause: error },
      );
    }
    if (isWorkspaceError(error, 'too_large')) {
      const message = `${label} is larger than ${maxBytes} bytes, the most read of such a file, so it was not read. Make it smaller.`;
      throw new WorkspaceConfigError('too_large', message, { cause: error });
    }
    throw new WorkspaceConfigError('unreadable', `${label} cannot be read: ${errorMessage(error)}`, { cause: error });
  }
}
