import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive } from './processAlive';

/** The locks this process holds, by file: taken once, released when the process exits. */
const held = new Set<string>();
let releaseOnExit = false;

/** A run another process is working on (its lock file names that process). */
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
 * Takes, for this process, the lock of run `runId` kept in `dir` (`<runId>.lock`, created exclusively, holding this
 * process's id, linked into place whole), so that two processes never run, resume or undo the same run at once (both would apply its changes
 * and write its journal). Taking a lock this process holds does nothing. A lock whose process is gone (killed) is
 * taken over: renamed aside first, so of two processes taking it over only one gets it. Rejects with a
 * `RunInUseError` when a living process holds it. Locks are released when the process exits.
 */
export async function lockRun(dir: string, runId: string): Promise<void> {
  const file = join(dir, `${runId}.lock`);
  if (held.has(file)) return;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // Made whole aside, then linked into place: the lock never exists without its holder's id in it.
      const whole = `${file}.${process.pid}.new`;
      await writeFile(whole, `${process.pid}\n`);
      try {
        await link(whole, file);
      } finally {
        unlinkQuietly(whole);
      }
      held.add(file);
      if (!releaseOnExit) {
        releaseOnExit = true;
        process.once('exit', releaseAll);
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await runHolder(dir, runId);
    if (holder !== undefined) throw new RunInUseError(runId, holder, file);
    // Gone: taken over by whoever renames it aside first.
    await rename(file, `${file}.${process.pid}.stale`).then(
      () => unlinkQuietly(`${file}.${process.pid}.stale`),
      () => undefined,
    );
  }
  throw new Error(`Could not take the lock of run ${runId} (${file}): other processes kept taking it. Try again.`);
}

/**
 * The id of the living process that holds run `runId`'s lock in `dir`, or `undefined` when none does (no lock, or its
 * process is gone: the run was killed mid-way). Reads only; takes nothing.
 */
export async function runHolder(dir: string, runId: string): Promise<number | undefined> {
  const holder = Number.parseInt(await readFile(join(dir, `${runId}.lock`), 'utf8').catch(() => ''), 10);
  return Number.isSafeInteger(holder) && holder > 0 && isProcessAlive(holder) ? holder : undefined;
}

function releaseAll(): void {
  for (const file of held) {
    // Only a lock that is still ours: one taken over after a long pause belongs to its new holder.
    const holder = (() => {
      try {
        return readFileSync(file, 'utf8').trim();
      } catch {
        return '';
      }
    })();
    if (holder === String(process.pid)) unlinkQuietly(file);
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
