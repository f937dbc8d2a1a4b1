import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStat, WorkspaceFs } from '../core/ports';
import type { ManyTextReader } from '../core/workspace/readTextMany';
import { compileGlob } from '../core/workspace/globMatcher';
import { IgnoreRules, alwaysSkipped } from '../core/workspace/ignoreRules';
import { normalizeWorkspacePath, PathRefusedError } from '../core/workspace/resolveInRoot';
import { hardLinkError, WorkspaceError } from '../core/workspace/workspaceError';
import { closeDirectory, ConfinedTree, type DirectoryHandle, isGone, kernelKnowsOpenFiles, type Location, type Missing, statDirectory, type WalkOptions } from './confinedTree';
import { createBreather } from './nodePathProbe';
import { tempFilePrefix, TemporaryFiles } from './temporaryFiles';

/**
 * The `fs.promises` functions the Node workspace uses to find its root and write files;
 * tests swap some to inject faults. Everything else uses the synchronous calls, which are
 * many times faster for small files, with the event loop given a turn every few calls.
 */
export type NodeFileSystem = Pick<typeof fs.promises, 'open' | 'rename' | 'rm' | 'realpath'>;

/** Options of `createNodeWorkspace`. */
export interface NodeWorkspaceOptions {
  /** Replaces `fs.promises`, for fault injection in tests. */
  fileSystem?: NodeFileSystem;
  /**
   * Reads and changes regular files that have more than one hard link. Off by default: a
   * hard link can make a file outside the workspace appear inside it.
   */
  allowHardLinks?: boolean;
  /**
   * Works through `/proc/self/fd` directory handles (default: where the kernel has them).
   * `false` runs the same component-by-component walk on paths, as on systems without them,
   * where a swap during an operation can still redirect it.
   */
  directoryHandles?: boolean;
}

/**
 * A `WorkspaceFs` over a folder on disk. Every read, write, rename, delete and directory
 * creation goes through `ConfinedTree`: directory handles opened component by component
 * without following links, confirmed inside the root by the kernel, and the operation done
 * on the entry in the last handle, so a directory or file swapped for a link to the outside
 * while it works cannot redirect it (links that stay inside are followed, by reading them).
 * Files open non-blocking and must be regular files; files with several hard links are
 * refused unless `allowHardLinks`. Changes to a location inside `.git`, after links, are
 * refused. Writes are atomic: a temporary file in `.task-planner/tmp/` (which holds a
 * `.gitignore` of `*`, so git shows none of it), renamed over the target, keeping the
 * previous file's mode; temporary files an interrupted write left there are removed by the
 * first write of a later workspace. `list` honours `.gitignore` files at every level, skips
 * `.git` and `node_modules`, and does not descend into linked directories.
 */
