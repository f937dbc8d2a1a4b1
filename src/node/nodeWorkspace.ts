import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStat, WorkspaceFs } from '../core/ports';
import type { ManyTextReader } from '../core/workspace/readTextMany';
import { compileGlob } from '../core/workspace/globMatcher';
import { IgnoreRules, alwaysSkipped } from '../core/workspace/ignoreRules';
import { normalizeWorkspacePath, PathRefusedError, resolveInRoot } from '../core/workspace/resolveInRoot';
import type { ResolvedPath } from '../core/workspace/resolveInRoot';
import { WorkspaceError } from '../core/workspace/workspaceError';
import { createBreather, createNodePathProbe, isMissing } from './nodePathProbe';

/**
 * The `fs.promises` functions the Node workspace uses to list and change files; tests swap
 * some to inject faults. Reads, stats and link checks use the synchronous calls, which are
 * many times faster for small files, with the event loop given a turn every few calls.
 */
export type NodeFileSystem = Pick<
  typeof fs.promises,
  'readFile' | 'writeFile' | 'rename' | 'unlink' | 'rm' | 'mkdir' | 'readdir' | 'stat' | 'realpath' | 'rmdir' | 'chmod'
>;

/** Options of `createNodeWorkspace`. */
export interface NodeWorkspaceOptions {
  /** Replaces `fs.promises`, for fault injection in tests. */
  fileSystem?: NodeFileSystem;
}

/** Prefix of the temporary files atomic writes create next to their target; never listed. */
export const tempFilePrefix = '.task-planner-tmp-';

/**
 * A `WorkspaceFs` over a folder on disk. Every path goes through `resolveInRoot` with
 * symbolic links followed; writes are atomic (a temporary file in the same directory, then
 * a rename, keeping the previous file's mode) and leave no temporary file behind on failure.
 * `list` honours `.gitignore` files at every level, skips `.git` and `node_modules`, and
 * does not descend into linked directories. `readTextMany` gives each path what `readText`
 * would, opening files through directory handles the kernel confirmed inside the root.
 */
