import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../servicePorts';
import type { ChangeLockFolder, RawDirectoryFs, RawStat } from '../workspacePorts';
import { changeKey } from './changeKey';
import type { ConfinedWalk } from './confinedWalk';

/** Workspace-relative folder of the temporary files of atomic writes; it holds a `.gitignore` of `*`, so git shows none of it. */
export const temporaryFolder = '.task-planner/tmp';

/** Prefix of the temporary files written next to their target when the temporary folder cannot be used (another file system); never listed. */
export const tempFilePrefix = '.task-planner-tmp-';

/** Names of the temporary files in `temporaryFolder`; nothing else there is removed. */
export const temporaryFileName = /^write-[0-9a-f]{16}$/;

/** A temporary file in `temporaryFolder` older than this, in milliseconds, was left by an interrupted write. */
export const staleTemporaryFileMs = 10 * 60 * 1000;

/**
 * Names of the change locks (in the `ChangeLockFolder`; earlier versions kept them in `temporaryFolder`, whose sweep still
 * removes them), and of the files that take a stale one over (see `AtomicWrites.exclusive`).
 */
export const changeLockName = /^lock-[0-9a-f]{32}(\.takeover)?$/;

/**
 * A change lock older than this, in milliseconds, was left by a process that ended while holding it: a lock is held only
 * while a file's version is checked and its new content renamed in (a hash of at most 64 MB and a rename).
 */
export const staleChangeLockMs = 10_000;

/** How long a change waits for another process's lock on its file, in milliseconds, before it gives up saying so. */
export const changeLockPatienceMs = 30_000;

/** How long a change waits for another process's lock on its file, in milliseconds, before it says so (see `ChangeOptions.waiting`). */
export const changeLockNoticeMs = 1_000;

/** How often a change waiting for a lock looks again, in milliseconds. */
const changeLockPollMs = 20;

/** The `.gitignore` of `temporaryFolder`: git shows nothing of it, itself included. */
export const temporaryFolderIgnore = "# Temporary files of Task Planner's atomic writes.\n*\n";

/** A new name for a temporary file: in `temporaryFolder`, or next to the target (with `tempFilePrefix`). */
export function newTemporaryName(inFolder: boolean): string {
  const random = randomBytes(8).toString('hex');
  return inFolder ? `write-${random}` : `${tempFilePrefix}${random}`;
}

/**
 * Atomic replacement of workspace files: the text goes to a new temporary file in
 * `temporaryFolder`, then is renamed over the target entry of a checked directory handle,
 * so the target is either the old or the new file and nothing lands outside the workspace.
 * When the rename cannot cross from the temporary folder to the target (another file
 * system), the temporary file goes next to the target instead. The first write removes the
 * temporary files of interrupted writes older than `staleTemporaryFileMs`.
 *
 * A change's last check and its rename hold the file's change lock, a file created exclusively in the user's
 * `ChangeLockFolder` and named by the file's real path (the root's real path and the path after links), so that two
 * processes (two CLI runs, the CLI and the editor, windows that opened a repository and a folder inside it) changing one
 * file cannot both pass the check of the version they computed from and lose each other's change.
 */
export class AtomicWrites<Handle> {
  private swept = false;
  private locksSwept = false;
  private realRoot: Promise<string | undefined> | undefined;

  /**
   * `clock`: the time, to tell stale temporary files and locks, and the waits of a change for another process's lock.
   * `locks`: where change locks are taken.
   */
  constructor(
    private readonly raw: RawDirectoryFs<Handle>,
    private readonly clock: Pick<Clock, 'now' | 'sleep'>,
    private readonly locks: ChangeLockFolder,
  ) {}

  /**
   * Runs `action` holding the change lock of `key` (a file's workspace-relative path after links). Waits for another
   * process's lock up to `changeLockPatienceMs`, taking over one its holder left (`abandoned`), then rejects saying so;
   * when no lock can be made at all (the folder takes no new file, something not a lock is in its place, the root has no
   * real path) `action` runs unlocked, as it must still run. `waiting` is told once when the wait for another process
   * passes `changeLockNoticeMs`.
   */
  async exclusive<T>(key: string, action: () => Promise<T>, waiting?: (message: string) => void): Promise<T> {
    this.realRoot ??= this.raw.realRoot().catch(() => undefined);
    const root = await this.realRoot;
    if (root === undefined) return action();
    if (!this.locksSwept) {
      this.locksSwept = true;
      await this.removeStaleLocks();
    }
    // The file's real path, folded (`changeKey`): `README.md` and `readme.md` may be one file, so they take one lock.
    const name = `lock-${createHash('sha256').update(changeKey(root, key)).digest('hex').slice(0, 32)}`;
    const held = await this.lock(name, key, waiting);
    try {
      return await action();
    } finally {
      // Only its own: one held so long (a process stopped, then woken) that another took it over is that one's now.
      if (held && (await this.locks.holder(name).catch(() => 'unknown' as const)) !== 'running') await this.locks.remove(name).catch(() => undefined);
    }
  }

