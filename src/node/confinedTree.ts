import * as fs from 'node:fs';
import * as path from 'node:path';
import { isProtectedSegment, protectedPlaceReason } from '../core/workspace/protectedPlaces';
import { lexicallyInside, PathRefusedError } from '../core/workspace/resolveInRoot';
import { WorkspaceError } from '../core/workspace/workspaceError';

/** True where the kernel names open files under `/proc/self/fd` (Linux), so handles can be used as directories. */
export const kernelKnowsOpenFiles = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

// Symbolic links followed while resolving one path, as the kernel's own limit.
const maxLinks = 40;
const maxRetries = 16;
const directoryFlags = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * An open directory inside the root. `prefix` names entries in it: `/proc/self/fd/N/` on
 * Linux, so an entry is found in the directory the handle holds even if the path that led
 * there has since been swapped for a link; elsewhere the directory's path, checked
 * component by component a moment earlier, and no descriptor (`fd` undefined).
 */
export interface DirectoryHandle {
  fd: number | undefined;
  prefix: string;
}

/** Closes `handle`'s descriptor, if it has one. */
export function closeDirectory(handle: DirectoryHandle): void {
  if (handle.fd !== undefined) fs.closeSync(handle.fd);
}

/** The `stat` of the directory `handle` holds. */
export function statDirectory(handle: DirectoryHandle): fs.Stats {
  return handle.fd !== undefined ? fs.fstatSync(handle.fd) : fs.statSync(handle.prefix);
}

/**
 * Where a workspace path leads: the open directories from the root down to the one holding
 * the last entry, and that entry's name (`''` when the path is the root itself).
 * `resolved` is the workspace-relative location after links. Release it with `release`.
 */
export interface Location {
  stack: DirectoryHandle[];
  names: string[];
  name: string;
  /** The last entry came out of a link's target (so its absence means a dangling link). */
  fromLink: boolean;
  links: number;
  input: string;
  guard: boolean;
}

/** How `locate` walks. */
export interface WalkOptions {
  /** Creates missing directories on the way (and the last entry too, with `directory`). */
  create?: boolean;
  /** The last entry is a directory to open as well (for `createDirectory`). */
  directory?: boolean;
  /** Refuses a resolved location inside a protected place (`.git`) before changing anything. */
  guard?: boolean;
}

/** `locate`'s answer for a path whose directories do not all exist. */
export interface Missing {
  missing: true;
  /** Some part of the path was a link's target that does not exist. */
  dangling: boolean;
  /** Where the path would be, workspace-relative: its existing part resolved, plus the rest. */
  resolved: string;
}

/**
 * Resolves workspace paths with directory handles instead of paths: from a handle of the
 * root, each component is opened with `O_NOFOLLOW` relative to the handle of its parent and
 * confirmed inside the root by the kernel (`/proc/self/fd/N`). A symbolic link met on the
 * way is read (never opened) and its target walked the same way, from the root for an
 * absolute target and from the link's directory for a relative one; a target outside the
 * root, a climb above it or a loop refuses the path. Nothing is ever opened outside the
 * root, and an operation on the last directory cannot be redirected by a swap after the
 * check: callers act on `prefix + name`.
 */
export class ConfinedTree {
  /**
   * `handles`: work through `/proc/self/fd` handles (the default where the kernel has them);
   * `false` runs the same walk on paths, as on systems without them.
   */
  constructor(
    readonly root: string,
    private readonly rootReal: string,
    private readonly handles = kernelKnowsOpenFiles,
  ) {}

  /** Walks `relative` (normalised, `''` for the root) to its last entry; see `Location`. */
  locate(input: string, relative: string, options: WalkOptions = {}): Location | Missing {
    const location: Location = { stack: [this.openRoot(input)], names: [], name: '', fromLink: false, links: 0, input, guard: options.guard ?? false };
    const pending = relative === '' ? [] : relative.split('/').map((name) => ({ name, fromLink: false }));
    return this.settle(location, () => this.walk(location, pending, options));
  }

