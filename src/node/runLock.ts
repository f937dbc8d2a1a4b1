import { constants, lstatSync, rmdirSync, type Stats, unlinkSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive } from './processAlive';
import { NotPlainFileError, openPlainFile, readPlainFile } from './readBoundedText';
import { errorMessage } from '../shared/errorMessage';

/** Which folder a lock is: compared again before anything in it is removed, so a folder swapped for another is left alone. */
interface FolderIdentity {
  dev: number;
  ino: number;
}

/** The locks this process holds, by folder (with the folder it was when taken): taken once, released when the process exits. */
const held = new Map<string, FolderIdentity>();
let releaseOnExit = false;

/** The most bytes read of a lock file of the earlier form (it holds a process id). */
const maxOldLockBytes = 64;

/** Tries to take a lock another process tried to take at the same moment, each after a pause of its own. */
const attempts = 4;

/** A run another process is working on (its lock folder names that process). */
export class RunInUseError extends Error {
  constructor(
    readonly runId: string,
    readonly pid: number,
    readonly file: string,
  ) {
    super(
      `Run ${runId} is in use by another task-planner (process ${pid}): nothing was done. Wait for it to end, or stop it; ` +
        `if no such process runs, delete ${file}.`,
    );
    this.name = 'RunInUseError';
  }
}

/**
 * A run's lock found to be something Task Planner would not make: a link (to a folder anywhere: a repository could
 * commit one, and the lock removes entries named like process ids from its folder), not a folder, or a folder of another
 * user. Nothing was created or removed in it.
 */
export class UnsafeRunLockError extends Error {
  constructor(
    readonly runId: string,
    readonly file: string,
    readonly found: string,
  ) {
    super(
      `Could not take the lock of run ${runId} (${file}): it is ${found}, and a run's lock is a folder Task Planner makes for ` +
        'itself and removes entries from, never taken through a link or in something else in its place (a repository could ' +
        'commit one to have files elsewhere removed). Nothing was done; remove what is in its place and try again.',
    );
    this.name = 'UnsafeRunLockError';
  }
}

/**
 * Takes, for this process, the lock of run `runId` kept in `dir`, so that two processes never run, resume or undo the same
 * run at once (both would apply its changes and write its journal). The lock is the folder `<runId>.lock` holding one
 * entry per process that wants it, named by its id: a process makes its own entry, then reads the folder, and holds the
 * lock only when no entry of another living process is there; else it takes its entry back and tries again after a
 * pause, and at last rejects with a `RunInUseError`. Of two processes, the one that reads second sees the other's entry,
 * so two never hold it at once; a killed run's entry, whose process is gone, is removed by its name alone, never an
 * entry of a living process (taking over a stale lock file by renaming it could move a living one aside: two held
 * the run). Taking a lock this process holds does nothing; locks are released when the process exits.
 *
 * `dir` may hold what a repository committed: the lock folder is checked with `lstat` before anything is created or removed
 * in it (a real folder, not a link, of this user where users exist), and again, by its device and inode, before each
 * entry is removed; only regular files are removed, and this process's entry is made without following a link
 * (`openPlainFile`). Anything else rejects with an `UnsafeRunLockError` or a `NotPlainFileError` naming it.
 */
export async function lockRun(dir: string, runId: string): Promise<void> {
  const folder = join(dir, `${runId}.lock`);
  if (held.has(folder)) return;
  let identity: FolderIdentity;
  try {
    identity = await takeLock(folder, runId);
  } catch (error) {
    if (error instanceof RunInUseError || error instanceof UnsafeRunLockError || error instanceof NotPlainFileError) throw error;
    const why = errorMessage(error);
    throw new Error(`Could not take the lock of run ${runId} (${folder}): ${why}. Nothing was done; remove what is in its place and try again.`, {
      cause: error,
    });
  }
  held.set(folder, identity);
  if (!releaseOnExit) {
    releaseOnExit = true;
    process.once('exit', releaseAll);
  }
}

/** Takes the lock `folder` (see `lockRun`); resolves with the folder it took it in. */
async function takeLock(folder: string, runId: string): Promise<FolderIdentity> {
  await leaveOldLockFile(folder, runId);
  const own = join(folder, String(process.pid));
  for (let attempt = 1; ; attempt++) {
    await mkdir(folder, { recursive: true });
    try {
      const identity = await checkedFolder(folder, runId);
      // Its own entry is made, never written through what is in its place: it holds nothing.
      await (await openPlainFile(own, constants.O_WRONLY | constants.O_CREAT)).close();
      const holder = await livingHolder(folder, { removeGone: identity });
      if (holder === undefined) return identity;
      unlinkQuietly(own);
      if (attempt === attempts) throw new RunInUseError(runId, holder, folder);
    } catch (error) {
      // The folder went between the two (its last holder let go): made again on the next try.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt < attempts) continue;
      throw error;
    }
    // Two processes that came at the same moment both step back: each comes again after its own pause.
    await new Promise((settle) => setTimeout(settle, 5 + Math.floor(Math.random() * 40) * attempt));
  }
}

