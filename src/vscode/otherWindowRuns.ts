import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import { otherWindowStorages } from '../node/otherWindowStorage';
import { loadRuntime } from './loadRuntime';
import { folderStorageDir } from './workspaceFolders';

/**
 * A run journaled by another window of this workspace (`otherWindowStorages`): listed in the Runs view, never resumed,
 * undone or deleted from this window, whose journal and checkpoints are elsewhere.
 */
export interface OtherWindowRun {
  readonly state: RunState;
  /** When its journal last changed, in milliseconds since the epoch. */
  readonly updatedAt: number;
  readonly folder: vscode.WorkspaceFolder | undefined;
  /** Whether that window's extension host still holds its storage (it may be running there now). */
  readonly held: boolean;
  /** Whether reloading this window, once that storage is not held, makes the run this window's (`OtherWindowStorage`). */
  readonly reloadTakesIt: boolean;
}

/**
 * The runs other windows of this workspace journaled, newest first, at most `limit`: read only (a journal being written
 * there reads up to its last whole line), a run whose journal cannot be read left out. `storageDir` is this window's
 * (`context.storageUri`); none without it.
 */
export async function otherWindowRuns(
  storageDir: string | undefined,
  folders: readonly vscode.WorkspaceFolder[],
  limit: number,
): Promise<OtherWindowRun[]> {
  if (storageDir === undefined) return [];
  const runtime = loadRuntime();
  const listed = await Promise.all(
    (await otherWindowStorages(storageDir, Date.now())).flatMap((storage) =>
      folders.map(async (folder) => {
        const dir = folderStorageDir(storage.storageDir, folder);
        if (dir === undefined) return [];
        const store = runtime.createFileRunStore(join(dir, 'runs'));
        const runs = await store.list().catch(() => []);
        return runs.map((run) => ({ ...run, store, folder, held: storage.held, reloadTakesIt: storage.reloadTakesIt }));
      }),
    ),
  );
  const newest = listed.flat().sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
  const loaded = await Promise.all(
    newest.map(async ({ runId, updatedAt, store, folder, held, reloadTakesIt }) => {
      try {
        const journal = await store.load(runId);
        return journal && { state: runtime.replayJournal(runId, journal), updatedAt, folder, held, reloadTakesIt };
      } catch {
        // A damaged journal of another window is that window's to report.
        return undefined;
      }
    }),
  );
  return loaded.filter((run) => run !== undefined);
}
