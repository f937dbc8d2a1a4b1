import type * as fs from 'node:fs';
import type { PathProbe } from '../core/workspace/resolveInRoot';

/** A `PathProbe` over Node's file system: missing entries, link loops and non-directories read as absent. */
export function createNodePathProbe(fsp: Pick<typeof fs.promises, 'realpath' | 'lstat'>): PathProbe {
  return {
    async realpath(absolutePath) {
      try {
        return await fsp.realpath(absolutePath);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async isSymlink(absolutePath) {
      try {
        return (await fsp.lstat(absolutePath)).isSymbolicLink();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
}

/** True for the errors that mean "nothing usable is there". */
export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
