import { randomUUID } from 'node:crypto';
import { chmod, lstat, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errorMessage } from '../shared/errorMessage';
import { UsageError } from './cliIo';
import { linkOutOf } from './linkOut';

/**
 * Writes `text` to the file the user named with `flag` (`--out FILE`, `--trace FILE`): written beside it and renamed over
 * it, so a file of several names (a hard link to one outside) keeps its other names' content, and a file replaced keeps
 * its permissions. Resolves to whether a file was there before.
 *
 * The path may lie in a folder a repository wrote (the current folder, or the `--workspace` given: each of `roots`), which
 * may have committed links: refused, with nothing written, when the file itself is a link (`tasks.md -> ~/.bashrc`) or
 * when a folder on its way below one of `roots` is a link out of it (`specs -> ~/other-project/specs`, `out -> ~`): the
 * file would land where the link leads, outside the folder the user named. (Outside attacks: `export --out` over a committed
 * `tasks.md -> ~/.bashrc`; `trace --trace trace.jsonl` over a committed link to `~/.bashrc`; `export --out
 * specs/tasks.md` through a committed `specs` linking to another project's folder.)
 */
export async function writeOutputFile(flag: string, out: string, text: string, roots: readonly string[] = []): Promise<{ replaced: boolean }> {
  await refuseLinkedFolders(flag, out, [process.cwd(), ...roots]);
  const found = await lstat(out).catch(() => undefined);
  if (found?.isSymbolicLink()) throw new UsageError(`${flag} ${out} is a link; name the file itself, not a link to it. Nothing was written.`);
  const temporary = join(dirname(out), `.${basename(out)}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
    // The file replaced keeps its permissions (a shared or executable file stays so).
    if (found?.isFile() === true) await chmod(temporary, found.mode & 0o7777);
    await rename(temporary, out);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new UsageError(`Cannot write ${out}: ${errorMessage(error)}`);
  }
  return { replaced: found?.isFile() === true };
}

/** Throws when a folder on the way to `out` below one of `roots` is a symbolic link leading out of it. */
async function refuseLinkedFolders(flag: string, out: string, roots: readonly string[]): Promise<void> {
  for (const root of new Set(roots.map((each) => resolve(each)))) {
    const found = await linkOutOf(root, dirname(out));
    if (found !== undefined) {
      throw new UsageError(
        `${flag} ${out}: the folder ${found.link} on its way is a link (to ${found.target}) out of ${root}, so the file would be written where it leads. ` +
          'Name a path without links. Nothing was written.',
      );
    }
  }
}