export function createNodeWorkspace(root: string, options: NodeWorkspaceOptions = {}): WorkspaceFs & ManyTextReader {
  const fsp = options.fileSystem ?? fs.promises;
  const absoluteRoot = path.resolve(root);
  const probe = createNodePathProbe();
  const breathe = createBreather();
  let realRoot: Promise<string> | undefined;
  const realRootFor = (input: string): Promise<string> =>
    (realRoot ??= fsp.realpath(absoluteRoot).catch(() => {
      realRoot = undefined;
      throw new PathRefusedError(input, `the workspace root ${absoluteRoot} does not exist`);
    }));
  const resolve = async (input: string): Promise<ResolvedPath> => resolveInRoot(input, { root: absoluteRoot, realRoot: await realRootFor(input), probe });
  const statOf = async (real: string): Promise<fs.Stats | undefined> => {
    try {
      return await fsp.stat(real);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };

  const readOne = async (input: string, maxBytes: number | undefined): Promise<string> => {
    const rootReal = await realRootFor(input);
    if (kernelKnowsOpenFiles) {
      // Open first, then ask the kernel where the open file really is: nothing can swap
      // a link between the check and the read. Anything unusual takes the full path below.
      const relative = normalizeWorkspacePath(input, absoluteRoot);
      const fd = openForReading(relative === '' ? absoluteRoot : path.join(absoluteRoot, relative));
      if (fd !== undefined) {
        try {
          if (isInside(fs.readlinkSync(`/proc/self/fd/${fd}`), rootReal)) return readOpenFile(fd, relative, input, maxBytes);
        } finally {
          fs.closeSync(fd);
        }
      }
    }
    const target = await resolve(input);
    const fd = openForReading(target.real);
    if (fd === undefined) throw new WorkspaceError('not_found', input, `File not found: ${target.relative || '.'}`);
    try {
      return readOpenFile(fd, target.relative, input, maxBytes);
    } finally {
      fs.closeSync(fd);
    }
  };

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
      const rootReal = await realRootFor('');
      const scratch: Scratch = { buffer: Buffer.allocUnsafe(0) };
      const directories = new DirectoryHandles(absoluteRoot, rootReal);
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
            text = kernelKnowsOpenFiles ? readInDirectory(directories, input, maxBytes, scratch) : undefined;
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
      const target = await resolve(input);
      if (target.relative === '') throw new WorkspaceError('is_directory', input, 'The workspace root is a directory, not a file');
      const existing = await statOf(target.real);
      if (existing?.isDirectory()) throw new WorkspaceError('is_directory', input, `${target.relative} is a directory; choose a file path`);
      const directory = path.dirname(target.real);
      await ensureDirectory(fsp, directory, path.posix.dirname(target.relative));
      const temp = path.join(directory, `${tempFilePrefix}${path.basename(target.real)}.${randomBytes(6).toString('hex')}`);
      try {
        await fsp.writeFile(temp, text, { encoding: 'utf8', flag: 'wx', mode: existing ? existing.mode & 0o7777 : 0o666 });
        if (existing) await fsp.chmod(temp, existing.mode & 0o7777);
        signal?.throwIfAborted();
        await fsp.rename(temp, target.real);
      } catch (error) {
        await fsp.rm(temp, { force: true }).catch(() => undefined);
        throw error;
      }
    },

    async delete(input, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      if (target.relative === '') throw new PathRefusedError(input, 'the workspace root itself cannot be deleted');
      const stats = await statOf(target.real);
      if (!stats) throw new WorkspaceError('not_found', input, `Nothing to delete: ${target.relative} does not exist`);
      // The link itself, not its target, is what the path names.
      const victim = (await probe.isSymlink(target.absolute)) ? target.absolute : target.real;
      if (stats.isDirectory()) {
        try {
          await fsp.rmdir(victim);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (error as NodeJS.ErrnoException).code === 'EEXIST') {
            throw new WorkspaceError('not_empty', input, `${target.relative} is a directory that is not empty; delete its files first`);
          }
          throw error;
        }
      } else {
        await fsp.unlink(victim);
      }
    },

    async createDirectory(input, signal) {
      signal?.throwIfAborted();
      const target = await resolve(input);
      await ensureDirectory(fsp, target.real, target.relative);
    },

    async list(glob, signal) {
      const matches = glob === undefined ? () => true : compileGlob(glob);
      const realRootPath = (await resolve('')).real;
      const files: string[] = [];
      await walk({ fsp, root: realRootPath, matches, out: files, signal }, realRootPath, '', IgnoreRules.empty());
      return files.sort(compareCodeUnits);
    },

    async stat(input, signal): Promise<FileStat | undefined> {
      signal?.throwIfAborted();
      await breathe();
      const target = await resolve(input);
      let stats: fs.Stats;
      try {
        stats = fs.statSync(target.real);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      return { type: stats.isDirectory() ? 'directory' : 'file', size: stats.size, mtimeMs: stats.mtimeMs };
    },
  };
}

const kernelKnowsOpenFiles = process.platform === 'linux' && fs.existsSync('/proc/self/fd');
// Non-blocking, so opening a named pipe cannot hang; regular files read the same.
const readFlags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

