import * as vscode from 'vscode';
import type { Checkpoint, CheckpointStore, FileVersion } from '../core/runStorePorts';
import type { Plan } from '../core/plan/planSchema';
import type { RunState } from '../core/engine/runEvents';
import type { UndoAnyway } from '../core/tools/undoRun';
import type { UndoneChanges } from '../core/tools/undoneChanges';
import type { FolderLanes, Lane } from './folderLanes';
import { loadRuntime } from './loadRuntime';
import type { RunUndo } from './runUndo';
import { confirmUndoDialog, type ConfirmUndo } from './confirmUndo';
import { commandsNotUndone, journaledChanges } from '../core/engine/commandsNotUndone';
import { undoLines } from '../core/tools/describeUndo';
import { createdPaths } from '../core/tools/undoneChanges';
import { planName } from '../core/plan/planName';
import { nextRepairRunId } from '../core/engine/awaitsRepair';
import { repairNumber, replacedByRepair } from '../core/engine/replanRecord';
import { shownFolderName } from './workspaceFolders';

/**
 * What stored runs changed in their folders, and Undo of it: each run's checkpoints, read from the folder whose journal
 * holds the run (`FolderLanes.ofRun`), so a run of another folder is never undone in the current one. Paths are
 * relative to the run's folder.
 */
export class RunChanges implements vscode.Disposable {
  private readonly undid = new vscode.EventEmitter<RunUndo>();
  /** Fires after Undo (of a whole run or from a step) with what it did and what of the run is now undone. */
  readonly onDidUndo = this.undid.event;

  constructor(
    private readonly lanes: FolderLanes,
    /** Asks before Undo takes back changes the user did not choose one by one (`undoAsked`). */
    private readonly confirm: ConfirmUndo = confirmUndoDialog,
  ) {}

  /**
   * `undo` of the run `runId` (from `fromStep` when given), once the user confirmed it (`confirm`, naming the files it would
   * put back); `undefined`, changing nothing, when they chose to keep the changes. With nothing left to put back it asks
   * nothing (`undo` says so).
   */
  async undoAsked(runId: string, fromStep?: { stepId: string; plan: Pick<Plan, 'steps'> }): Promise<RunUndo | undefined> {
    const { lane, state, all, chain } = await this.chainOf(runId);
    const runtime = loadRuntime();
    const steps = fromStep === undefined ? undefined : runtime.undoScope(fromStep.plan, all, fromStep.stepId);
    // What a failed change never wrote, or an earlier Undo took back, is not asked about.
    const left = (checkpoint: Checkpoint): boolean => checkpoint.state !== 'undone' && checkpoint.state !== 'abandoned';
    const inScope = (checkpoint: Checkpoint): boolean => steps?.has(checkpoint.stepId) ?? true;
    const undoing = all.filter((checkpoint) => inScope(checkpoint) && left(checkpoint));
    const asked = undoing.filter(isFileChange);
    const files = [...new Set(asked.map((checkpoint) => checkpoint.path))];
    // The folders it made are named too (a trial's Undo removed notes/ unannounced), and a run that made only folders asks.
    const folders = [...new Set(undoing.filter((checkpoint) => !isFileChange(checkpoint)).map((checkpoint) => checkpoint.path))];
    if (files.length + folders.length > 0) {
      const created = createdPaths(asked, chain);
      // Named as left alone before the user chooses, not only after (Undo leaves them as they are).
      const changedSince = await runtime.filesChangedSince(this.lanes.workspaceOf(lane), asked).catch(() => []);
      // A run and its repair run have the same request: which one is undone is named, as the Runs view names it.
      const repair = state === undefined ? undefined : repairNumber(state);
      const replacedBy = state === undefined ? undefined : await this.replacedBy(lane, state);
      const folder = shownFolderName(lane.folder);
      const question = {
        // Named as the Runs view names it: an imported file by its title.
        objective: state?.plan === undefined ? runId : planName(state.plan),
        ...(folder === undefined ? {} : { folder }),
        ...(repair === undefined ? {} : { repair }),
        ...(replacedBy === undefined ? {} : { replacedBy }),
        files,
        ...(created.length > 0 ? { created } : {}),
        ...(changedSince.length > 0 ? { changedSince } : {}),
        ...(folders.length > 0 ? { folders } : {}),
        ...(fromStep ? { fromStep: fromStep.stepId } : {}),
      };
      if (!(await this.confirm(question))) return undefined;
    }
    // Read again: the question may have stayed open while another Undo or a repair changed the run's checkpoints.
    return this.undo(runId, fromStep);
  }

