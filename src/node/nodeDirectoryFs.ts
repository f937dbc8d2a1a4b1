import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RawDirectoryFs, RawFile, RawStat } from '../core/workspacePorts';

/** True where the kernel names open files under `/proc/self/fd` (Linux), so handles can be used as directories. */
export const kernelKnowsOpenFiles = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

/**
 * The `fs.promises` functions the Node file system uses to find its root and write files;
 * tests swap some to inject faults. Everything else uses the synchronous calls, which are
 * many times faster for small files (the workspace policy gives the event loop a turn every
 * few calls through `breathe`).
 */
export type NodeFileSystem = Pick<typeof fs.promises, 'open' | 'rename' | 'rm' | 'realpath'>;

/**
 * An open directory. `prefix` names entries in it: `/proc/self/fd/N/` on Linux, so an entry
 * is found in the directory the descriptor holds even if the path that led there has since
 * been swapped for a link; elsewhere the directory's path and no descriptor (`fd` undefined).
 */
export interface DirectoryHandle {
  fd: number | undefined;
  prefix: string;
}

/** Options of `createNodeDirectoryFs`. */
export interface NodeDirectoryFsOptions {
  /** Replaces `fs.promises`, for fault injection in tests. */
  fileSystem?: NodeFileSystem;
  /** Works through `/proc/self/fd` directory handles (default: where the kernel has them); `false` works on paths. */
  directoryHandles?: boolean;
}

const noFollow = fs.constants.O_NOFOLLOW ?? 0;
const directoryFlags = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | noFollow | (fs.constants.O_NONBLOCK ?? 0);
/** Opens a file to read: non-blocking, so a named pipe cannot hang it, and never through a link (links are read and checked apart). */
export const fileReadFlags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | noFollow;
// Reads up to this size reuse one buffer; a larger one is not kept alive between reads.
const scratchLimit = 1024 * 1024;

/**
 * The `RawDirectoryFs` of a folder on disk (the root `root`, absolute). Directories open
 * with `O_NOFOLLOW` relative to their parent's handle and report where the kernel says they
 * are, files open non-blocking without following a link and are described by `fstat` of
 * the opened descriptor, so the workspace policy's checks apply to what is read.
 */
