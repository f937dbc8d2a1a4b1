import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { closeDirectory, type ConfinedTree, type DirectoryHandle } from './confinedTree';

/** Workspace-relative folder of the temporary files of atomic writes; it holds a `.gitignore` of `*`, so git shows none of it. */
export const temporaryFolder = '.task-planner/tmp';

/** Prefix of the temporary files written next to their target when the temporary folder cannot be used (another file system); never listed. */
export const tempFilePrefix = '.task-planner-tmp-';

/** Names of the temporary files in `temporaryFolder`; nothing else there is removed. */
export const temporaryFileName = /^write-[0-9a-f]{16}$/;

/** A temporary file in `temporaryFolder` older than this, in milliseconds, was left by an interrupted write. */
export const staleTemporaryFileMs = 10 * 60 * 1000;

/** The `.gitignore` of `temporaryFolder`: git shows nothing of it, itself included. */
export const temporaryFolderIgnore = "# Temporary files of Task Planner's atomic writes.\n*\n";

/** A new name for a temporary file: in `temporaryFolder`, or next to the target (with `tempFilePrefix`). */
export function newTemporaryName(inFolder: boolean): string {
  const random = randomBytes(8).toString('hex');
  return inFolder ? `write-${random}` : `${tempFilePrefix}${random}`;
}

/** The `fs.promises` functions atomic writes use (replaceable to inject faults). */
export type TemporaryFileSystem = Pick<typeof fs.promises, 'open' | 'rename' | 'rm'>;

/**
 * Atomic replacement of workspace files: the text goes to a new temporary file in
 * `temporaryFolder` (opened exclusively, never through a link), then is renamed over the
 * target entry of a checked directory handle, so the target is either the old or the new
 * file and nothing lands outside the workspace. When the target lies on another file system
 * (a rename cannot cross it), the temporary file goes next to the target instead. The first
 * write removes the temporary files of interrupted writes older than `staleMs`.
 */
export class TemporaryFiles {
  private swept = false;

  constructor(private readonly fsp: TemporaryFileSystem) {}

  /**
   * Replaces the entry `name` of `directory` with `text` (UTF-8). `mode` is the previous
   * file's permission bits to keep; `undefined` for a new file (0o666 less the umask).
   * Rejects when `signal` aborts before the rename, leaving the target as it was.
   */
  async replace(tree: ConfinedTree, directory: DirectoryHandle, name: string, text: string, mode: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    const folder = this.openFolder(tree);
    try {
      if (folder) {
        try {
          return await this.writeThenRename(folder, newTemporaryName(true), directory, name, text, mode, signal);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        }
      }
      await this.writeThenRename(directory, newTemporaryName(false), directory, name, text, mode, signal);
    } finally {
      if (folder) closeDirectory(folder);
    }
  }

  private async writeThenRename(holder: DirectoryHandle, tempName: string, directory: DirectoryHandle, name: string, text: string, mode: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    const temp = holder.prefix + tempName;
    try {
      const handle = await this.fsp.open(temp, 'wx', mode ?? 0o666);
      try {
        await handle.writeFile(text, 'utf8');
        if (mode !== undefined) await handle.chmod(mode);
      } finally {
        await handle.close();
      }
      signal?.throwIfAborted();
      await this.fsp.rename(temp, directory.prefix + name);
    } catch (error) {
      await this.fsp.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  /** The temporary folder's handle (made on first use, with its `.gitignore`), or `undefined` when it cannot be used. */
  private openFolder(tree: ConfinedTree): DirectoryHandle | undefined {
    let folder: DirectoryHandle;
    try {
      const at = tree.locate(temporaryFolder, temporaryFolder, { create: true, directory: true });
      if ('missing' in at) return undefined;
      folder = tree.keepDirectory(at);
    } catch {
      return undefined;
    }
    if (!this.swept) {
      this.swept = true;
      ignoreForGit(folder);
      this.removeStale(folder);
    }
    return folder;
  }

  private removeStale(folder: DirectoryHandle): void {
    const now = Date.now();
    for (const name of fs.readdirSync(folder.prefix)) {
      if (!temporaryFileName.test(name)) continue;
      try {
        const stats = fs.lstatSync(folder.prefix + name);
        if (stats.isFile() && now - stats.mtimeMs > staleTemporaryFileMs) fs.unlinkSync(folder.prefix + name);
      } catch {
        // Gone already, or not ours to remove: nothing lost either way.
      }
    }
  }
}

function ignoreForGit(folder: DirectoryHandle): void {
  try {
    fs.writeFileSync(folder.prefix + '.gitignore', temporaryFolderIgnore, { flag: 'wx' });
  } catch {
    // Already there (EEXIST), or not writable: writes still work, git merely shows the folder.
  }
}
