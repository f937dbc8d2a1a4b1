import { timerClock } from '../node/timerClock';
import { constants as fsConstants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RawDirectoryFs, RawStat, WorkspaceFs } from '../core/workspacePorts';
import { createConfinedWorkspace } from '../core/workspace/confinedWorkspace';
import { fileReadFlags, isGone, rawStat, renameCrossesDevices } from '../node/nodeDirectoryFs';
import { createParallelTextSearcher } from '../node/parallelTextSearcher';
import { createRipgrepSearcher, findBundledRipgrep } from '../node/ripgrepSearcher';
import { createUserChangeLocks, userChangeLockFolders } from '../node/userChangeLocks';
import { showWarning } from './notifications';
import { type AskAboutUnsaved, guardUnsavedEditors } from './unsavedEditors';

/** Options of `createVscodeWorkspaceFs`. */
export interface VscodeWorkspaceFsOptions {
  /** Reads and changes regular files with more than one hard link (`taskPlanner.workspace.allowHardLinks`). */
  allowHardLinks?: boolean;
  /**
   * `search_text` reads only the files the ripgrep that VS Code ships finds a match in, or
   * without one, reader threads first for a large search (default `true`); `false` reads
   * every file on the extension host's thread.
   */
  narrowSearch?: boolean;
  /** What to ask when a step would change a file open with unsaved changes (a test seam; default: the editor's modal). */
  askAboutUnsaved?: AskAboutUnsaved;
}

/**
 * A `WorkspaceFs` for a local (`file:`) workspace folder, as the extension host sees it
 * (also in a remote host): the core's workspace policy (`createConfinedWorkspace`) over
 * `createVscodeDirectoryFs`, so changes go through VS Code's file service (open editors,
 * watchers). It refuses what the Node workspace refuses, with the same messages, and
 * asks before it writes over or deletes a file open with unsaved changes (`guardUnsavedEditors`).
 *
 * What it cannot guarantee: it works on paths, not handles (VS Code's file service takes
 * paths), so each operation acts on a path checked a moment earlier. A process that swaps a
 * directory of the workspace (or, for a change, a file) for a link to the outside between
 * that check and the operation can redirect it; a file is read through a descriptor opened
 * without following a link. The Node workspace (`createNodeWorkspace`, used by the command
 * line) closes that window with directory handles; here it stays open, and only a local
 * process able to change the workspace while a run works can use it.
 */
export function createVscodeWorkspaceFs(root: vscode.Uri, options: VscodeWorkspaceFsOptions = {}): WorkspaceFs {
  const ripgrep = bundledRipgrep();
  const textSearcher =
    options.narrowSearch === false ? undefined : ripgrep === undefined ? createParallelTextSearcher(root.fsPath) : createRipgrepSearcher(ripgrep, root.fsPath);
  const confined = createConfinedWorkspace(createVscodeDirectoryFs(root.fsPath), {
    root: root.fsPath,
    allowHardLinks: options.allowHardLinks ?? false,
    clock: timerClock,
    // The same folder as the command line's, so a run here and one there take one lock per file; said once when none can be made.
    changeLocks: createUserChangeLocks({ folders: userChangeLockFolders(), warn: (message) => void showWarning(message) }),
    ...(textSearcher === undefined ? {} : { textSearcher }),
  });
  return guardUnsavedEditors(confined, root.fsPath, options.askAboutUnsaved);
}


/**
 * Gives the new file `file` the permission bits `mode` (those of the file it replaces, or of the file Undo brings back), and
 * puts its bytes on disk before it is renamed over the user's file. The file service keeps neither: an edit of an
 * executable script in the editor left it without its execute bits (`./deploy.sh`: permission denied), and a power loss
 * after the rename could leave an empty file in place of both versions. Opened without following a link, so nothing
 * swapped in its place is changed.
 */
