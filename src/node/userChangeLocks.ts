import { lstat, mkdir, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChangeLockFolder } from '../core/workspacePorts';
import { isProcessAlive } from './processAlive';
import { userCacheFolder } from './userCacheFolder';

/**
 * The folders a process of this user keeps its change locks in, the first that can be used: the user's
 * `~/.cache/task-planner/change-locks`, else (a home folder that takes no new folder: read-only, another user's, a file
 * named `.cache`) `<tmp>/task-planner-<user>/change-locks`. Every Task Planner process of the user (the command line,
 * each window's extension host) tries them in this order, so they take their locks in one folder. Both lie outside every
 * workspace, so no repository can put anything there.
 */
export function userChangeLockFolders(): string[] {
  return [join(userCacheFolder(), 'change-locks'), join(tmpdir(), `task-planner-${userName()}`, 'change-locks')];
}

/** Options of `createUserChangeLocks`. */
export interface UserChangeLocksOptions {
  /** Where locks may be kept, tried in order (`userChangeLockFolders`). */
  readonly folders: readonly string[];
  /**
   * Told once per process (and list of folders), in the user's words, when none of `folders` can be used: changes then
   * go on under compare-and-swap alone, so a change another process makes to the same file at the same moment may be lost.
   */
  readonly warn: (message: string) => void;
}

/** What a choice of folder came to: the folder, or why each could not be used. */
type Choice = { readonly folder: string } | { readonly reasons: readonly string[] };

/** The choice made for each list of folders in this process, and the lists already warned about. */
const chosen = new Map<string, Promise<Choice>>();
const warned = new Set<string>();

/**
 * A `ChangeLockFolder` in the first of `options.folders` that can be made and is the user's own (a folder, not a link,
 * that no other user may write in, nor in its parent), made readable by the user alone. A lock file names its holder
 * (`<pid>@<host>`), so a lock whose process ended is told from one whose process is only stopped (Ctrl-Z, a machine
 * asleep). When no folder can be used, `options.warn` says so once, every operation fails, and changes go on under
 * compare-and-swap alone (see `AtomicWrites.exclusive`); the folders are tried again at the next operation.
 */
export function createUserChangeLocks(options: UserChangeLocksOptions): ChangeLockFolder {
  const key = JSON.stringify(options.folders);
  const folder = async (): Promise<string> => {
    let choice = chosen.get(key);
    if (choice === undefined) {
      choice = chooseFolder(options.folders);
      chosen.set(key, choice);
    }
    const made = await choice;
    if ('folder' in made) return made.folder;
    chosen.delete(key);
    if (!warned.has(key)) {
      warned.add(key);
      options.warn(
        `Task Planner cannot keep its change locks in ${made.reasons.join(', nor in ')}. Until one of these folders can be made, ` +
          'a file changed here at the same moment as by another Task Planner process (a run of the command line or of another window) ' +
          'may lose one of the two changes.',
      );
    }
    throw Object.assign(new Error(`No folder for change locks can be used: ${made.reasons.join('; ')}`), { code: 'ENOLOCKFOLDER' });
  };
  const create = async (name: string): Promise<void> => writeFile(join(await folder(), name), holderText(), { flag: 'wx', mode: 0o600 });
  return {
    async create(name) {
      try {
        await create(name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // The folder went since it was chosen (a cache cleaned up): chosen and made again.
        chosen.delete(key);
        await create(name);
      }
    },
    async holder(name) {
      const text = await readFile(join(await folder(), name), 'utf8').catch(() => '');
      const [, pid, host] = /^(\d+)@(.+)$/.exec(text) ?? [];
      // Another machine's process (a home folder shared over the network) cannot be looked at from here.
      if (pid === undefined || host !== hostname()) return 'unknown';
      if (Number(pid) === process.pid) return 'mine';
      return isProcessAlive(Number(pid)) ? 'running' : 'ended';
    },
    async stat(name) {
      try {
        const found = await lstat(join(await folder(), name));
        return { type: found.isFile() ? 'file' : found.isDirectory() ? 'directory' : found.isSymbolicLink() ? 'link' : 'other', mtimeMs: found.mtimeMs };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async names() {
      return readdir(await folder());
    },
    async remove(name) {
      await unlink(join(await folder(), name)).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
    },
  };
}

/** The first of `folders` made (for the user alone) and found to be the user's own, or why none is. */
async function chooseFolder(folders: readonly string[]): Promise<Choice> {
  const reasons: string[] = [];
  for (const folder of folders) {
    try {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const refusal = (await notOwn(folder)) ?? (await notOwn(dirname(folder)));
      if (refusal === undefined) return { folder };
      reasons.push(`${folder} (${refusal})`);
    } catch (error) {
      reasons.push(`${folder} (${failureWords(error)})`);
    }
  }
  return { reasons };
}

/** Why `folder` is not the user's own to keep locks in (a link, another user's, others may write in it), or `undefined`. */
async function notOwn(folder: string): Promise<string | undefined> {
  const found = await lstat(folder);
  if (found.isSymbolicLink()) return `${folder} is a link`;
  if (!found.isDirectory()) return `${folder} is not a folder`;
  // Windows has no user ids, and its modes say nothing of other users.
  if (process.getuid === undefined) return undefined;
  if (found.uid !== process.getuid()) return `${folder} belongs to another user`;
  if ((found.mode & 0o022) !== 0) return `other users may write in ${folder}`;
  return undefined;
}

/** What stopped a folder from being made, in the user's words. */
function failureWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'a read-only file system';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file is in the way';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  return error instanceof Error ? error.message : String(error);
}

/** The user's name in a temporary folder's name: the user id where there is one, else the login name. */
function userName(): string {
  if (process.getuid !== undefined) return String(process.getuid());
  try {
    return userInfo().username.replace(/[^\w.-]/g, '_');
  } catch {
    return 'user';
  }
}

/** What a lock file holds: the id of the process holding it and its machine's name, `<pid>@<host>`. */
function holderText(): string {
  return `${process.pid}@${hostname()}`;
}
