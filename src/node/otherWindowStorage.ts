import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from './processAlive';

/** Another window's storage folder of this extension, for the same workspace. */
export interface OtherWindowStorage {
  /** The other window's folder of this extension (what `context.storageUri` is there). */
  readonly storageDir: string;
  /**
   * Whether a living extension host holds that window's workspace storage now: the window is open, or (code-server)
   * its tab lost its connection (a crash, a dropped network) and the server keeps the host for a reconnect, hours long.
   * While it is held, that window may still be running and journaling there; once it is not, the next window of this
   * workspace to start gets the folder.
   */
  readonly held: boolean;
  /**
   * Whether reloading this window gives it this storage once no host holds it: VS Code gives a starting window the first
   * folder, in the order it tries them, that no living host holds (this window's own counts as free: a reload releases
   * it), so this one must come before this window's own with every folder before it held.
   */
  readonly reloadTakesIt: boolean;
}

/** How many numbered siblings VS Code tries (`<id>-1` … `<id>-9`) before giving up on a lock. */
const siblingsTried = 9;
/** VS Code's own rule: a lock not touched for 10 minutes is stale even when its process lives. */
const staleAfterMs = 600_000;
/** The most of a lock file read: it is `{"pid":…,"willReleaseAt":…}`. */
const lockBytes = 4096;

/**
 * The storage folders of this extension kept by other windows of the same workspace, held or not (see
 * `OtherWindowStorage.held`). VS Code gives each extension host the workspace storage folder `<id>` unless another
 * living host holds its lock (`vscode.lock`, touched every second), then `<id>-1`, `<id>-2` … `<id>-9`: two windows of
 * one workspace, or a window opened again in code-server while the closed one's host lives on, journal apart.
 * `storageDir` is this window's (`<workspace storage>/<id>[-n]/<extension id>`); only folders holding this extension's
 * folder are listed, never this window's own. Read-only: nothing is created, locked or changed.
 * `now`: milliseconds since the epoch.
 */
export async function otherWindowStorages(storageDir: string, now: number): Promise<OtherWindowStorage[]> {
  const extensionFolder = basename(storageDir);
  const mine = dirname(storageDir);
  const id = basename(mine).replace(/-[1-9]$/, '');
  const candidates = [id, ...Array.from({ length: siblingsTried }, (_, index) => `${id}-${index + 1}`)].map((name) => join(dirname(mine), name));
  const mineAt = candidates.indexOf(mine);
  const seen = await Promise.all(
    candidates.map(async (candidate) => ({
      storageDir: join(candidate, extensionFolder),
      held: candidate !== mine && (await isHeld(join(candidate, 'vscode.lock'), now)),
    })),
  );
  const found = await Promise.all(
    seen.map(async ({ storageDir: dir, held }, index): Promise<OtherWindowStorage | undefined> => {
      if (index === mineAt || !(await isDirectory(dir))) return undefined;
      // A window's own folder not among those VS Code tries (a name of another form): reloading never gives it another's.
      const reloadTakesIt = mineAt >= 0 && index < mineAt && seen.slice(0, index).every((before) => before.held);
      return { storageDir: dir, held, reloadTakesIt };
    }),
  );
  return found.filter((storage) => storage !== undefined);
}

/** VS Code's test of a workspace storage lock: readable, its process alive, touched within 10 minutes, not being released. */
async function isHeld(lockFile: string, now: number): Promise<boolean> {
  let touched: number;
  let lock: unknown;
  try {
    touched = (await stat(lockFile)).mtimeMs;
    const buffer = await readFile(lockFile);
    if (buffer.length > lockBytes) return false;
    lock = JSON.parse(buffer.toString('utf8'));
  } catch {
    // Missing, unreadable or not JSON: no lock, as VS Code takes it.
    return false;
  }
  if (typeof lock !== 'object' || lock === null) return false;
  const { pid, willReleaseAt } = lock as { pid?: unknown; willReleaseAt?: unknown };
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (typeof willReleaseAt === 'number' && willReleaseAt > 0 && willReleaseAt <= now) return false;
  return now - touched <= staleAfterMs && isProcessAlive(pid);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
