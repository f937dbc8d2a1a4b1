import { rmdirSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive } from './processAlive';
import { errorMessage } from '../shared/errorMessage';

/** The locks this process holds, by folder: taken once, released when the process exits. */
const held = new Set<string>();
let releaseOnExit = false;

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
 * Takes, for this process, the lock of run `runId` kept in `dir`, so that two processes never run, resume or undo the same
 * run at once (both would apply its changes and write its journal). The lock is the folder `<runId>.lock` holding one
 * entry per process that wants it, named by its id: a process makes its own entry, then reads the folder, and holds the
 * lock only when no entry of another living process is there; else it takes its entry back and tries again after a
 * pause, and at last rejects with a `RunInUseError`. Of two processes, the one that reads second sees the other's entry,
 * so two never hold it at once; a killed run's entry, whose process is gone, is removed by its name alone, never an
 * entry of a living process (taking over a stale lock file by renaming it could move a living one aside: two held
 * the run). Taking a lock this process holds does nothing; locks are released when the process exits.
 */
export async function lockRun(dir: string, runId: string): Promise<void> {
  const folder = join(dir, `${runId}.lock`);
  if (held.has(folder)) return;
  try {
    await takeLock(folder, runId);
  } catch (error) {
    if (error instanceof RunInUseError) throw error;
    const why = errorMessage(error);
    throw new Error(`Could not take the lock of run ${runId} (${folder}): ${why}. Nothing was done; remove what is in its place and try again.`, {
      cause: error,
    });
  }
  held.add(folder);
  if (!releaseOnExit) {
    releaseOnExit = true;
    process.once('exit', releaseAll);
  }
}

async function takeLock(folder: string, runId: string): Promise<void> {
  await leaveOldLockFile(folder, runId);
  const own = join(folder, String(process.pid));
  for (let attempt = 1; ; attempt++) {
    await mkdir(folder, { recursive: true });
    try {
      await writeFile(own, '');
    } catch (error) {
      // The folder went between the two (its last holder let go): made again on the next try.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt < attempts) continue;
      throw error;
    }
    const holder = await livingHolder(folder);
    if (holder === undefined) break;
    unlinkQuietly(own);
    if (attempt === attempts) throw new RunInUseError(runId, holder, folder);
    // Two processes that came at the same moment both step back: each comes again after its own pause.
    await new Promise((settle) => setTimeout(settle, 5 + Math.floor(Math.random() * 40) * attempt));
  }
}

/**
 * The id of a living process, other than this one, that holds or is taking run `runId`'s lock in `dir`, or `undefined`
 * when none does (no lock, or its process is gone: the run was killed mid-way). Reads only; takes nothing.
 */
export async function runHolder(dir: string, runId: string): Promise<number | undefined> {
  const folder = join(dir, `${runId}.lock`);
  const isFolder = await stat(folder).then((found) => found.isDirectory(), () => undefined);
  if (isFolder === undefined) return undefined;
  if (!isFolder) return oldLockHolder(folder);
  return livingHolder(folder, { removeGone: false });
}

/** The first entry of `folder` naming a living process other than this one; entries of processes gone are removed. */
async function livingHolder(folder: string, options: { removeGone: boolean } = { removeGone: true }): Promise<number | undefined> {
  for (const name of await readdir(folder).catch(() => [])) {
    const pid = Number(name);
    if (!Number.isSafeInteger(pid) || pid <= 0 || String(pid) !== name) continue;
    if (pid === process.pid) continue;
    if (isProcessAlive(pid)) return pid;
    // Its process is gone (killed mid-run): only that name is removed, never the folder.
    if (options.removeGone) await unlink(join(folder, name)).catch(() => undefined);
  }
  return undefined;
}

/** A lock of the earlier form, a file holding its process's id, at `folder`: a living holder refuses, a stale one goes. */
async function leaveOldLockFile(folder: string, runId: string): Promise<void> {
  const isFile = await stat(folder).then((found) => found.isFile(), () => false);
  if (!isFile) return;
  const holder = await oldLockHolder(folder);
  if (holder !== undefined) throw new RunInUseError(runId, holder, folder);
  await unlink(folder).catch(() => undefined);
}

async function oldLockHolder(file: string): Promise<number | undefined> {
  const holder = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
  return Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder) ? holder : undefined;
}

function releaseAll(): void {
  for (const folder of held) {
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