  /**
   * Continues `location` through the link its last entry turned out to be (the caller saw
   * `ELOOP` opening it with `O_NOFOLLOW`); `location` is released when the answer differs.
   */
  follow(location: Location, options: WalkOptions = {}): Location | Missing {
    return this.settle(location, () => {
      const target = this.readLink(location);
      // A link that vanished meanwhile: the walk looks at the name again (counted like a link, so it ends).
      const pending = target === undefined ? [{ name: location.name, fromLink: location.fromLink }] : this.splice(location, target, []);
      if (target === undefined) countLink(location);
      location.name = '';
      return this.walk(location, pending, options);
    });
  }

  /** `step`'s answer; `location` released when that is not `location` itself, or when `step` throws. */
  private settle(location: Location, step: () => Location | Missing): Location | Missing {
    try {
      const found = step();
      if (found !== location) this.release(location);
      return found;
    } catch (error) {
      this.release(location);
      throw error;
    }
  }

  /** The resolved workspace-relative path of `location`'s last entry. */
  resolvedPath(location: Location): string {
    return [...location.names, ...(location.name === '' ? [] : [location.name])].join('/');
  }

  /** The last directory's handle. */
  directory(location: Location): DirectoryHandle {
    return location.stack[location.stack.length - 1] as DirectoryHandle;
  }

  /** Closes every handle `location` holds. */
  release(location: Location): void {
    for (const handle of location.stack.splice(0)) closeDirectory(handle);
  }

  /** Takes the last directory's handle out of `location` (closing the rest): the caller closes it. */
  keepDirectory(location: Location): DirectoryHandle {
    const kept = location.stack.pop() as DirectoryHandle;
    this.release(location);
    return kept;
  }

  /**
   * Opens the directory `name` in `parent` (never through a link), confirmed inside the root;
   * `undefined` when it is no directory (any more), or a link.
   */
  openChild(parent: DirectoryHandle, name: string, input: string): DirectoryHandle | undefined {
    const opened = openDirectoryIn(parent, name, this.handles);
    return typeof opened === 'object' ? this.confirm(parent, opened.fd, name, input) : undefined;
  }