export function createNodeWorkspace(root: string, options: NodeWorkspaceOptions = {}): WorkspaceFs & ManyTextReader {
  const fsp = options.fileSystem ?? fs.promises;
  const allowHardLinks = options.allowHardLinks ?? false;
  const absoluteRoot = path.resolve(root);
  const breathe = createBreather();
  let tree: Promise<ConfinedTree> | undefined;
  const treeFor = (input: string): Promise<ConfinedTree> =>
    (tree ??= fsp.realpath(absoluteRoot).then(
      (real) => new ConfinedTree(absoluteRoot, real, options.directoryHandles ?? kernelKnowsOpenFiles),
      () => {
        tree = undefined;
        throw new PathRefusedError(input, `the workspace root ${absoluteRoot} does not exist`);
      },
    ));
  const temporaries = new TemporaryFiles(fsp);

  const readOne = async (input: string, maxBytes: number | undefined): Promise<string> => {
    const relative = normalizeWorkspacePath(input, absoluteRoot);
    const confined = await treeFor(input);
    let at = confined.locate(input, relative);
    try {
      for (;;) {
        if ('missing' in at) throw missingError(at, input, relative);
        if (at.name === '') throw new WorkspaceError('is_directory', input, `${relative || '.'} is a directory, not a file`);
        const fd = openEntry(confined.directory(at).prefix + at.name);
        if (fd === 'link') {
          at = confined.follow(at);
          continue;
        }
        if (fd === 'missing') throw missingError({ missing: true, dangling: at.fromLink }, input, relative);
        try {
          return readOpenFile(fd, relative, input, maxBytes, allowHardLinks);
        } finally {
          fs.closeSync(fd);
        }
      }
    } finally {
      if (!('missing' in at)) confined.release(at);
    }
  };

  /** `relative`'s last entry with links followed (for `guard`, inside no protected place) and its `lstat`. */
  const resolveEntry = async (input: string, relative: string, walk: WalkOptions): Promise<Entry> => entryOf(await treeFor(input), input, relative, walk);

  return {
    rootLabel: absoluteRoot,

    async readText(input, signal, options) {
      signal?.throwIfAborted();
      await breathe();
      return readOne(input, options?.maxBytes);
    },

    async readTextMany(paths, visit, signal, options) {
      signal?.throwIfAborted();
      const maxBytes = options?.maxBytes;
      const directories = new DirectoryHandles(await treeFor(''));
      const scratch: Scratch = { buffer: Buffer.allocUnsafe(0) };
      let sinceBreath = 0;
      let bytesSinceBreath = 0;
      try {
        for (const input of paths) {
          signal?.throwIfAborted();
          // A turn for the event loop (cancellation, timers) every few files or megabytes.
          if (++sinceBreath >= breathEveryFiles || bytesSinceBreath >= breathEveryBytes) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            signal?.throwIfAborted();
            sinceBreath = 0;
            bytesSinceBreath = 0;
          }
          let text: string | undefined;
          let failure: unknown;
          try {
            text = readInDirectory(directories, input, maxBytes, scratch);
            // Anything the fast path does not settle (links, missing files, refusals, odd
            // file types, other errors) goes through readText's own path, with its errors.
            text ??= await readOne(input, maxBytes);
            bytesSinceBreath += text.length;
          } catch (error) {
            failure = error;
          }
          if (visit(input, text, failure) === false) return;
        }
      } finally {
        directories.closeAll();
      }
    },

    async writeText(input, text, signal) {
      signal?.throwIfAborted();
      const relative = normalizeWorkspacePath(input, absoluteRoot);
      if (relative === '') throw new WorkspaceError('is_directory', input, 'The workspace root is a directory, not a file');
      const entry = await resolveEntry(input, relative, { create: true, guard: true });
      try {
        const { confined, at, stats } = entry;
        if ('missing' in at || isDangling(entry)) throw missingError({ missing: true, dangling: isDangling(entry) }, input, relative);
        if (stats?.isDirectory()) throw new WorkspaceError('is_directory', input, `${relative} is a directory; choose a file path`);
        if (stats && !allowHardLinks) refuseHardLink(stats, relative, input);
        await temporaries.replace(confined, confined.directory(at), at.name, text, stats ? stats.mode & 0o7777 : undefined, signal);
      } finally {
        releaseEntry(entry);
      }
    },

    async delete(input, signal) {
      signal?.throwIfAborted();
      const relative = normalizeWorkspacePath(input, absoluteRoot);
      if (relative === '') throw new PathRefusedError(input, 'the workspace root itself cannot be deleted');
      // What the path leads to must exist inside the root; the entry itself is what goes.
      const target = await resolveEntry(input, relative, {});
      releaseEntry(target);
      if (isDangling(target)) throw missingError({ missing: true, dangling: true }, input, relative);
      if (target.stats === undefined) throw new WorkspaceError('not_found', input, `Nothing to delete: ${relative} does not exist`);
      const confined = target.confined;
      const at = confined.locate(input, relative, { guard: true });
      if ('missing' in at) throw new WorkspaceError('not_found', input, `Nothing to delete: ${relative} does not exist`);
      try {
        const entry = confined.directory(at).prefix + at.name;
        const stats = lstatOrUndefined(entry);
        if (stats === undefined) throw new WorkspaceError('not_found', input, `Nothing to delete: ${relative} does not exist`);
        if (stats.isDirectory()) {
          try {
            fs.rmdirSync(entry);
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === 'ENOTEMPTY' || code === 'EEXIST') throw new WorkspaceError('not_empty', input, `${relative} is a directory that is not empty; delete its files first`);
            throw error;
          }
        } else {
          if (!stats.isSymbolicLink() && !allowHardLinks) refuseHardLink(stats, relative, input);
          // A link goes itself, not its target: that is what the path names.
          fs.unlinkSync(entry);
        }
      } finally {
        confined.release(at);
      }
    },

    async createDirectory(input, signal) {
      signal?.throwIfAborted();
      const relative = normalizeWorkspacePath(input, absoluteRoot);
      const confined = await treeFor(input);
      const at = confined.locate(input, relative, { create: true, directory: true, guard: true });
      if ('missing' in at) throw missingError(at, input, relative);
      confined.release(at);
    },

    async list(glob, signal) {
      const matches = glob === undefined ? () => true : compileGlob(glob);
      const confined = await treeFor('');
      const files: string[] = [];
      await listDirectory({ confined, matches, out: files, signal, breathe }, confined.openRoot(''), '', IgnoreRules.empty());
      return files.sort(compareCodeUnits);
    },

    async stat(input, signal): Promise<FileStat | undefined> {
      signal?.throwIfAborted();
      await breathe();
      const relative = normalizeWorkspacePath(input, absoluteRoot);
      const entry = await resolveEntry(input, relative, {});
      releaseEntry(entry);
      const { stats } = entry;
      if (isDangling(entry)) throw missingError({ missing: true, dangling: true }, input, relative);
      if (stats === undefined) return undefined;
      return { type: stats.isDirectory() ? 'directory' : 'file', size: stats.size, mtimeMs: stats.mtimeMs };
    },

    async locate(input, signal) {
      signal?.throwIfAborted();
      const relative = normalizeWorkspacePath(input, absoluteRoot);
      const entry = await resolveEntry(input, relative, {});
      releaseEntry(entry);
      return 'missing' in entry.at ? entry.at.resolved : entry.confined.resolvedPath(entry.at);
    },
  };
}

