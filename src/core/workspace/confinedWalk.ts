import * as path from 'node:path';
import type { RawDirectoryFs } from '../workspacePorts';
import { isProtectedSegment, protectedPlaceHint, protectedPlaceReason } from './protectedPlaces';
import { lexicallyInside, PathRefusedError } from './resolveInRoot';
import { WorkspaceError } from './workspaceError';

/** Symbolic links followed while resolving one path, as the Linux kernel's own limit. */
export const maxLinks = 40;
/** Times one walk starts a component again because the tree changed under it. */
export const maxRetries = 16;

/**
 * Where a workspace path leads: the open directories from the root down to the one holding
 * the last entry, and that entry's name (`''` when the path is the root itself). Release
 * it with `ConfinedWalk.release`.
 */
export interface Location<Handle> {
  stack: Handle[];
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
  /** The last entry is a directory to open as well. */
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

interface Pending {
  name: string;
  fromLink: boolean;
}

/**
 * Resolves workspace paths over a `RawDirectoryFs`, one component at a time: from a handle
 * of the root, each directory is opened relative to its parent's handle without following
 * a link, and (where the handle knows its real place) confirmed inside the root. A link met
 * on the way is read, never opened, and its target walked the same way: from the root for
 * an absolute target, from the link's directory for a relative one. A target outside the
 * root, a climb above it or a loop refuses the path. Nothing is ever opened outside the
 * root; callers act on the last handle and the entry's name, so where handles hold
 * directories a swap after the check cannot redirect the operation.
 */
export class ConfinedWalk<Handle> {
  constructor(
    /** The workspace root as given (absolute). */
    readonly root: string,
    /** The root with its links resolved. */
    readonly rootReal: string,
    private readonly raw: RawDirectoryFs<Handle>,
  ) {}

  /** Walks `relative` (normalised, `''` for the root) to its last entry; see `Location`. */
  async locate(input: string, relative: string, options: WalkOptions = {}): Promise<Location<Handle> | Missing> {
    // Stryker disable next-line BooleanLiteral: the walk sets fromLink with the last entry; the root has none.
    const location: Location<Handle> = {
      stack: [await this.openRoot(input)],
      names: [],
      name: '',
      fromLink: false,
      links: 0,
      input,
      guard: options.guard ?? false,
    };
    // The root's '' is one empty name, which the walk skips.
    const pending = relative.split('/').map((name) => ({ name, fromLink: false }));
    return this.settle(location, () => this.walk(location, pending, options));
  }

  /**
   * Continues `location` through the link its last entry turned out to be; `location` is
   * released when the answer differs.
   */
  follow(location: Location<Handle>, options: WalkOptions = {}): Promise<Location<Handle> | Missing> {
    return this.settle(location, async () => {
      const target = await this.readLink(location);
      // A link that vanished meanwhile: the walk looks at the name again (counted like a link, so it ends).
      const pending = target === undefined ? [{ name: location.name, fromLink: location.fromLink }] : this.splice(location, target, []);
      if (target === undefined) countLink(location);
      location.name = '';
      return this.walk(location, pending, options);
    });
  }

  /** The resolved workspace-relative path of `location`'s last entry. */
  resolvedPath(location: Location<Handle>): string {
    return [...location.names, ...(location.name === '' ? [] : [location.name])].join('/');
  }

  /** The last directory's handle. */
  directory(location: Location<Handle>): Handle {
    return location.stack[location.stack.length - 1] as Handle;
  }

  /** Closes every handle `location` holds. */
  release(location: Location<Handle>): void {
    for (const handle of location.stack.splice(0)) this.raw.close(handle);
  }

  /** Takes the last directory's handle out of `location` (closing the rest): the caller closes it. */
  keepDirectory(location: Location<Handle>): Handle {
    const kept = location.stack.pop() as Handle;
    this.release(location);
    return kept;
  }

  /** Opens the directory `name` in `parent` (never through a link), confirmed inside the root; `undefined` when it is no directory (any more), or a link. */
  async openChild(parent: Handle, name: string, input: string): Promise<Handle | undefined> {
    const opened = await this.raw.openDirectory(parent, name);
    return typeof opened === 'object' ? this.confirm(opened, input) : undefined;
  }