  /** Takes the lock `name`: true once held, false when it cannot be made at all (a read-only folder, something else there). */
  private async lock(name: string, key: string, waiting: ((message: string) => void) | undefined): Promise<boolean> {
    const started = this.clock.now();
    let unexplained = 0;
    let told = false;
    for (;;) {
      let refusal: unknown;
      try {
        await this.locks.create(name);
        return true;
      } catch (error) {
        refusal = error;
      }
      const holder = await this.locks.stat(name).catch(() => undefined);
      // No lock (a folder or a link in its place): it cannot be taken, so the change goes on unlocked.
      if (holder !== undefined && holder.type !== 'file') return false;
      // Not created, none there, and not for being there (a folder that takes no new file): twice more, then unlocked. One
      // there a moment ago and released since is only another process's turn: tried again, within the patience below.
      if (holder === undefined && !alreadyThere(refusal) && ++unexplained > 2) return false;
      // Checked before a takeover too, so nothing (a takeover that keeps failing) waits without end.
      if (this.clock.now() - started > changeLockPatienceMs) {
        throw new Error(
          `${key} is being changed by another Task Planner process (a run of the command line or of another window) for more than ${changeLockPatienceMs / 1000} s; nothing was changed. Try again once it is done.`,
        );
      }
      if (holder === undefined) continue;
      if (await this.abandoned(name, holder)) {
        if (!(await this.takeOver(name, holder.mtimeMs))) return false;
        continue;
      }
      if (!told && this.clock.now() - started >= changeLockNoticeMs) {
        told = true;
        waiting?.(
          `Waiting for ${key}: another Task Planner process (a run of the command line or of another window) is changing it; ` +
            `this change gives up after ${changeLockPatienceMs / 1000} s.`,
        );
      }
      await this.clock.sleep(changeLockPollMs);
    }
  }

  /**
   * Whether the lock `name` was left by a process that ended holding it: its holder is known gone; or, where its holder
   * cannot be told (another machine's, a lock whose text a full disk cut), it is older than `staleChangeLockMs`, or dated
   * in the future (a clock set back). A holder still running (stopped with Ctrl-Z, its machine asleep) keeps it, up to
   * `staleTemporaryFileMs`: a process of the same id after a crash is not the holder.
   */
  private async abandoned(name: string, lock: Pick<RawStat, 'mtimeMs'>): Promise<boolean> {
    const holder = await this.locks.holder(name).catch(() => 'unknown' as const);
    if (holder === 'ended') return true;
    return this.olderThan(lock, holder === 'unknown' ? staleChangeLockMs : staleTemporaryFileMs);
  }

  /**
   * Removes the stale lock `name` (last changed at `mtimeMs`) while holding its takeover file, so that of several processes
   * finding it stale only one removes it, and none removes the lock another took anew meanwhile. A takeover file left by
   * a process that ended in that instant is itself removed once stale. False when no takeover can be had (something not a
   * file in the takeover file's place), so the change goes on unlocked.
   */
  private async takeOver(name: string, mtimeMs: number): Promise<boolean> {
    const takeover = `${name}.takeover`;
    try {
      await this.locks.create(takeover);
    } catch {
      const left = await this.locks.stat(takeover).catch(() => undefined);
      if (left !== undefined && left.type !== 'file') return false;
      if (left !== undefined && this.olderThan(left, staleChangeLockMs)) await this.locks.remove(takeover).catch(() => undefined);
      else await this.clock.sleep(changeLockPollMs);
      return true;
    }
    try {
      const now = await this.locks.stat(name).catch(() => undefined);
      if (now?.type === 'file' && now.mtimeMs === mtimeMs) await this.locks.remove(name).catch(() => undefined);
    } finally {
      await this.locks.remove(takeover).catch(() => undefined);
    }
    return true;
  }

  /**
   * Removes the locks (and takeover files) of any file left by processes that ended holding them, once older than
   * `staleTemporaryFileMs`: a lock is held for a moment, so none that old is anyone's.
   */
  private async removeStaleLocks(): Promise<void> {
    const now = this.clock.now();
    const names = await this.locks.names().catch(() => []);
    for (const name of names.filter((found) => changeLockName.test(found))) {
      const stat = await this.locks.stat(name).catch(() => undefined);
      if (stat?.type === 'file' && now - stat.mtimeMs > staleTemporaryFileMs) await this.locks.remove(name).catch(() => undefined);
    }
  }

  /** Whether a lock (or takeover) file last changed at `stat.mtimeMs` is more than `ms` milliseconds old, or dated that far ahead. */
  private olderThan(stat: Pick<RawStat, 'mtimeMs'>, ms: number): boolean {
    return Math.abs(this.clock.now() - stat.mtimeMs) > ms;
  }

