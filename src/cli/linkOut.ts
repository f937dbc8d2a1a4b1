import { lstat, readlink, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { leadsOutside } from '../shared/leadsOutside';

/** A symbolic link on the way to a path, as the path names it (relative to the folder it was judged below), and what it holds. */
export interface LinkOut {
  link: string;
  target: string;
}

/**
 * The first symbolic link among the parts of `path` below the folder `root` (`path` itself included) that leads out of
 * `root`, or `undefined` when there is none, or when `path` does not lie below `root` as written. A repository can commit
 * such a link (`app -> ..`, `specs -> ~/other-project/specs`), so a path the user names inside the repository's folder
 * would take them outside it; a link leading elsewhere inside `root` is no such way out. A part that does not exist ends
 * the walk (nothing below it can be a link).
 */
export async function linkOutOf(root: string, path: string): Promise<LinkOut | undefined> {
  const base = resolve(root);
  const below = relative(base, resolve(path));
  if (below === '' || isAbsolute(below) || leadsOutside(below)) return undefined;
  const realBase = await realpath(base).catch(() => base);
  let at = base;
  for (const part of below.split(sep)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (info === undefined) return undefined;
    if (!info.isSymbolicLink()) continue;
    // A dangling link leads where its target would be made: judged by the target as written, resolved beside the link.
    const target = await readlink(at).catch(() => '?');
    const real = await realpath(at).catch(() => resolve(at, '..', target));
    const inside = relative(realBase, real);
    if (inside === '' || isAbsolute(inside) || leadsOutside(inside)) return { link: relative(base, at), target };
  }
  return undefined;
}