  /** A handle of the root itself, confirmed to be the root; the caller closes it. */
  async openRoot(input: string): Promise<Handle> {
    const opened = await this.raw.openRoot(this.rootReal);
    if (opened === 'missing') throw new PathRefusedError(input, `the workspace root ${this.root} does not exist`);
    if (opened.real !== undefined && opened.real !== this.rootReal) {
      this.raw.close(opened.handle);
      throw new PathRefusedError(input, `the workspace root ${this.root} was moved or replaced while in use`);
    }
    return opened.handle;
  }

  /** `step`'s answer; `location` released when that is not `location` itself, or when `step` throws. */
  private async settle(location: Location<Handle>, step: () => Promise<Location<Handle> | Missing>): Promise<Location<Handle> | Missing> {
    try {
      const found = await step();
      if (found !== location) this.release(location);
      return found;
    } catch (error) {
      this.release(location);
      throw error;
    }
  }

  private async walk(location: Location<Handle>, pending: Pending[], options: WalkOptions): Promise<Location<Handle> | Missing> {
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
        this.raw.close(location.stack.pop() as Handle);
        location.names.pop();
        continue;
      }
      if (location.guard && isProtectedSegment(name)) {
        const resolved = path.posix.normalize([...location.names, name, ...pending.map((part) => part.name)].join('/'));
        throw new PathRefusedError(location.input, protectedPlaceReason(resolved, location.input), protectedPlaceHint);
      }
      if (pending.length === 0 && !options.directory) {
        location.name = name;
        location.fromLink = fromLink;
        return location;
      }
      const parent = this.directory(location);
      const opened = await this.raw.openDirectory(parent, name);
      if (typeof opened === 'object') {
        location.stack.push(this.confirm(opened, location.input));
        location.names.push(name);
        continue;
      }
      if (opened === 'link') {
        location.name = name;
        const target = await this.readLink(location);
        if (target === undefined) {
          // It vanished: look again.
          retries++;
          pending.unshift(next);
          continue;
        }
        pending.splice(0, pending.length, ...this.splice(location, target, pending));
        // The link is walked through, not the last entry: a walk that ends on a directory has none (see `resolvedPath`).
        location.name = '';
        continue;
      }
      if (opened === 'missing' && options.create && !fromLink) {
        if ((await this.raw.makeDirectory(parent, name)) === 'not_directory') {
          throw new WorkspaceError('not_directory', location.input, `Cannot create ${location.input}: a file is in the way`);
        }
        // Made, or someone else made it (or a link) meanwhile: the walk looks at it again.
        retries++;
        pending.unshift(next);
        continue;
      }
      if (opened === 'not_directory' && options.create) {
        throw new WorkspaceError(
          'not_directory',
          location.input,
          `Cannot create ${location.input}: ${[...location.names, name].join('/')} is a file in the way`,
        );
      }
      const rest = [...location.names, name, ...pending.map((part) => part.name)].join('/');
      // Stryker disable next-line BooleanLiteral: callers tell a `Missing` by its `missing` key, whatever its value.
      return { missing: true, dangling: fromLink, resolved: path.posix.normalize(rest) };
    }
  }

  /** `pending` after replacing the link at `location.name` with `target`'s components. */
  private splice(location: Location<Handle>, target: string, pending: Pending[]): Pending[] {
    countLink(location);
    let relativeTarget = target;
    if (path.isAbsolute(target)) {
      const inside = lexicallyInside(this.rootReal, target) ?? lexicallyInside(this.root, target);
      if (inside === undefined) throw new PathRefusedError(location.input, 'it leads outside the workspace through a symbolic link');
      // An absolute target starts again from the root.
      for (const handle of location.stack.splice(1)) this.raw.close(handle);
      location.names = [];
      relativeTarget = inside;
    }
    const parts = relativeTarget.split(/[\\/]/).map((name) => ({ name, fromLink: true }));
    return [...parts, ...pending];
  }

  private readLink(location: Location<Handle>): Promise<string | undefined> {
    return this.raw.readLink(this.directory(location), location.name);
  }

  private confirm(opened: { handle: Handle; real: string | undefined }, input: string): Handle {
    if (opened.real !== undefined && lexicallyInside(this.rootReal, opened.real) === undefined) {
      this.raw.close(opened.handle);
      throw new PathRefusedError(input, 'a directory on its way was moved outside the workspace');
    }
    return opened.handle;
  }
}

function countLink(location: { links: number; input: string }): void {
  if (++location.links > maxLinks) throw new PathRefusedError(location.input, 'it goes through too many symbolic links (a loop?)');
}