  /**
   * Restores the files the run `runId` changed in its folder, from its checkpoints (refusing
   * files changed since). With `fromStep`, only that step's changes and those of the steps
   * after it that depend on it or changed the same files (`undoScope`), newest first. `anyway`: the files the user
   * saw in a diff and chose to undo anyway (`undoRun`: written only while they are exactly what was shown). The outcome
   * names the steps whose commands Undo does not take back.
   */
  async undo(runId: string, fromStep?: { stepId: string; plan: Pick<Plan, 'steps'> }, anyway?: readonly UndoAnyway[]): Promise<RunUndo> {
    // A run after repairs is all its runs (the panel and the Runs view show their changes as one run's), and a step a
    // repair kept made its changes in an earlier one.
    const { lane, checkpoints, state, chain, all } = await this.chainOf(runId);
    const runtime = loadRuntime();
    const steps = fromStep === undefined ? undefined : runtime.undoScope(fromStep.plan, all, fromStep.stepId);
    const workspace = this.lanes.workspaceOf(lane);
    const journaled = state === undefined ? undefined : journaledChanges(state, steps);
    const report = await runtime.undoRunChain(chain, {
      workspace,
      checkpoints,
      ...(steps ? { steps } : {}),
      ...(anyway ? { anyway } : {}),
      ...(journaled ? { journaled } : {}),
    });
    const text = undoLines(report, state === undefined ? undefined : commandsNotUndone(state, steps)).join(' ');
    const undone = runtime.undoneChanges((await this.chainOf(runId)).all);
    const undo: RunUndo = { runId, report, text, ...(fromStep ? { fromStep: fromStep.stepId } : {}), undone };
    this.undid.fire(undo);
    return undo;
  }

  /** What Undo has taken back of the run `runId` (with the runs its repairs replaced) so far: nothing for a run never undone. */
  async undone(runId: string): Promise<UndoneChanges> {
    return loadRuntime().undoneChanges((await this.chainOf(runId)).all);
  }

  /**
   * The file `path` as it was before the run `runId` (or a run its repairs replaced) first changed it (`undefined` when
   * none did), and the URI of the file now, in the run's folder.
   */
  async changeOf(runId: string, path: string): Promise<{ before: FileVersion; now: vscode.Uri | undefined } | undefined> {
    const { lane, all } = await this.chainOf(runId);
    const first = all.find((checkpoint) => isFileChange(checkpoint) && checkpoint.path === path);
    return first && { before: first.before, now: lane.folder && vscode.Uri.joinPath(lane.folder.uri, path) };
  }

  /**
   * The folder-relative paths of the files the run `runId` and the runs its repairs replaced changed, in first-change
   * order: the folders created for them are no files (the summary counts and links these; Undo still removes those folders).
   */
  async changedFiles(runId: string): Promise<string[]> {
    return [...new Set((await this.chainOf(runId)).all.filter(isFileChange).map((checkpoint) => checkpoint.path))];
  }

  dispose(): void {
    this.undid.dispose();
  }

  /** The number of the repair that replaced the run `state` (its next repair run, stored in `lane`'s folder), else `undefined`. */
  private async replacedBy(lane: Lane, state: RunState): Promise<number | undefined> {
    const store = this.lanes.storeOf(lane);
    const next = await loadRuntime().loadExecution(nextRepairRunId(state), (id) => store.load(id)).catch(() => undefined);
    return next === undefined ? undefined : replacedByRepair([next]).get(state.runId);
  }

  /**
   * The lane whose journal holds `runId`, its checkpoints, the run's journal replayed (`undefined` when it is missing or
   * cannot be read: the run alone is then undone, not nothing), the runs its repairs replaced then itself (`runChain`),
   * and all their checkpoints, oldest run first.
   */
  private async chainOf(runId: string): Promise<{ lane: Lane; checkpoints: CheckpointStore; state: RunState | undefined; chain: string[]; all: Checkpoint[] }> {
    const lane = await this.lanes.ofRun(runId);
    const checkpoints = await this.lanes.checkpointsOf(lane);
    const runtime = loadRuntime();
    const store = this.lanes.storeOf(lane);
    // As the views show it: a repair run with the runs it repaired, their steps' changes and commands too.
    const state = await runtime.loadExecution(runId, (id) => store.load(id)).catch(() => undefined);
    const chain = state === undefined ? [runId] : runtime.runChain(state);
    const all = (await Promise.all(chain.map((id) => checkpoints.list(id)))).flat();
    return { lane, checkpoints, state, chain, all };
  }
}

/** A change of a file, not a folder made for one: the summary counts and links files; Undo still removes those folders. */
function isFileChange(checkpoint: Checkpoint): boolean {
  return checkpoint.operation !== 'createDirectory';
}