/** The error for a path that leads nowhere: a dangling link is refused, anything else is not found. */
function missingError(missing: { missing: true; dangling: boolean }, input: string, relative: string): Error {
  if (missing.dangling) return new PathRefusedError(input, 'it goes through a symbolic link whose target does not exist');
  return new WorkspaceError('not_found', input, `File not found: ${relative || '.'}`);
}

function refuseHardLink(stats: fs.Stats, relative: string, input: string): void {
  if (stats.isFile() && stats.nlink > 1) throw hardLinkError(relative, input, stats.nlink);
}

function lstatOrUndefined(entry: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(entry);
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
}

// Non-blocking, so opening a named pipe cannot hang; never through a link (the tree reads links itself).
const readFlags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

/** Opens the entry for reading; `'link'` when it is a symbolic link. */
function openEntry(entry: string): number | 'link' | 'missing' {
  try {
    return fs.openSync(entry, readFlags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'link';
    if (isGone(error)) return 'missing';
    throw error;
  }
}

function readOpenFile(fd: number, relative: string, input: string, maxBytes: number | undefined, allowHardLinks: boolean): string {
  const stats = fs.fstatSync(fd);
  if (stats.isDirectory()) throw new WorkspaceError('is_directory', input, `${relative || '.'} is a directory, not a file`);
  if (!stats.isFile()) throw new WorkspaceError('not_regular', input, `${relative} is not a regular file (a device, socket or pipe); only regular files can be read`);
  if (!allowHardLinks) refuseHardLink(stats, relative, input);
  checkSize(stats.size, maxBytes, relative, input);
  // One read of the size fstat gave, instead of readFileSync's second fstat and final empty read.
  const buffer = Buffer.allocUnsafe(stats.size);
  return buffer.toString('utf8', 0, readInto(fd, buffer, stats.size));
}

function checkSize(size: number, maxBytes: number | undefined, relative: string, input: string): void {
  if (maxBytes !== undefined && size > maxBytes) {
    throw new WorkspaceError('too_large', input, `${relative} is ${size} bytes, more than the ${maxBytes}-byte limit for this read`);
  }
}

function readInto(fd: number, buffer: Buffer, size: number): number {
  let filled = 0;
  while (filled < size) {
    const count = fs.readSync(fd, buffer, filled, size - filled, filled);
    if (count === 0) break;
    filled += count;
  }
  return filled;
}

// readTextMany gives the event loop a turn after this many files or this many characters.
const breathEveryFiles = 64;
const breathEveryBytes = 8 * 1024 * 1024;
// Directories readTextMany keeps open at once; sorted paths rarely return to an older one.
const maxOpenDirectories = 16;

/** One buffer reused for every file of a `readTextMany` call. */
interface Scratch {
  buffer: Buffer;
}

/**
 * Open handles of the directories `readTextMany` reads from, each opened through the
 * `ConfinedTree` once; files are then opened through the handle (`prefix + name`), so a
 * directory swapped for a link after the check cannot redirect them.
 */
class DirectoryHandles {
  private readonly open = new Map<string, DirectoryHandle | undefined>();

  constructor(readonly tree: ConfinedTree) {}

  /** The handle of the directory `relative`; `undefined` for anything unusual. */
  handleFor(relative: string): DirectoryHandle | undefined {
    if (this.open.has(relative)) return this.open.get(relative);
    let handle: DirectoryHandle | undefined;
    try {
      const at = this.tree.locate(relative, relative, { directory: true });
      if (!('missing' in at)) handle = this.tree.keepDirectory(at);
    } catch {
      // Refused, unreadable: each file's own readText says which.
    }
    this.open.set(relative, handle);
    if (this.open.size > maxOpenDirectories) {
      const [oldest, oldHandle] = this.open.entries().next().value as [string, DirectoryHandle | undefined];
      this.open.delete(oldest);
      if (oldHandle) closeDirectory(oldHandle);
    }
    return handle;
  }

  closeAll(): void {
    for (const handle of this.open.values()) if (handle) closeDirectory(handle);
    this.open.clear();
  }
}

/**
 * `readText`'s common case for `readTextMany`: a regular file with one link, not a symbolic
 * link, in a directory whose handle lies inside the root. Returns `undefined` for anything
 * else, for the caller to take `readText`'s full path; throws what `readText` would for a
 * refused path or a file over `maxBytes`.
 */
function readInDirectory(directories: DirectoryHandles, input: string, maxBytes: number | undefined, scratch: Scratch): string | undefined {
  const relative = normalizeWorkspacePath(input, directories.tree.root);
  if (relative === '') return undefined;
  const slash = relative.lastIndexOf('/');
  const handle = directories.handleFor(slash < 0 ? '' : relative.slice(0, slash));
  if (handle === undefined) return undefined;
  let fd: number;
  try {
    fd = fs.openSync(handle.prefix + relative.slice(slash + 1), readFlags);
  } catch {
    return undefined;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile() || stats.nlink > 1) return undefined;
    checkSize(stats.size, maxBytes, relative, input);
    if (scratch.buffer.length < stats.size) scratch.buffer = Buffer.allocUnsafe(Math.max(stats.size, 2 * scratch.buffer.length, 64 * 1024));
    return scratch.buffer.toString('utf8', 0, readInto(fd, scratch.buffer, stats.size));
  } finally {
    fs.closeSync(fd);
  }
}

