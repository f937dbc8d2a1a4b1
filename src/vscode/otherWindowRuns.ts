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

/** A run of another window as its store lists it, before its journal is read. */
interface ListedOtherWindowRun extends Omit<OtherWindowRun, 'state' | 'folder'> {
  readonly runId: string;
  readonly folder: vscode.WorkspaceFolder;
  readonly store: ReturnType<ReturnType<typeof loadRuntime>['createFileRunStore']>;
}

/**
 * What the Runs view lists of other windows, without reading a journal: the newest `limit` runs with the time their
 * journals last changed and their windows' places. `stamp` is a text that changes whenever any of that does (a journal
 * written, a run added or removed, a window ending), so a caller can compare it cheaply with the last one it showed.
 */
export async function listOtherWindowRuns(
  storageDir: string | undefined,
  folders: readonly vscode.WorkspaceFolder[],
  limit: number,
): Promise<{ readonly runs: readonly ListedOtherWindowRun[]; readonly stamp: string }> {
  if (storageDir === undefined) return { runs: [], stamp: '' };
  const runtime = loadRuntime();
  const listed = await Promise.all(
    (await otherWindowStorages(storageDir, Date.now())).flatMap((storage) =>
      folders.map(async (folder) => {
        const dir = folderStorageDir(storage.storageDir, folder);
        if (dir === undefined) return [];
        const store = runtime.createFileRunStore(join(dir, 'runs'));
        const runs = await store.list().catch(() => []);
        return runs.map(({ runId, updatedAt }) => ({ runId, updatedAt, store, folder, held: storage.held, reloadTakesIt: storage.reloadTakesIt }));
      }),
    ),
  );
  const runs = listed.flat().sort((a, b) => b.updatedAt - a.updatedAt).slice(0, limit);
  const stamp = runs.map((run) => `${run.folder.uri.toString()} ${run.runId} ${run.updatedAt} ${run.held} ${run.reloadTakesIt}`).join('\n');
  return { runs, stamp };
}

/**
 * The runs of `listOtherWindowRuns`, read: read only (a journal being written there reads up to its last whole line),
 * a run whose journal cannot be read left out.
 */
export async function readOtherWindowRuns(listed: readonly ListedOtherWindowRun[]): Promise<OtherWindowRun[]> {
  const runtime = loadRuntime();
  const loaded = await Promise.all(
    listed.map(async ({ runId, updatedAt, store, folder, held, reloadTakesIt }) => {
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
