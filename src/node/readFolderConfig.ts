import { resolve } from 'node:path';
import { createConfinedWorkspace } from '../core/workspace/confinedWorkspace';
import { readWorkspaceConfig, type WorkspaceConfigRead } from '../core/workspace/readWorkspaceConfig';
import { createNodeDirectoryFs } from './nodeDirectoryFs';
import { timerClock } from './timerClock';
import { createUserChangeLocks, userChangeLockFolders } from './userChangeLocks';

/** How `readFolderConfig` reads: as `readWorkspaceConfig`, and whether a file with several hard links may be read. */
export interface FolderConfigRead extends WorkspaceConfigRead {
  /** Read a regular file that has several hard links (off by default: another name of it may lie outside). */
  allowHardLinks?: boolean;
}

/**
 * The configuration file `path` (relative to `folder`, such as `.vscode/mcp.json`) of a
 * folder on disk, read by `readWorkspaceConfig` through the Node workspace's confinement:
 * on Linux through directory handles, so a folder swapped for a link while it is read
 * cannot lead it outside. `undefined` when there is none; a `WorkspaceConfigError` otherwise.
 */
export function readFolderConfig(folder: string, path: string, read: FolderConfigRead): Promise<string | undefined> {
  const root = resolve(folder);
  const workspace = createConfinedWorkspace(createNodeDirectoryFs(root), {
    root,
    allowHardLinks: read.allowHardLinks ?? false,
    clock: timerClock,
    // It only reads: no lock is taken, so there is nothing to warn of.
    changeLocks: createUserChangeLocks({ folders: userChangeLockFolders(), warn: () => undefined }),
  });
  return readWorkspaceConfig(workspace, path, read);
}