/**
 * `folder` as it is now, when it is a real folder (not a link) of this user (where the system has users); else rejects
 * with an `UnsafeRunLockError`, or `ENOENT` when it is gone.
 */
async function checkedFolder(folder: string, runId: string): Promise<FolderIdentity> {
  const found = await lstat(folder);
  const unsafe = await unsafeFolder(folder, found);
  if (unsafe !== undefined) throw new UnsafeRunLockError(runId, folder, unsafe);
  return { dev: found.dev, ino: found.ino };
}

/** What `found` (the `lstat` of `folder`) is, in words, when it is not a real folder of this user; `undefined` when it is. */
async function unsafeFolder(folder: string, found: Stats): Promise<string | undefined> {
  if (found.isSymbolicLink()) {
    const target = await readlink(folder).catch(() => undefined);
    return target === undefined ? 'a link' : `a link (to ${target})`;
  }
  if (!found.isDirectory()) return 'not a folder';
  const uid = process.getuid?.();
  if (uid !== undefined && found.uid !== uid) return `a folder of another user (uid ${found.uid})`;
  return undefined;
}

/** Whether `folder` is still the folder `identity` was taken of (not swapped for a link or another folder). */
function isSameFolder(found: Stats | undefined, identity: FolderIdentity): boolean {
  return found !== undefined && found.isDirectory() && !found.isSymbolicLink() && found.dev === identity.dev && found.ino === identity.ino;
}

/**
 * The id of a living process, other than this one, that holds or is taking run `runId`'s lock in `dir`, or `undefined`
 * when none does (no lock, or its process is gone: the run was killed mid-way). Reads only; takes nothing.
 */
export async function runHolder(dir: string, runId: string): Promise<number | undefined> {
  const folder = join(dir, `${runId}.lock`);
  // Never followed: a link (or a pipe, a device) in the lock's place is no lock, and is not read.
  const found = await lstat(folder).catch(() => undefined);
  if (found === undefined) return undefined;
  if (found.isFile()) return oldLockHolder(folder);
  if ((await unsafeFolder(folder, found)) !== undefined) return undefined;
  return livingHolder(folder, { removeGone: false });
}

/**
 * The first entry of `folder` naming a living process other than this one. With `removeGone` (the folder's identity, as
 * `checkedFolder` found it), entries of processes gone are removed: only regular files, and only while `folder` is still
 * that folder.
 */
async function livingHolder(folder: string, options: { removeGone: FolderIdentity | false }): Promise<number | undefined> {
  for (const name of await readdir(folder).catch(() => [])) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 0 || String(pid) !== name) continue;
    if (pid === process.pid) continue;
    if (isProcessAlive(pid)) return pid;
    // Its process is gone (killed mid-run): only that name is removed, never the folder.
    if (options.removeGone !== false) await removeGoneEntry(folder, name, options.removeGone);
  }
  return undefined;
}

/** Removes the entry `name` of the lock `folder` when it is a regular file and `folder` is still the folder `identity`. */
async function removeGoneEntry(folder: string, name: string, identity: FolderIdentity): Promise<void> {
  const entry = join(folder, name);
  const [now, found] = await Promise.all([lstat(folder).catch(() => undefined), lstat(entry).catch(() => undefined)]);
  if (!isSameFolder(now, identity) || found?.isFile() !== true) return;
  await unlink(entry).catch(() => undefined);
}

/**
 * A lock of the earlier form, a file holding its process's id, at `folder`: a living holder refuses, a stale one goes.
 * A link in its place rejects with an `UnsafeRunLockError` (nothing followed, nothing removed).
 */
async function leaveOldLockFile(folder: string, runId: string): Promise<void> {
  const found = await lstat(folder).catch(() => undefined);
  if (found?.isSymbolicLink() === true) throw new UnsafeRunLockError(runId, folder, (await unsafeFolder(folder, found)) ?? 'a link');
  if (found?.isFile() !== true) return;
  const holder = await oldLockHolder(folder);
  if (holder !== undefined) throw new RunInUseError(runId, holder, folder);
  await unlink(folder).catch(() => undefined);
}

/** The living process other than this one a lock file of the earlier form names; read only when it is a plain file. */
async function oldLockHolder(file: string): Promise<number | undefined> {
  const text = await readPlainFile(file, maxOldLockBytes).then((bytes) => bytes?.toString('utf8') ?? '', () => '');
  const holder = Number.parseInt(text, 10);
  return Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder) ? holder : undefined;
}

function releaseAll(): void {
  for (const [folder, identity] of held) {
    // A folder swapped since it was taken (for a link elsewhere) is left alone: nothing is removed through it.
    if (!isSameFolder(lstatSync(folder, { throwIfNoEntry: false }), identity)) continue;
    unlinkQuietly(join(folder, String(process.pid)));
    // Empty once no other process waits on it; else it stays for them.
    try {
      rmdirSync(folder);
    } catch {
      // Another process's entry is in it, or it is gone.
    }
  }
  held.clear();
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