async function keepModeAndSync(file: string, mode: number | undefined): Promise<void> {
  const handle = await fsp.open(file, fsConstants.O_RDWR | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0));
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${path.basename(file)} is not the file just written`);
    // Where the file system keeps no modes (a network share, FAT) the file goes on without them, as it did before.
    if (mode !== undefined) await handle.chmod(mode).catch(() => undefined);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

let ripgrepPath: { path: string | undefined } | undefined;

/** The ripgrep VS Code ships (looked up once per extension host). */
function bundledRipgrep(): string | undefined {
  return (ripgrepPath ??= { path: findBundledRipgrep(vscode.env.appRoot) }).path;
}

/**
 * The `RawDirectoryFs` of a local folder for the editor: a handle is a directory's real
 * path, checked component by component by the walk; changes go through
 * `vscode.workspace.fs`, so open editors and watchers see them at once. Reads and listings
 * use Node's file system directly: the folder is local to the extension host, and VS
 * Code's file service stats every entry of a directory it lists (20,000 files: 654 ms
 * against 17 ms, measured in code-server 1.139); a file is described (`fstat`) and read
 * through the descriptor it is opened as. Other metadata (links, their targets, hard-link
 * counts of entries) comes from `lstat` and `readlink`. A new file's permission bits are set,
 * and its bytes synced, through Node (VS Code's file service has no modes and does not sync).
 */
export function createVscodeDirectoryFs(root: string): RawDirectoryFs<string> {
  const fs = vscode.workspace.fs;
  const uri = (directory: string, name?: string): vscode.Uri => vscode.Uri.file(name === undefined ? directory : path.join(directory, name));
  const lstat = async (entry: string): Promise<RawStat | undefined> => {
    try {
      return rawStat(await fsp.lstat(entry));
    } catch (error) {
      if (isGone(error)) return undefined;
      throw error;
    }
  };

  return {
    realRoot: () => fsp.realpath(root).then(
      (real) => real,
      () => undefined,
    ),

    async openRoot(realRoot) {
      return (await lstat(realRoot))?.type === 'directory' ? { handle: realRoot, real: undefined } : 'missing';
    },

    async openDirectory(parent, name) {
      const entry = path.join(parent, name);
      const stats = await lstat(entry);
      if (stats === undefined) return 'missing';
      if (stats.type === 'link') return 'link';
      return stats.type === 'directory' ? { handle: entry, real: undefined } : 'not_directory';
    },

    async makeDirectory(parent, name) {
      const existing = await lstat(path.join(parent, name));
      if (existing !== undefined) return 'exists';
      await fs.createDirectory(uri(parent, name));
      return 'made';
    },

    async readLink(parent, name) {
      try {
        return await fsp.readlink(path.join(parent, name));
      } catch (error) {
        if (isGone(error)) return undefined;
        throw error;
      }
    },

    lstat: (parent, name) => lstat(path.join(parent, name)),

    async statDirectory(handle) {
      return rawStat(await fsp.stat(handle));
    },

    async openFile(parent, name) {
      const file = path.join(parent, name);
      // Without O_NOFOLLOW (Windows) a link is told apart by its path alone.
      if ((fsConstants.O_NOFOLLOW ?? 0) === 0) {
        const found = await lstat(file);
        if (found === undefined) return 'missing';
        if (found.type === 'link') return 'link';
      }
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(file, fileReadFlags);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ELOOP') return 'link';
        if (isGone(error)) return 'missing';
        throw error;
      }
      let stat: RawStat;
      try {
        stat = rawStat(await handle.stat());
      } catch (error) {
        await handle.close();
        throw error;
      }
      const readAll = async (): Promise<Buffer> => {
        const buffer = Buffer.allocUnsafe(stat.size);
        let filled = 0;
        while (filled < stat.size) {
          const { bytesRead } = await handle.read(buffer, filled, stat.size - filled, filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return buffer.subarray(0, filled);
      };
      return {
        stat,
        read: async () => (await readAll()).toString('utf8'),
        readBytes: async () => {
          const bytes = await readAll();
          return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        },
        close: () => handle.close(),
      };
    },

    async readDirectory(handle) {
      return (await fsp.readdir(handle, { withFileTypes: true })).map((entry) => ({
        name: entry.name,
        type: entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other',
      }));
    },

    async writeNewFile(parent, name, text, mode) {
      if ((await lstat(path.join(parent, name))) !== undefined) throw new Error(`${name} already exists`);
      await fs.writeFile(uri(parent, name), new TextEncoder().encode(text));
      await keepModeAndSync(path.join(parent, name), mode);
    },

    // Not through the file service: its rename with overwrite deletes the target first, then moves, so a crash in
    // between loses the file, a reader meanwhile finds none, and an editor open on it may close. The rename of the
    // operating system replaces the target at once; the file service's watcher then tells open editors.
    async rename(from, fromName, to, toName) {
      await fsp.rename(path.join(from, fromName), path.join(to, toName));
    },

    // The rename is the operating system's (above), so its failures are told apart as in the Node workspace.
    crossesDevices: renameCrossesDevices,

    async removeFile(parent, name) {
      await fs.delete(uri(parent, name), { recursive: false, useTrash: false });
    },

    async removeDirectory(parent, name) {
      if ((await fsp.readdir(path.join(parent, name))).length > 0) return 'not_empty';
      await fs.delete(uri(parent, name), { recursive: false, useTrash: false });
      return 'removed';
    },

    close: () => undefined,

    breathe: async () => undefined,
  };
}