export function createNodeDirectoryFs(root: string, options: NodeDirectoryFsOptions = {}): RawDirectoryFs<DirectoryHandle> {
  const fsp = options.fileSystem ?? fs.promises;
  const handles = options.directoryHandles ?? kernelKnowsOpenFiles;
  let scratch = Buffer.allocUnsafe(0);
  const bufferFor = (size: number): Buffer => {
    if (size > scratchLimit) return Buffer.allocUnsafe(size);
    if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, 2 * scratch.length, 64 * 1024));
    return scratch;
  };
  const opened = (fd: number): { handle: DirectoryHandle; real: string } => ({
    handle: { fd, prefix: `/proc/self/fd/${fd}/` },
    real: fs.readlinkSync(`/proc/self/fd/${fd}`),
  });

  return {
    realRoot: () => fsp.realpath(root).then(
      (real) => real,
      () => undefined,
    ),

    async openRoot(realRoot) {
      if (!handles) {
        return fs.statSync(realRoot, { throwIfNoEntry: false })?.isDirectory()
          ? { handle: { fd: undefined, prefix: realRoot + path.sep }, real: undefined }
          : 'missing';
      }
      try {
        return opened(fs.openSync(root, directoryFlags & ~noFollow));
      } catch {
        return 'missing';
      }
    },

    async openDirectory(parent, name) {
      const entry = parent.prefix + name;
      if (!handles) {
        const stats = fs.lstatSync(entry, { throwIfNoEntry: false });
        if (stats === undefined) return 'missing';
        return stats.isSymbolicLink()
          ? 'link'
          : stats.isDirectory()
            ? { handle: { fd: undefined, prefix: entry + path.sep }, real: undefined }
            : 'not_directory';
      }
      try {
        return opened(fs.openSync(entry, directoryFlags));
      } catch (error) {
        const code = codeOf(error);
        if (code === 'ENOENT') return 'missing';
        if (code === 'ELOOP') return 'link';
        if (code === 'ENOTDIR') return isLink(entry) ? 'link' : 'not_directory';
        throw error;
      }
    },

    async makeDirectory(parent, name) {
      try {
        fs.mkdirSync(parent.prefix + name, 0o777);
        return 'made';
      } catch (error) {
        const code = codeOf(error);
        if (code === 'EEXIST') return 'exists';
        if (code === 'ENOTDIR') return 'not_directory';
        throw error;
      }
    },

    async readLink(parent, name) {
      return orWhenGone(() => fs.readlinkSync(parent.prefix + name), undefined);
    },

    async lstat(parent, name) {
      return orWhenGone(() => rawStat(fs.lstatSync(parent.prefix + name)), undefined);
    },

    async statDirectory(handle) {
      return rawStat(handle.fd !== undefined ? fs.fstatSync(handle.fd) : fs.statSync(handle.prefix));
    },

    async openFile(parent, name): Promise<RawFile | 'link' | 'missing'> {
      let fd: number;
      try {
        fd = fs.openSync(parent.prefix + name, fileReadFlags);
      } catch (error) {
        if (codeOf(error) === 'ELOOP') return 'link';
        if (isGone(error)) return 'missing';
        throw error;
      }
      let stat: RawStat;
      try {
        stat = rawStat(fs.fstatSync(fd));
      } catch (error) {
        fs.closeSync(fd);
        throw error;
      }
      return {
        stat,
        read: async () => {
          const buffer = bufferFor(stat.size);
          return buffer.toString('utf8', 0, readInto(fd, buffer, stat.size));
        },
        readBytes: async () => {
          const buffer = Buffer.allocUnsafe(stat.size);
          return new Uint8Array(buffer.buffer, buffer.byteOffset, readInto(fd, buffer, stat.size));
        },
        close: async () => fs.closeSync(fd),
      };
    },

    async readDirectory(handle) {
      return fs.readdirSync(handle.prefix, { withFileTypes: true }).map((entry) => ({
        name: entry.name,
        type: entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other',
      }));
    },

    async writeNewFile(parent, name, text, mode) {
      const handle = await fsp.open(parent.prefix + name, 'wx', mode ?? 0o666);
      try {
        await handle.writeFile(text, 'utf8');
        if (mode !== undefined) await handle.chmod(mode);
        // On disk before it is renamed over a file: else a power loss can keep the rename and not the bytes, leaving an
        // empty or cut file in place of the user's, neither version (an outside attack).
        await handle.sync();
      } finally {
        await handle.close();
      }
    },

    async rename(from, fromName, to, toName) {
      await fsp.rename(from.prefix + fromName, to.prefix + toName);
    },

    crossesDevices: renameCrossesDevices,

    async removeFile(parent, name) {
      await fsp.rm(parent.prefix + name);
    },

    async removeDirectory(parent, name) {
      try {
        fs.rmdirSync(parent.prefix + name);
        return 'removed';
      } catch (error) {
        const code = codeOf(error);
        if (code === 'ENOTEMPTY' || code === 'EEXIST') return 'not_empty';
        throw error;
      }
    },

    close(handle) {
      if (handle.fd !== undefined) fs.closeSync(handle.fd);
    },

    breathe: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
}

/** `stats` (of `lstat`, `stat` or `fstat`) as a `RawStat`. */
export function rawStat(stats: fs.Stats): RawStat {
  const type = stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';
  return { type, size: stats.size, mtimeMs: stats.mtimeMs, links: stats.nlink, mode: stats.mode & 0o7777 };
}

/** Reads up to `size` bytes of the open file `fd` into `buffer` from its start; the bytes read (fewer when it shrank). */
export function readInto(fd: number, buffer: Buffer, size: number): number {
  let filled = 0;
  while (filled < size) {
    const count = fs.readSync(fd, buffer, filled, size - filled, filled);
    if (count === 0) break;
    filled += count;
  }
  return filled;
}

/** Whether a failed rename of the operating system failed because its ends lie on different devices. */
export function renameCrossesDevices(error: unknown): boolean {
  return codeOf(error) === 'EXDEV';
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** True for errors that mean the entry is not there (any more). */
export function isGone(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function orWhenGone<T, U>(operation: () => T, gone: U): T | U {
  try {
    return operation();
  } catch (error) {
    if (isGone(error)) return gone;
    throw error;
  }
}

function isLink(entry: string): boolean {
  return fs.lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}
