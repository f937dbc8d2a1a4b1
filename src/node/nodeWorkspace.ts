import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStat, WorkspaceFs } from '../core/ports';
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
 * does not descend into linked directories.
 */
export function createNodeWorkspace(root: string, options: NodeWorkspaceOptions = {}): WorkspaceFs {
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

  return {
    rootLabel: absoluteRoot,

    async readText(input, signal, options) {
      signal?.throwIfAborted();
      await breathe();
      const rootReal = await realRootFor(input);
      if (kernelKnowsOpenFiles) {
        // Open first, then ask the kernel where the open file really is: nothing can swap
        // a link between the check and the read. Anything unusual takes the full path below.
        const relative = normalizeWorkspacePath(input, absoluteRoot);
        const fd = openForReading(relative === '' ? absoluteRoot : path.join(absoluteRoot, relative));
        if (fd !== undefined) {
          try {
            const real = fs.readlinkSync(`/proc/self/fd/${fd}`);
            if (real === rootReal || real.startsWith(rootReal + path.sep)) return readOpenFile(fd, relative, input, options?.maxBytes);
          } finally {
            fs.closeSync(fd);
          }
        }
      }
      const target = await resolve(input);
      const fd = openForReading(target.real);
      if (fd === undefined) throw new WorkspaceError('not_found', input, `File not found: ${target.relative || '.'}`);
      try {
        return readOpenFile(fd, target.relative, input, options?.maxBytes);
      } finally {
        fs.closeSync(fd);
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
  if (maxBytes !== undefined && stats.size > maxBytes) {
    throw new WorkspaceError('too_large', input, `${relative} is ${stats.size} bytes, more than the ${maxBytes}-byte limit for this read`);
  }
  // One read of the size fstat gave, instead of readFileSync's second fstat and final empty read.
  const buffer = Buffer.allocUnsafe(stats.size);
  let filled = 0;
  while (filled < stats.size) {
    const count = fs.readSync(fd, buffer, filled, stats.size - filled, filled);
    if (count === 0) break;
    filled += count;
  }
  return buffer.toString('utf8', 0, filled);
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
