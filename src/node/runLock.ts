import { constants, lstatSync, readlinkSync, rmdirSync, type Stats, unlinkSync } from 'node:fs';
import { lstat, mkdir, readdir, readlink, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
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

/** The most bytes read of a lock entry: `<pid>@<host>` and a PID namespace. */
const maxEntryBytes = 512;

/** A run another process is working on (its lock folder names that process). */
export class RunInUseError extends Error {
  constructor(
    readonly runId: string,
    readonly pid: number,
    readonly file: string,
    /** Where that process runs when not beside this one: "on the machine "h"", "in another container or sandbox of this machine". */
    readonly where?: string,
  ) {
    super(
      `Run ${runId} is in use by another task-planner (process ${pid}${where === undefined ? '' : ` ${where}`}): nothing was done. ` +
        `Wait for it to end, or stop it${where === undefined ? '' : ' there'}; if no such process runs, delete ${file}.`,
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
 * An entry holds where its process runs (`<pid>@<host>` and its PID namespace): a workspace may be shared by two
 * machines (a network folder) or by a container and its machine, where a process id names another process or none.
 * An entry of another machine or namespace is a living holder, never removed (whether it runs cannot be seen from
 * here); an entry of the same id made elsewhere is not this process's own. An entry that says nothing (an earlier Task
 * Planner's, or one still being written) is judged by its id alone.
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
      // An entry of this id made elsewhere (another container's process 1) is another holder's: never taken for its own.
      const sameId = await makeOwnEntry(own);
      const holder = sameId ?? (await livingHolder(folder, { removeGone: identity }));
      if (holder === undefined) return identity;
      // Taken back only while it says this process: one of the same id made elsewhere meanwhile is that process's.
      if (sameId === undefined && (await entryPlace(own)) === undefined) unlinkQuietly(own);
      if (attempt === attempts) throw new RunInUseError(runId, holder.pid, folder, holder.where);
    } catch (error) {
      // The folder went between the two (its last holder let go): made again on the next try.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt < attempts) continue;
      throw error;
    }
    // Two processes that came at the same moment both step back: each comes again after its own pause.
    await new Promise((settle) => setTimeout(settle, 5 + Math.floor(Math.random() * 40) * attempt));
  }
}

/** A process that holds or takes a lock: its id, and where it runs when not beside this process. */
interface Holder {
  pid: number;
  where?: string;
}

/** Where this process runs, as its lock entries say it: `<pid>@<host>`, then its PID namespace (empty where none is known). */
function ownEntryText(): string {
  return `${process.pid}@${hostname()}\n${pidNamespace()}\n`;
}

/** This process's PID namespace (`pid:[4026531836]`), or `''` where the system does not say (not Linux). */
function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

/**
 * Makes this process's entry `own` (new, never written through what is in its place) saying where it runs. When an entry
 * of that name is there: one another machine or namespace made is that process's (resolves with it, untouched); one made
 * here is a gone process's of the same id (this process has it now), or an earlier Task Planner's, and is made this one's.
 */
async function makeOwnEntry(own: string): Promise<Holder | undefined> {
  const text = ownEntryText();
  try {
    const handle = await openPlainFile(own, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const found = await entryPlace(own);
  if (found !== undefined) return { pid: process.pid, where: found };
  const handle = await openPlainFile(own, constants.O_WRONLY);
  try {
    await handle.truncate(0);
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  return undefined;
}

/**
 * Where the process of the lock entry `file` runs, in words, when it says it runs on another machine or in another PID
 * namespace of this one; `undefined` when it runs beside this process, or the entry does not say (an earlier Task
 * Planner's, one still being written, one that cannot be read).
 */
async function entryPlace(file: string): Promise<string | undefined> {
  const text = await readPlainFile(file, maxEntryBytes).then((bytes) => bytes?.toString('utf8') ?? '', () => '');
  const [, host, namespace] = /^\d+@([^\n]+)\n([^\n]*)\n$/.exec(text) ?? [];
  if (host === undefined) return undefined;
  // Said only in the letters a host name has: the entry may be a repository's.
  if (host !== hostname()) return `on the machine "${host.slice(0, 100).replace(/[^\w.-]/g, '?')}"`;
  const here = pidNamespace();
  if (namespace !== undefined && namespace !== '' && here !== '' && namespace !== here) return 'in another container or sandbox of this machine';
  return undefined;
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
  return (await livingHolder(folder, { removeGone: false }))?.pid;
}

/**
 * The first entry of `folder` naming a living process other than this one: one of another machine or PID namespace
 * counts as living (it cannot be seen from here). With `removeGone` (the folder's identity, as `checkedFolder` found it),
 * entries of processes gone are removed: only regular files, and only while `folder` is still that folder.
 */
async function livingHolder(folder: string, options: { removeGone: FolderIdentity | false }): Promise<Holder | undefined> {
  for (const name of await readdir(folder).catch(() => [])) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 0 || String(pid) !== name) continue;
    const where = await entryPlace(join(folder, name));
    if (where !== undefined) return { pid, where };
    if (pid === process.pid) continue;
    if (isProcessAlive(pid)) return { pid };
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
