import * as path from 'node:path';
import type { ChangeLockFolder, WorkspaceFs } from '../core/workspacePorts';
import { createConfinedWorkspace } from '../core/workspace/confinedWorkspace';
import type { ManyTextReader } from '../core/workspace/readTextMany';
import { createNodeDirectoryFs, type NodeDirectoryFsOptions } from './nodeDirectoryFs';
import { createParallelTextSearcher } from './parallelTextSearcher';
import { createRipgrepSearcher } from './ripgrepSearcher';
import { timerClock } from './timerClock';
import { createUserChangeLocks, userChangeLockFolders } from './userChangeLocks';
import { visibleControls } from '../shared/visibleCharacters';

export type { NodeFileSystem } from './nodeDirectoryFs';

/** Options of `createNodeWorkspace`. */
export interface NodeWorkspaceOptions extends NodeDirectoryFsOptions {
  /**
   * Reads and changes regular files that have more than one hard link. Off by default: a
   * hard link can make a file outside the workspace appear inside it.
   */
  allowHardLinks?: boolean;
  /**
   * A ripgrep program: `search_text` then reads only the files it finds a match in (see
   * `createRipgrepSearcher`). Without one, a large search reads on threads first
   * (`createParallelTextSearcher`).
   */
  ripgrepPath?: string | undefined;
  /**
   * Where change locks are taken; unless given, the user's folder of them (`createUserChangeLocks`), which says on
   * stderr when it cannot be used.
   */
  changeLocks?: ChangeLockFolder;
}

/**
 * A `WorkspaceFs` over a folder on disk: the core's workspace policy
 * (`createConfinedWorkspace`) over `createNodeDirectoryFs`. On Linux every operation works
 * through `/proc/self/fd` directory handles, so a directory or file swapped for a link to
 * the outside while it works cannot redirect it; with `directoryHandles: false` (and where
 * the kernel has no such handles) the same walk runs on paths checked a moment earlier.
 */
export function createNodeWorkspace(root: string, options: NodeWorkspaceOptions = {}): WorkspaceFs & ManyTextReader {
  const absoluteRoot = path.resolve(root);
  const textSearcher = options.ripgrepPath === undefined ? createParallelTextSearcher(absoluteRoot) : createRipgrepSearcher(options.ripgrepPath, absoluteRoot);
  return createConfinedWorkspace(createNodeDirectoryFs(absoluteRoot, options), {
    root: absoluteRoot,
    allowHardLinks: options.allowHardLinks ?? false,
    clock: timerClock,
    changeLocks: options.changeLocks ?? createUserChangeLocks({ folders: userChangeLockFolders(), warn: warnOnStderr }),
    ...(textSearcher === undefined ? {} : { textSearcher }),
  });
}

/** A warning of the workspace's on stderr (the command line's, a library user's), as the command line writes every text. */
function warnOnStderr(message: string): void {
  process.stderr.write(`Warning: ${visibleControls(message)}\n`);
}
