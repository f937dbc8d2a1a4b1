import { lstat, mkdir, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import type { ChangeLockFolder } from '../core/workspacePorts';
import { isProcessAlive } from './processAlive';

/**
 * The user's folder of change locks, the same for every Task Planner process of the user (the command line, each
 * window's extension host): `~/.cache/task-planner/change-locks`. Outside every workspace, so no repository can put
 * anything there.
 */
export function userChangeLockFolder(): string {
  return join(homedir(), '.cache', 'task-planner', 'change-locks');
}

/**
 * A `ChangeLockFolder` in `folder` (by default the user's, `userChangeLockFolder`), made on first use readable by the
 * user alone. A lock file names its holder (`<pid>@<host>`), so a lock whose process ended is told from one whose process
 * is only stopped (Ctrl-Z, a machine asleep). When it cannot be made, no lock can be created and changes go on under compare-and-swap alone (see
 * `AtomicWrites.exclusive`).
 */
export function createUserChangeLocks(folder = userChangeLockFolder()): ChangeLockFolder {
  let made: Promise<unknown> | undefined;
  const ready = (): Promise<unknown> => {
    made ??= mkdir(folder, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
      // Tried again at the next lock: the folder may be makeable then.
      made = undefined;
      return error;
    });
    return made;
  };
  return {
    async create(name) {
      await ready();
      await writeFile(join(folder, name), holderText(), { flag: 'wx', mode: 0o600 });
    },
    async holder(name) {
      const text = await readFile(join(folder, name), 'utf8').catch(() => '');
      const [, pid, host] = /^(\d+)@(.+)$/.exec(text) ?? [];
      // Another machine's process (a home folder shared over the network) cannot be looked at from here.
      if (pid === undefined || host !== hostname()) return 'unknown';
      if (Number(pid) === process.pid) return 'mine';
      return isProcessAlive(Number(pid)) ? 'running' : 'ended';
    },
    async stat(name) {
      try {
        const found = await lstat(join(folder, name));
        return { type: found.isFile() ? 'file' : found.isDirectory() ? 'directory' : found.isSymbolicLink() ? 'link' : 'other', mtimeMs: found.mtimeMs };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async names() {
      return readdir(folder).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      });
    },
    async remove(name) {
      await unlink(join(folder, name)).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
    },
  };
}

/** What a lock file holds: the id of the process holding it and its machine's name, `<pid>@<host>`. */
function holderText(): string {
  return `${process.pid}@${hostname()}`;
}
