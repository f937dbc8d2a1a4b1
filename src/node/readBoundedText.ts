import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises';

const chunkBytes = 64 * 1024;

// Absent on Windows: there a link is told apart by lstat before the open (`openPlainFile`).
const noFollow = constants.O_NOFOLLOW ?? 0;
const nonBlocking = constants.O_NONBLOCK ?? 0;

/**
 * The UTF-8 text of the file at `path` (links followed: a file the user named), or
 * `undefined` once more than `maxBytes` bytes were read (too large). The bytes actually read are
 * counted, never the size the file claims, so a device such as /dev/zero or a pipe that never
 * ends costs at most `maxBytes + 1` bytes; a pipe is read as it comes (process substitution,
 * `<(…)`, works). Rejects with the file system's error when it cannot be opened or read.
 */
export async function readBoundedText(path: string, maxBytes: number): Promise<string | undefined> {
  return (await readBoundedBytes(path, maxBytes))?.toString('utf8');
}

/** The bytes of the file at `path`, read as `readBoundedText` reads them: `undefined` once more than `maxBytes` were read. */
export async function readBoundedBytes(path: string, maxBytes: number): Promise<Buffer | undefined> {
  const file = await open(path, 'r');
  try {
    return await readOpenFile(file, maxBytes);
  } finally {
    await file.close();
  }
}

/**
 * A file Task Planner keeps for itself (a run journal, a checkpoint log, a lock entry) found to be something else than a
 * plain file of its own: a link, a file with other names (hard links), a pipe, a device, a socket or a folder. Nothing
 * was read from it or written to it. `file` is its path; `found` says what it is ("a link (to …)", "a pipe").
 */
export class NotPlainFileError extends Error {
  constructor(
    readonly file: string,
    readonly found: string,
  ) {
    super(
      `${file} is ${found}: Task Planner reads and writes its own files only as plain files, never through a link, a hard link, ` +
        'a pipe or a device (a repository could commit one to reach a file elsewhere). Nothing was read from it or written to it; ' +
        'remove it and try again.',
    );
    this.name = 'NotPlainFileError';
  }
}

/**
 * Opens `path` with the numeric open flags `flags` (`O_CREAT` may make it), never through a link and never waiting
 * (`O_NOFOLLOW | O_NONBLOCK` added: a named pipe cannot hang the open), and resolves only when the descriptor is of a
 * regular file with one name (`fstat` of what was opened, so what is read or written is what was checked); else the
 * descriptor is closed and it rejects with a `NotPlainFileError`. Where the system has no `O_NOFOLLOW` (Windows), a link
 * is refused by `lstat` just before the open. A missing file without `O_CREAT` rejects with the system's `ENOENT`.
 * `openFile`: the file system's (a test's disk that fills up).
 */
export async function openPlainFile(path: string, flags: number, openFile: typeof open = open): Promise<FileHandle> {
  if (noFollow === 0) await refuseLink(path);
  let handle: FileHandle;
  try {
    handle = await openFile(path, flags | noFollow | nonBlocking);
  } catch (error) {
    // ELOOP (EMLINK on FreeBSD) is O_NOFOLLOW's answer to a link; anything else is the system's own error.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') await refuseLink(path);
    throw error;
  }
  try {
    const found = describeUnlikePlain(await handle.stat());
    if (found !== undefined) throw new NotPlainFileError(path, found);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * The bytes of the plain file at `path` (opened as `openPlainFile` does: never a link, a hard link, a pipe or a device), or
 * `undefined` when it holds more than `maxBytes` bytes (its size is checked first, and no more than `maxBytes + 1` bytes
 * are ever read). Rejects with a `NotPlainFileError`, or the system's error (`ENOENT` when it is missing).
 */
export async function readPlainFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  const handle = await openPlainFile(path, constants.O_RDONLY);
  try {
    if ((await handle.stat()).size > maxBytes) return undefined;
    return await readOpenFile(handle, maxBytes);
  } finally {
    await handle.close();
  }
}

/**
 * What `stats` is when it is not a regular file with exactly one name ("a pipe", "a file with 2 names (hard links)"),
 * in words for a message; `undefined` for a plain file.
 */
export function describeUnlikePlain(stats: Stats): string | undefined {
  if (stats.isSymbolicLink()) return 'a link';
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  if (!stats.isFile()) return 'not a regular file';
  if (stats.nlink !== 1) return `a file with ${stats.nlink} names (hard links: the same file as one elsewhere)`;
  return undefined;
}

/** Rejects with a `NotPlainFileError` when `path` is a link; resolves when it is anything else or missing. */
async function refuseLink(path: string): Promise<void> {
  const found: Stats | undefined = await lstat(path).catch(() => undefined);
  if (found?.isSymbolicLink() !== true) return;
  const target = await readlink(path).catch(() => undefined);
  throw new NotPlainFileError(path, target === undefined ? 'a link' : `a link (to ${target})`);
}

/**
 * What the open `file` holds from its current position to its end, or `undefined` once more than `maxBytes` bytes were
 * read: the bytes read are counted, so no more than `maxBytes + 1` are ever held.
 */
export async function readOpenFile(file: FileHandle, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(chunkBytes, maxBytes + 1 - total));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
  }
}
