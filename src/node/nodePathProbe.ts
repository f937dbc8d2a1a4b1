import * as fs from 'node:fs';
import type { PathProbe } from '../core/workspace/resolveInRoot';

/**
 * A `PathProbe` over Node's file system: missing entries, link loops and non-directories
 * read as absent. Uses the synchronous calls (one `realpath(3)` each), which cost a few
 * microseconds where the thread-pool round trip of the asynchronous ones costs far more;
 * callers doing many in a row yield to the event loop themselves.
 */
export function createNodePathProbe(): PathProbe {
  return {
    async realpath(absolutePath) {
      try {
        return fs.realpathSync.native(absolutePath);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async isSymlink(absolutePath) {
      try {
        return fs.lstatSync(absolutePath).isSymbolicLink();
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