/** Where a path leads (see `ConfinedTree.locate`) and what is there (`undefined`: nothing). */
interface Entry {
  confined: ConfinedTree;
  at: Location | Missing;
  stats: fs.Stats | undefined;
}

function entryOf(confined: ConfinedTree, input: string, relative: string, walk: WalkOptions): Entry {
  let at = confined.locate(input, relative, walk);
  for (;;) {
    if ('missing' in at || at.name === '') return { confined, at, stats: 'missing' in at ? undefined : statDirectory(confined.directory(at)) };
    const stats = lstatOrUndefined(confined.directory(at).prefix + at.name);
    if (!stats?.isSymbolicLink()) return { confined, at, stats };
    at = confined.follow(at, { guard: walk.guard ?? false });
  }
}

/** Closes the handles `entry` holds (its location stays readable). */
function releaseEntry(entry: Entry): void {
  if (!('missing' in entry.at)) entry.confined.release(entry.at);
}

/** Nothing is there because a symbolic link on the way points at nothing. */
function isDangling(entry: Entry): boolean {
  return 'missing' in entry.at ? entry.at.dangling : entry.stats === undefined && entry.at.fromLink;
}

interface ListState {
  confined: ConfinedTree;
  matches: (path: string) => boolean;
  out: string[];
  signal: AbortSignal | undefined;
  breathe: () => Promise<void>;
}

/**
 * Lists the directory open as `handle` (closing it) and those below it, depth first, each
 * opened through its parent's handle without following links; linked directories are not
 * descended into, file links are listed when they lead to a file inside the root.
 */
async function listDirectory(state: ListState, handle: DirectoryHandle, relative: string, inherited: IgnoreRules): Promise<void> {
  try {
    state.signal?.throwIfAborted();
    await state.breathe();
    const entries = fs.readdirSync(handle.prefix, { withFileTypes: true });
    let rules = inherited;
    if (entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
      const text = readSmallFile(handle.prefix + '.gitignore');
      if (text !== undefined) rules = rules.withFile(relative, text);
    }
    for (const entry of entries) {
      if (alwaysSkipped.has(entry.name) || entry.name.startsWith(tempFilePrefix)) continue;
      const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rules.ignores(childRelative, true)) continue;
        const child = state.confined.openChild(handle, entry.name, childRelative);
        if (child) await listDirectory(state, child, childRelative, rules);
      } else if (entry.isFile()) {
        if (state.matches(childRelative) && !rules.ignores(childRelative, false)) state.out.push(childRelative);
      } else if (entry.isSymbolicLink()) {
        if (!state.matches(childRelative) || rules.ignores(childRelative, false)) continue;
        if (leadsToFileInside(state.confined, childRelative)) state.out.push(childRelative);
      }
    }
  } finally {
    closeDirectory(handle);
  }
}

function leadsToFileInside(confined: ConfinedTree, relative: string): boolean {
  try {
    const entry = entryOf(confined, relative, relative, {});
    releaseEntry(entry);
    return entry.stats?.isFile() === true;
  } catch {
    // Out of the root, dangling, a loop: not listed.
    return false;
  }
}

/** A regular file's text, read without following a link or blocking; `undefined` for anything else. */
function readSmallFile(entry: string): string | undefined {
  const fd = openEntry(entry);
  if (typeof fd !== 'number') return undefined;
  try {
    return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd, 'utf8') : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