function openForReading(absolutePath: string): number | undefined {
  try {
    return fs.openSync(absolutePath, readFlags);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function readOpenFile(fd: number, relative: string, input: string, maxBytes: number | undefined): string {
  const stats = fs.fstatSync(fd);
  if (stats.isDirectory()) throw new WorkspaceError('is_directory', input, `${relative || '.'} is a directory, not a file`);
  if (!stats.isFile()) throw new WorkspaceError('not_regular', input, `${relative} is not a regular file (a device, socket or pipe); only regular files can be read`);
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

function isInside(real: string, rootReal: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
}

// readTextMany gives the event loop a turn after this many files or this many characters.
const breathEveryFiles = 64;
const breathEveryBytes = 8 * 1024 * 1024;
// Directories readTextMany keeps open at once; sorted paths rarely return to an older one.
const maxOpenDirectories = 16;
// The file itself must not be a link: a link takes readText's full path instead.
const bulkReadFlags = readFlags | (fs.constants.O_NOFOLLOW ?? 0);
const directoryFlags = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** One buffer reused for every file of a `readTextMany` call. */
interface Scratch {
  buffer: Buffer;
}

/**
 * Open handles of the directories `readTextMany` reads from, each checked once with the
 * kernel (`/proc/self/fd`) to lie inside the real root. Files are then opened through the
 * handle (`/proc/self/fd/N/name`, as `openat` would), so a directory swapped for a link
 * after the check cannot redirect them: the handle keeps naming the directory that passed.
 */
class DirectoryHandles {
  private readonly open = new Map<string, { fd: number; prefix: string } | undefined>();

  constructor(
    readonly root: string,
    private readonly rootReal: string,
  ) {}

  /** The `/proc/self/fd/N/` prefix of `relative`'s checked handle; `undefined` for anything unusual. */
  prefixFor(relative: string): string | undefined {
    if (this.open.has(relative)) return this.open.get(relative)?.prefix;
    let handle: { fd: number; prefix: string } | undefined;
    let fd: number | undefined;
    try {
      fd = fs.openSync(relative === '' ? this.root : path.join(this.root, relative), directoryFlags);
      if (isInside(fs.readlinkSync(`/proc/self/fd/${fd}`), this.rootReal)) handle = { fd, prefix: `/proc/self/fd/${fd}/` };
    } catch {
      // Missing, not a directory, unreadable: each file's own readText says which.
    }
    if (handle === undefined && fd !== undefined) fs.closeSync(fd);
    this.open.set(relative, handle);
    if (this.open.size > maxOpenDirectories) {
      const [oldest, oldHandle] = this.open.entries().next().value as [string, { fd: number } | undefined];
      this.open.delete(oldest);
      if (oldHandle) fs.closeSync(oldHandle.fd);
    }
    return handle?.prefix;
  }

  closeAll(): void {
    for (const handle of this.open.values()) if (handle) fs.closeSync(handle.fd);
    this.open.clear();
  }
}

/**
 * `readText`'s common case for `readTextMany`: a regular file, not a link, in a directory
 * whose handle lies inside the root. Returns `undefined` for anything else, for the caller
 * to take `readText`'s full path; throws what `readText` would for a refused path or a file
 * over `maxBytes`.
 */
function readInDirectory(directories: DirectoryHandles, input: string, maxBytes: number | undefined, scratch: Scratch): string | undefined {
  const relative = normalizeWorkspacePath(input, directories.root);
  if (relative === '') return undefined;
  const slash = relative.lastIndexOf('/');
  const prefix = directories.prefixFor(slash < 0 ? '' : relative.slice(0, slash));
  if (prefix === undefined) return undefined;
  let fd: number;
  try {
    fd = fs.openSync(prefix + relative.slice(slash + 1), bulkReadFlags);
  } catch {
    return undefined;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return undefined;
    checkSize(stats.size, maxBytes, relative, input);
    if (scratch.buffer.length < stats.size) scratch.buffer = Buffer.allocUnsafe(Math.max(stats.size, 2 * scratch.buffer.length, 64 * 1024));
    return scratch.buffer.toString('utf8', 0, readInto(fd, scratch.buffer, stats.size));
  } finally {
    fs.closeSync(fd);
  }
}

interface WalkState {
  fsp: NodeFileSystem;
  root: string;
  matches: (path: string) => boolean;
  out: string[];
  signal: AbortSignal | undefined;
}

async function walk(state: WalkState, directory: string, relative: string, inherited: IgnoreRules): Promise<void> {
  const { fsp, matches, out } = state;
  state.signal?.throwIfAborted();
  const entries = await fsp.readdir(directory, { withFileTypes: true });
  let rules = inherited;
  if (entries.some((entry) => entry.name === '.gitignore' && entry.isFile())) {
    const text = await fsp.readFile(path.join(directory, '.gitignore'), 'utf8');
    rules = rules.withFile(relative, text);
  }
  const subdirectories: Promise<void>[] = [];
  for (const entry of entries) {
    if (alwaysSkipped.has(entry.name) || entry.name.startsWith(tempFilePrefix)) continue;
    const childRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!rules.ignores(childRelative, true)) {
        subdirectories.push(walk(state, path.join(directory, entry.name), childRelative, rules));
      }
    } else if (entry.isFile()) {
      if (matches(childRelative) && !rules.ignores(childRelative, false)) out.push(childRelative);
    } else if (entry.isSymbolicLink()) {
      // Listed only when it is a file link that stays inside the root; linked directories
      // are not followed, which also rules out cycles.
      if (!matches(childRelative) || rules.ignores(childRelative, false)) continue;
      try {
        const real = await fsp.realpath(path.join(directory, entry.name));
        const stats = await fsp.stat(real);
        const relation = path.relative(state.root, real);
        if (stats.isFile() && relation !== '' && !relation.startsWith('..') && !path.isAbsolute(relation)) out.push(childRelative);
      } catch {
        // A dangling link lists as nothing.
      }
    }
  }
  await Promise.all(subdirectories);
}

async function ensureDirectory(fsp: NodeFileSystem, real: string, relative: string): Promise<void> {
  try {
    await fsp.mkdir(real, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new WorkspaceError('not_directory', relative, `Cannot create directory ${relative || '.'}: a file is in the way`);
    }
    throw error;
  }
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
