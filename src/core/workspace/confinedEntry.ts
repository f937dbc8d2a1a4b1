import type { RawDirectoryFs, RawFile, RawStat } from '../workspacePorts';
import type { ConfinedWalk, Location, Missing, WalkOptions } from './confinedWalk';
import { PathRefusedError } from './resolveInRoot';
import { hardLinkError, WorkspaceError } from './workspaceError';

/** Where a path leads (see `ConfinedWalk.locate`), links followed, and what is there (`undefined`: nothing). */
export interface Entry<Handle> {
  at: Location<Handle> | Missing;
  stats: RawStat | undefined;
}

/** `relative`'s last entry with links followed (for `walk.guard`, inside no protected place) and its stat. Release it with `releaseEntry`. */
export async function entryOf<Handle>(
  walk: ConfinedWalk<Handle>,
  raw: RawDirectoryFs<Handle>,
  input: string,
  relative: string,
  options: WalkOptions,
): Promise<Entry<Handle>> {
  let at = await walk.locate(input, relative, options);
  for (;;) {
    if ('missing' in at) return { at, stats: undefined };
    if (at.name === '') return { at, stats: await statOrRelease(walk, at, () => raw.statDirectory(walk.directory(at as Location<Handle>))) };
    const location = at;
    const stats = await statOrRelease(walk, at, () => raw.lstat(walk.directory(location), location.name));
    if (stats?.type !== 'link') return { at, stats };
    at = await walk.follow(at);
  }
}

async function statOrRelease<Handle>(walk: ConfinedWalk<Handle>, at: Location<Handle>, stat: () => Promise<RawStat | undefined>): Promise<RawStat | undefined> {
  try {
    return await stat();
  } catch (error) {
    walk.release(at);
    throw error;
  }
}

/** Closes the handles `entry` holds (its location stays readable). */
export function releaseEntry<Handle>(walk: ConfinedWalk<Handle>, entry: Entry<Handle>): void {
  if (!('missing' in entry.at)) walk.release(entry.at);
}

/** Nothing is there because a symbolic link on the way points at nothing. */
export function isDangling(entry: Entry<unknown>): boolean {
  return 'missing' in entry.at ? entry.at.dangling : entry.stats === undefined && entry.at.fromLink;
}

/** The error for a path that leads nowhere: a dangling link is refused, anything else is not found. */
export function missingError(dangling: boolean, input: string, relative: string): Error {
  if (dangling) return new PathRefusedError(input, 'it goes through a symbolic link whose target does not exist');
  return new WorkspaceError('not_found', input, `File not found: ${relative}`);
}

/** Refuses a regular file with more than one hard link (another name of it may lie outside the workspace). */
export function refuseHardLink(stats: RawStat, relative: string, input: string): void {
  if (stats.type === 'file' && stats.links > 1) throw hardLinkError(relative, input, stats.links);
}

/** Refuses a file over `maxBytes` (when given) before it is read. */
export function checkSize(size: number, maxBytes: number | undefined, relative: string, input: string): void {
  // Stryker disable next-line ConditionalExpression: no size is over an undefined limit.
  if (maxBytes !== undefined && size > maxBytes) {
    throw new WorkspaceError('too_large', input, `${relative} is ${size} bytes, more than the ${maxBytes}-byte limit for this read`);
  }
}

/** The text of the opened `file` once it passed the read rules (a regular file, one link unless allowed, within `maxBytes`); closes it. */
export async function readOpened(file: RawFile, relative: string, input: string, maxBytes: number | undefined, allowHardLinks: boolean): Promise<string>;
/** The bytes of the opened `file` under the same rules; closes it. */
export async function readOpened(
  file: RawFile,
  relative: string,
  input: string,
  maxBytes: number | undefined,
  allowHardLinks: boolean,
  bytes: true,
): Promise<Uint8Array>;
export async function readOpened(
  file: RawFile,
  relative: string,
  input: string,
  maxBytes: number | undefined,
  allowHardLinks: boolean,
  bytes?: true,
): Promise<string | Uint8Array> {
  try {
    const { stat } = file;
    if (stat.type === 'directory') throw new WorkspaceError('is_directory', input, `${relative} is a directory, not a file`);
    if (stat.type !== 'file') {
      throw new WorkspaceError('not_regular', input, `${relative} is not a regular file (a device, socket or pipe); only regular files can be read`);
    }
    if (!allowHardLinks) refuseHardLink(stat, relative, input);
    checkSize(stat.size, maxBytes, relative, input);
    return bytes ? await file.readBytes() : await file.read();
  } finally {
    await file.close();
  }
}
