import { lstat, mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ChangeLockFolder } from '../core/workspacePorts';

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
 * user alone. When it cannot be made, no lock can be created and changes go on under compare-and-swap alone (see
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
      await writeFile(join(folder, name), '', { flag: 'wx', mode: 0o600 });
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
