import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import type { RunResult } from '../core/engine/runOptions';
import type { RunState } from '../core/engine/runEvents';
import type { CheckpointStore, RunStore } from '../core/runStorePorts';
import type { WorkspaceFs } from '../core/workspacePorts';
import { loadCheckpointFile } from '../node/checkpointFile';
import { loadRuntime } from './loadRuntime';
import { readSettings } from './settings';
import { folderConfinement, folderHash, folderStorageDir, shownFolderName } from './workspaceFolders';

/** The workspace-state key remembering a single-folder window's executing run (a folder of several adds its URI). */
export const activeRunKey = 'taskPlanner.activeRun';

/** One workspace folder's runs: its journal, checkpoints and the run executing there (at most one). */
export interface Lane {
  /** `undefined` in a window without a folder (runs then fail saying so). */
  readonly folder: vscode.WorkspaceFolder | undefined;
  /** Where its runs and checkpoints are journaled; `undefined`: in memory. */
  readonly storageDir: string | undefined;
  /** The workspace-state key remembering its executing run. */
  readonly mementoKey: string;
  store?: RunStore;
  checkpoints?: Promise<CheckpointStore>;
  state?: RunState;
  abort?: AbortController;
  running?: Promise<RunResult>;
  /** The ids of the runs of the execution going on (its run, then its repair runs); `undefined` while none executes. */
  execution?: Set<string>;
  /** Its instructions and skills as `capabilities` read them last. */
  catalogue?: CapabilityCatalogue;
}

/**
 * Every workspace folder's lane, made on first use, the *current folder* the views follow,
 * and which lane each run id was found in. A window of one folder has one lane; a window
 * without a folder has one without a folder, whose runs fail saying so.
 */
export class FolderLanes {
  private readonly lanes = new Map<string, Lane>();
  /** The current folder's URI (see `useFolder`). */
  private focused: string | undefined;
  /** The lane each run id was found in. */
  private readonly runLanes = new Map<string, Lane>();

  /** `storageDir`: the extension's workspace storage (`context.storageUri`); runs live in memory without it. */
  constructor(private readonly storageDir: string | undefined) {}

  /** Makes `folder` the current folder; `false` when it already was. */
  useFolder(folder: vscode.WorkspaceFolder): boolean {
    const key = folder.uri.toString();
    if (this.focused === key) return false;
    this.focused = key;
    return true;
  }

  /** The lane of `folder`, else the current folder's (the only folder's, in a window of one). */
  lane(folder?: vscode.WorkspaceFolder): Lane {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const chosen =
      folder ??
      folders.find((candidate) => candidate.uri.toString() === this.focused) ??
      (folders.length === 1 ? folders[0] : undefined);
    const key = chosen?.uri.toString() ?? '';
    let lane = this.lanes.get(key);
    if (!lane) {
      const storageDir = folderStorageDir(this.storageDir, chosen);
      lane = { folder: chosen, storageDir, mementoKey: chosen && vscode.workspace.workspaceFile ? `${activeRunKey}:${key}` : activeRunKey };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /**
   * Whether any folder keeps a run (a journal in its storage's `runs`), read from the folder listings alone: asked at
   * activation, where loading the run store (runtime.js) would cost every window (the activation test).
   */
  async anyStoredRun(): Promise<boolean> {
    for (const lane of this.all()) {
      if (lane.storageDir === undefined) continue;
      const names = await readdir(join(lane.storageDir, 'runs')).catch(() => [] as string[]);
      if (names.some((name) => name.endsWith('.jsonl'))) return true;
    }
    return false;
  }

  /** A lane for each workspace folder (one without a folder when none is open). */
  all(): Lane[] {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return folders.length === 0 ? [this.lane()] : folders.map((folder) => this.lane(folder));
  }

  /** The lanes made so far. */
  made(): Lane[] {
    return [...this.lanes.values()];
  }

  /** Where `lane`'s runs are journaled (created on first use). */
  storeOf(lane: Lane): RunStore {
    const runtime = loadRuntime();
    return (lane.store ??= lane.storageDir ? runtime.createFileRunStore(join(lane.storageDir, 'runs')) : runtime.createMemoryRunStore());
  }

  /** `lane`'s checkpoints (in a temporary folder without workspace storage). */
  checkpointsOf(lane: Lane): Promise<CheckpointStore> {
    return (lane.checkpoints ??= loadCheckpointFile(join(lane.storageDir ?? join(tmpdir(), 'task-planner', folderHash(lane.folder)), 'checkpoints.json')));
  }

  /** `lane`'s folder as a confined workspace (naming the folder in refusals when there are several); throws when it has none. */
  workspaceOf(lane: Lane): WorkspaceFs {
    const folder = lane.folder;
    if (!folder) {
      throw new Error(
        (vscode.workspace.workspaceFolders?.length ?? 0) > 1
          ? vscode.l10n.t('Choose a workspace folder first: this window has several, and Task Planner runs a plan in one of them.')
          : vscode.l10n.t('Open a folder first: Task Planner runs plans against the workspace folder.'),
      );
    }
    const workspace = loadRuntime().createVscodeWorkspaceFs(folder.uri, { allowHardLinks: readSettings().allowHardLinks });
    return shownFolderName(folder) === undefined ? workspace : loadRuntime().namingConfinement(workspace, folderConfinement(folder));
  }

  /** Remembers that `runId` ran (or was found) in `lane`. */
  remember(runId: string, lane: Lane): void {
    this.runLanes.set(runId, lane);
  }

  /** The lane `runId` is known to be in (remembered, or its snapshot shown there), without looking in journals. */
  known(runId: string): Lane | undefined {
    return this.runLanes.get(runId) ?? this.made().find((lane) => lane.state?.runId === runId);
  }

  /** The lane whose folder's journal holds `runId` (the current folder's when none does). */
  async ofRun(runId: string): Promise<Lane> {
    return (await this.holding(runId)) ?? this.lane();
  }

  /** The lane known to hold `runId`, else the one whose folder's journal holds it, else `undefined`: not this window's run. */
  async holding(runId: string): Promise<Lane | undefined> {
    const known = this.known(runId);
    if (known) return known;
    for (const lane of this.all()) {
      if ((await this.storeOf(lane).load(runId)) !== undefined) {
        this.runLanes.set(runId, lane);
        return lane;
      }
    }
    return undefined;
  }

  /** `runId`'s snapshot in `lane`: the one shown, else folded from its journal (a repair run's after its earlier runs'). */
  async loadIn(lane: Lane, runId: string): Promise<RunState | undefined> {
    if (lane.state?.runId === runId) return lane.state;
    const store = this.storeOf(lane);
    return loadRuntime().loadExecution(runId, (id) => store.load(id));
  }
}