  /**
   * Replaces the entry `target.name` of `target.directory` with `text` (UTF-8). `mode` is the previous
   * file's permission bits to keep; `undefined` for a new file. `beforeRename` runs once the
   * new content is on disk, right before it takes the target's place (the last moment to
   * refuse), holding with the rename the change lock of `target.key` (the file's path after links); `waiting` is told
   * when that lock is another process's for a while (see `exclusive`). Rejects when
   * `signal` aborts before the rename, or when a step fails, leaving the target as it was and no temporary file behind.
   */
  async replace(
    walk: ConfinedWalk<Handle>,
    target: { directory: Handle; name: string; key: string },
    text: string,
    mode: number | undefined,
    signal: AbortSignal | undefined,
    beforeRename: () => Promise<void> = async () => undefined,
    waiting?: (message: string) => void,
  ): Promise<void> {
    const folder = await this.openFolder(walk);
    // The last check and the rename hold the file's change lock (`key`: its path after links).
    const finish = (holder: Handle, tempName: string): Promise<void> =>
      this.exclusive(target.key, async () => {
        await beforeRename();
        await this.raw.rename(holder, tempName, target.directory, target.name);
      }, waiting);
    try {
      if (folder !== undefined) {
        try {
          return await this.writeThenRename(folder, newTemporaryName(true), text, mode, signal, finish);
        } catch (error) {
          if (signal?.aborted || !this.raw.crossesDevices(error)) throw error;
        }
      }
      await this.writeThenRename(target.directory, newTemporaryName(false), text, mode, signal, finish);
    } finally {
      if (folder !== undefined) this.raw.close(folder);
    }
  }

  private async writeThenRename(
    holder: Handle,
    tempName: string,
    text: string,
    mode: number | undefined,
    signal: AbortSignal | undefined,
    finish: (holder: Handle, tempName: string) => Promise<void>,
  ): Promise<void> {
    try {
      await this.raw.writeNewFile(holder, tempName, text, mode);
      signal?.throwIfAborted();
      await finish(holder, tempName);
    } catch (error) {
      await this.raw.removeFile(holder, tempName).catch(() => undefined);
      throw error;
    }
  }

  /** The temporary folder's handle (made on first use, with its `.gitignore`), or `undefined` when it cannot be used. */
  private async openFolder(walk: ConfinedWalk<Handle>): Promise<Handle | undefined> {
    // A link planted as the folder's parent is not followed to create it there (an outside attack: `.task-planner -> .git`
    // made the first write create `.git/tmp`): the temporary file goes next to the target.
    const parent = temporaryFolder.slice(0, temporaryFolder.indexOf('/'));
    const top = await walk.locate(parent, parent, { directory: true }).catch(() => undefined);
    if (top === undefined) return undefined;
    const leadsTo = 'missing' in top ? top.resolved : walk.resolvedPath(top);
    if (!('missing' in top)) walk.release(top);
    if (leadsTo !== parent) return undefined;
    // Refused (a link out) or not creatable: the temporary file goes next to the target.
    const at = await walk.locate(temporaryFolder, temporaryFolder, { create: true, directory: true }).catch(() => undefined);
    // Stryker disable next-line StringLiteral: creating it, the walk finds the folder or throws; only the type needs this test.
    if (at === undefined || 'missing' in at) return undefined;
    // A link on the way (a repository's planted `.task-planner` pointing at its own folder) is not our folder: temporary
    // files, and the sweep of stale ones, stay out of what the link points at.
    if (walk.resolvedPath(at) !== temporaryFolder) {
      walk.release(at);
      return undefined;
    }
    const folder = walk.keepDirectory(at);
    if (!this.swept) {
      this.swept = true;
      await this.ignoreFolder(folder);
      await this.removeStale(folder);
    }
    return folder;
  }

  /**
   * Writes the folder's `.gitignore`, keeping one someone wrote; an empty one is what a process killed between creating and writing it left, so it is written
   * again.
   */
  private async ignoreFolder(folder: Handle): Promise<void> {
    const existing = await this.raw.lstat(folder, '.gitignore').catch(() => undefined);
    if (existing?.type === 'file' && existing.size === 0) await this.raw.removeFile(folder, '.gitignore').catch(() => undefined);
    // Already there, or not writable: writes still work, git merely shows the folder.
    await this.raw.writeNewFile(folder, '.gitignore', temporaryFolderIgnore, undefined).catch(() => undefined);
  }

  private async removeStale(folder: Handle): Promise<void> {
    const now = this.clock.now();
    // Stryker disable next-line ArrayDeclaration: entries of a made-up name are not temporary files, so none is removed either way.
    const entries = await this.raw.readDirectory(folder).catch(() => []);
    for (const { name, type } of entries) {
      if (type !== 'file' || !(temporaryFileName.test(name) || changeLockName.test(name))) continue;
      try {
        const stats = await this.raw.lstat(folder, name);
        // Stryker disable next-line ConditionalExpression: an entry gone since the listing fails below and is skipped all the same.
        if (stats !== undefined && now - stats.mtimeMs > staleTemporaryFileMs) await this.raw.removeFile(folder, name);
      } catch {
        // Gone already, or not ours to remove: nothing lost either way.
      }
    }
  }
}

/** Whether a lock's creation failed because something is there already (it may be gone again by the time it is looked at). */
function alreadyThere(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'EEXIST';
}