  /** A handle of the root itself, confirmed to be the root; the caller closes it. */
  openRoot(input: string): DirectoryHandle {
    if (!this.handles) {
      if (!fs.statSync(this.rootReal, { throwIfNoEntry: false })?.isDirectory()) throw new PathRefusedError(input, `the workspace root ${this.root} does not exist`);
      return { fd: undefined, prefix: this.rootReal + path.sep };
    }
    let fd: number;
    try {
      fd = fs.openSync(this.root, directoryFlags & ~(fs.constants.O_NOFOLLOW ?? 0));
    } catch {
      throw new PathRefusedError(input, `the workspace root ${this.root} does not exist`);
    }
    if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== this.rootReal) {
      fs.closeSync(fd);
      throw new PathRefusedError(input, `the workspace root ${this.root} was moved or replaced while in use`);
    }
    return { fd, prefix: `/proc/self/fd/${fd}/` };
  }

  private walk(location: Location, pending: { name: string; fromLink: boolean }[], options: WalkOptions): Location | Missing {
    // Each retry means the tree changed under the walk; someone changing it forever does not hold it.
    let retries = 0;
    for (;;) {
      if (retries > maxRetries) throw new Error(`${location.input} kept changing while it was being opened; try again`);
      const next = pending.shift();
      if (next === undefined) return location;
      const { name, fromLink } = next;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (location.stack.length === 1) throw new PathRefusedError(location.input, 'it leads outside the workspace through a symbolic link');
        closeDirectory(location.stack.pop() as DirectoryHandle);
        location.names.pop();
        continue;
      }
      if (location.guard && isProtectedSegment(name)) {
        const resolved = path.posix.normalize([...location.names, name, ...pending.map((part) => part.name)].join('/'));
        throw new PathRefusedError(location.input, protectedPlaceReason(resolved));
      }
      if (pending.length === 0 && !options.directory) {
        location.name = name;
        location.fromLink = fromLink;
        return location;
      }
      const parent = this.directory(location);
      const opened = openDirectoryIn(parent, name, this.handles);
      if (typeof opened === 'object') {
        location.stack.push(this.confirm(parent, opened.fd, name, location.input));
        location.names.push(name);
        continue;
      }
      if (opened === 'link') {
        location.name = name;
        const target = this.readLink(location);
        if (target === undefined) {
          // It vanished: look again.
          retries++;
          pending.unshift(next);
          continue;
        }
        pending.splice(0, pending.length, ...this.splice(location, target, pending));
        continue;
      }
      if (opened === 'missing' && options.create && !fromLink) {
        makeDirectoryIn(parent, name, location.input);
        retries++;
        pending.unshift(next);
        continue;
      }
      if (opened === 'not_directory' && options.create) {
        throw new WorkspaceError('not_directory', location.input, `Cannot create ${location.input}: ${[...location.names, name].join('/')} is a file in the way`);
      }
      const rest = [...location.names, name, ...pending.map((part) => part.name)].join('/');
      return { missing: true, dangling: fromLink, resolved: path.posix.normalize(rest) };
    }
  }

  /** `pending` after replacing the link at `location.name` with `target`'s components. */
  private splice(location: Location, target: string, pending: { name: string; fromLink: boolean }[]): { name: string; fromLink: boolean }[] {
    countLink(location);
    let relativeTarget = target;
    if (path.isAbsolute(target)) {
      const inside = lexicallyInside(this.rootReal, target) ?? lexicallyInside(this.root, target);
      if (inside === undefined) throw new PathRefusedError(location.input, 'it leads outside the workspace through a symbolic link');
      // An absolute target starts again from the root.
      for (const handle of location.stack.splice(1)) closeDirectory(handle);
      location.names = [];
      relativeTarget = inside;
    }
    const parts = relativeTarget.split(/[\\/]/).map((name) => ({ name, fromLink: true }));
    return [...parts, ...pending];
  }

  private readLink(location: Location): string | undefined {
    try {
      return fs.readlinkSync(this.directory(location).prefix + location.name);
    } catch (error) {
      if (isGone(error)) return undefined;
      throw error;
    }
  }

  private confirm(parent: DirectoryHandle, fd: number | undefined, name: string, input: string): DirectoryHandle {
    if (fd === undefined) return { fd, prefix: parent.prefix + name + path.sep };
    const handle = { fd, prefix: `/proc/self/fd/${fd}/` };
    if (lexicallyInside(this.rootReal, fs.readlinkSync(`/proc/self/fd/${fd}`)) === undefined) {
      fs.closeSync(fd);
      throw new PathRefusedError(input, 'a directory on its way was moved outside the workspace');
    }
    return handle;
  }
}

function countLink(location: Location): void {
  if (++location.links > maxLinks) throw new PathRefusedError(location.input, 'it goes through too many symbolic links (a loop?)');
}

/**
 * Opens `name` in `parent` as a directory without following a link (where descriptors
 * cannot serve as directories, only checks that it is one); what stood in the way otherwise.
 */
function openDirectoryIn(parent: DirectoryHandle, name: string, handles: boolean): { fd: number | undefined } | 'link' | 'missing' | 'not_directory' {
  if (!handles) {
    const stats = fs.lstatSync(parent.prefix + name, { throwIfNoEntry: false });
    if (stats === undefined) return 'missing';
    return stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? { fd: undefined } : 'not_directory';
  }
  try {
    return { fd: fs.openSync(parent.prefix + name, directoryFlags) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ELOOP') return 'link';
    if (code === 'ENOTDIR') return isLink(parent.prefix + name) ? 'link' : 'not_directory';
    throw error;
  }
}

function makeDirectoryIn(parent: DirectoryHandle, name: string, input: string): void {
  try {
    fs.mkdirSync(parent.prefix + name, 0o777);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Someone else made it (or a link) meanwhile: the walk looks at it again.
    if (code === 'EEXIST') return;
    if (code === 'ENOTDIR') throw new WorkspaceError('not_directory', input, `Cannot create ${input}: a file is in the way`);
    throw error;
  }
}

function isLink(entry: string): boolean {
  try {
    return fs.lstatSync(entry).isSymbolicLink();
  } catch {
    return false;
  }
}

/** True for errors that mean the entry is not there (any more). */
export function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
