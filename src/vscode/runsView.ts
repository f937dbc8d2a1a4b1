import * as vscode from 'vscode';
import { finalRunStatuses, type RunState } from '../core/engine/runEvents';
import { awaitsRepair } from '../core/engine/awaitsRepair';
import { runStatusLabel } from '../shared/runStatusLabels';
import type { RunResult } from '../core/engine/runOptions';
import { runListModel } from '../core/view/runListModel';
import type { PlanTreeNode } from '../core/view/planTreeModel';
import { tellUndo } from './undoAnyway';
import { planTreeItem } from './planTreeItem';
import { runRowInFolder } from './runRowFolder';
import type { PlanTreeProvider } from './planTreeProvider';
import type { RunController } from './runController';
import { errorMessage } from '../shared/errorMessage';
import { stepProgress } from '../shared/stepProgress';
import { listOtherWindowRuns, readOtherWindowRuns, type OtherWindowRun } from './otherWindowRuns';
import { showError, showInformation, showWarning } from './notifications';
import { tellRunInProgress } from './runInProgress';
import { shownLine } from './shownText';
import { undoneSteps } from '../core/tools/undoneChanges';

/** The most runs the view lists of this window, and of other windows. */
const listedRuns = 50;
/** How often, in milliseconds, a visible Runs view looks for changes in other windows' runs. */
const otherWindowsEveryMs = 5_000;

/** The Runs view: past, paused, waiting and interrupted runs from the run store, newest first. */
export class RunsTreeProvider implements vscode.TreeDataProvider<PlanTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private readonly undid: vscode.Disposable;
  private shown: string | undefined;
  /** `listOtherWindowRuns`' stamp of the other windows' runs last listed; `undefined` before the first listing. */
  private othersListed: string | undefined;

  /** `storageDir`: this window's storage (`context.storageUri`), beside which other windows of the workspace keep theirs. */
  constructor(
    private readonly runs: RunController,
    private readonly storageDir: string | undefined,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.undid = runs.changes.onDidUndo(() => this.refresh());
    // A new run, a run changing status or finishing a step changes its row; a step's own progress does not.
    this.subscription = runs.onDidChangeState((state) => {
      const done = state && stepProgress(Object.values(state.steps), state.plan?.steps.length ?? 0).completed;
      const key = state ? `${state.runId}:${state.status}:${done}` : undefined;
      if (key !== this.shown) {
        this.shown = key;
        this.refresh();
      }
    });
  }

  /** Reloads the list from the store. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: PlanTreeNode): vscode.TreeItem {
    const item = planTreeItem(node);
    if (node.contextValue.startsWith('run.')) item.command = { command: 'taskPlanner.openRun', title: vscode.l10n.t('Open run'), arguments: [node] };
    else if (placeOf(node.contextValue)) {
      item.command = { command: 'taskPlanner.aboutOtherWindowRuns', title: vscode.l10n.t('About runs of another window'), arguments: [node] };
    }
    return item;
  }

  async getChildren(node?: PlanTreeNode): Promise<PlanTreeNode[]> {
    if (node) return node.children;
    const [listed, others] = await Promise.all([this.runs.listAll(), this.readOthers()]);
    const active = new Set(this.runs.runningRuns().map((run) => run.state?.runId));
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const loaded = await Promise.all(
      listed.slice(0, listedRuns).map(async (run) => {
        const [state, changes] = await Promise.all([
          this.runs.load(run.runId).catch(() => undefined),
          // A run's row says when Undo took back its changes, and offers Undo only while a change is left (the run's
          // checkpoints say so); unknown is neither.
          this.runs.changes.undone(run.runId).catch(() => undefined),
        ]);
        const [undone, undoable] = [(changes?.steps.size ?? 0) > 0, changes?.anyLeft ?? false];
        return state ? { state, updatedAt: run.updatedAt, active: active.has(run.runId), undone, undoable, folder: run.folder } : undefined;
      }),
    );
    const shown = loaded.filter((run) => run !== undefined);
    const nodes = runListModel(shown, (ms) => new Date(ms).toLocaleString());
    // In a workspace of several folders each run says which folder it ran in; one folder's users see no change.
    const own = several ? nodes.map((node, index) => runRowInFolder(node, shown[index]?.folder?.name)) : nodes;
    return others.length > 0 ? [...own, otherWindowGroup(others, several)] : own;
  }

  /**
   * While `view` is visible, looks at the other windows' runs every few seconds (`otherWindowsEveryMs`) and reloads
   * the list when they changed since it was listed: that window writes their journals and tells this one nothing.
   * Only the runs' listing is read for this, never a journal.
   */
  watchOtherWindows(view: vscode.TreeView<PlanTreeNode>): vscode.Disposable {
    let timer: ReturnType<typeof setInterval> | undefined;
    let looking = false;
    let failure: string | undefined;
    const look = async (): Promise<void> => {
      if (looking) return;
      looking = true;
      try {
        const { stamp } = await listOtherWindowRuns(this.storageDir, vscode.workspace.workspaceFolders ?? [], listedRuns);
        failure = undefined;
        if (stamp !== this.othersListed) this.refresh();
      } catch (error) {
        // once per new reason: the same failure every few seconds would bury the log
        if (errorMessage(error) !== failure) this.log.warn(`Could not look at the runs of other windows of this workspace: ${errorMessage(error)}`);
        failure = errorMessage(error);
      } finally {
        looking = false;
      }
    };
    const follow = (): void => {
      if (view.visible && timer === undefined) timer = setInterval(() => void look(), otherWindowsEveryMs);
      if (!view.visible && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    };
    follow();
    const visibility = view.onDidChangeVisibility(follow);
    return {
      dispose: () => {
        visibility.dispose();
        if (timer !== undefined) clearInterval(timer);
      },
    };
  }

  /** The other windows' runs, read, with their stamp kept for `watchOtherWindows`; none when they cannot be listed (logged). */
  private async readOthers(): Promise<OtherWindowRun[]> {
    try {
      const { runs, stamp } = await listOtherWindowRuns(this.storageDir, vscode.workspace.workspaceFolders ?? [], listedRuns);
      this.othersListed = stamp;
      return await readOtherWindowRuns(runs);
    } catch (error) {
      this.othersListed = undefined;
      this.log.warn(`Could not list the runs of other windows of this workspace: ${errorMessage(error)}`);
      return [];
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.undid.dispose();
    this.changed.dispose();
  }
}

/** Where a run of another window can be acted on, as its row's context value says it: `otherWindowRun.<held|ended>.<reload|stay>`. */
interface OtherWindowPlace {
  readonly held: boolean;
  readonly reloadTakesIt: boolean;
}

function placeContext({ held, reloadTakesIt }: OtherWindowPlace): string {
  return `otherWindowRun.${held ? 'held' : 'ended'}.${reloadTakesIt ? 'reload' : 'stay'}`;
}

function placeOf(contextValue: string): OtherWindowPlace | undefined {
  const parts = /^otherWindowRun\.(held|ended)\.(reload|stay)$/.exec(contextValue);
  return parts ? { held: parts[1] === 'held', reloadTakesIt: parts[2] === 'reload' } : undefined;
}

/** What a run of another window is, and where it can be resumed, undone or deleted. */
function otherWindowNote({ held, reloadTakesIt }: OtherWindowPlace): string {
  if (held) {
    return reloadTakesIt
      ? vscode.l10n.t(
          'It belongs to another window of this workspace, open or (in code-server) a tab that lost its connection not long ago, kept by the server for a reconnect, where it may still be running. Answer it there if that window is open. Once that window has ended (restarting code-server ends it at once), reload this window to resume, undo or delete the run here.',
        )
      : vscode.l10n.t(
          'It belongs to another window of this workspace, open or (in code-server) a tab that lost its connection not long ago, kept by the server for a reconnect, where it may still be running. Answer, resume, undo or delete it in that window; this window keeps its own runs apart.',
        );
  }
  return reloadTakesIt
    ? vscode.l10n.t(
        "It belongs to a window of this workspace that has ended. Reload this window to resume, undo or delete it here (this window's own runs are then listed as another window's).",
      )
    : vscode.l10n.t(
        'It belongs to a window of this workspace that has ended. This window keeps its own runs apart; a second window of this workspace, opened while this one stays open, can resume, undo or delete it.',
      );
}

/**
 * The Runs view's group of the runs other windows of this workspace journaled (`otherWindowRuns`): shown with what they
 * are and where to act on them; their rows offer no Resume, Undo or Delete (context values `otherWindowRuns`, and `placeContext`'s).
 */
function otherWindowGroup(runs: readonly OtherWindowRun[], several: boolean): PlanTreeNode {
  const nodes = runListModel(
    // Whether that window undid a run is in its checkpoints, which are that window's: not read from here.
    runs.map((run) => ({ state: run.state, updatedAt: run.updatedAt, active: run.held && run.state.status === 'running', undone: false, undoable: false })),
    (ms) => new Date(ms).toLocaleString(),
  );
  const children = nodes.map((node, index): PlanTreeNode => {
    const run = runs[index]!;
    const shown = several ? runRowInFolder(node, run.folder?.name) : node;
    return { ...shown, id: `other:${node.id}`, contextValue: placeContext(run), tooltip: `${shown.tooltip}\n${otherWindowNote(run)}` };
  });
  const label = vscode.l10n.t('Runs of another window');
  const description = String(runs.length);
  return {
    id: 'otherWindowRuns',
    label,
    description,
    tooltip: vscode.l10n.t(
      'Runs another window of this workspace journaled: listed here, while this window keeps its own runs apart. Each says where it can be resumed, undone or deleted.',
    ),
    accessibilityLabel: vscode.l10n.t('{0}: {1}', label, description),
    icon: 'multiple-windows',
    contextValue: 'otherWindowRuns',
    children,
  };
}

/** What the Runs commands act on. */
export interface RunsCommandDeps {
  runs: RunController;
  runsTree: RunsTreeProvider;
  tree: PlanTreeProvider;
  log: vscode.LogOutputChannel;
  /** Shows an opened run in the plan panel too when the panel is open, unless it reviews a plan or follows a run going on. */
  showInPanel: (state: RunState, live: boolean) => void;
}

/** Open, Resume, Delete and Undo run, and Refresh, for the Runs view's items (from the Command Palette: the run the Plan view shows). */
export function registerRunsCommands(deps: RunsCommandDeps): vscode.Disposable[] {
  // Nothing named (the Command Palette): the run the Plan view shows, not the folder's latest run when it shows another.
  const runIdOf = (arg: unknown): string | undefined =>
    typeof arg === 'string'
      ? arg
      : arg && typeof arg === 'object' && 'id' in arg
        ? String((arg as PlanTreeNode).id).replace(/^run:/, '')
        : (deps.tree.shownRun() ?? deps.runs.current())?.runId;
  return [
    vscode.commands.registerCommand('taskPlanner.refreshRuns', () => deps.runsTree.refresh()),
    vscode.commands.registerCommand('taskPlanner.aboutOtherWindowRuns', async (arg?: unknown) => {
      const place = arg && typeof arg === 'object' && 'contextValue' in arg ? placeOf(String((arg as PlanTreeNode).contextValue)) : undefined;
      if (!place) return;
      const reload = vscode.l10n.t('Reload Window');
      const offered = !place.held && place.reloadTakesIt ? [reload] : [];
      const chosen = await showInformation(vscode.l10n.t('Task Planner: {0}', otherWindowNote(place)), ...offered);
      if (chosen === reload) await vscode.commands.executeCommand('workbench.action.reloadWindow');
    }),
    vscode.commands.registerCommand('taskPlanner.openRun', async (arg?: unknown) => {
      const runId = runIdOf(arg);
      const state = runId ? await deps.runs.open(runId) : undefined;
      if (!state) return void showWarning(vscode.l10n.t('Task Planner: run {0} was not found.', runId ?? ''));
      // The run executing is shown live and followed; another stays on screen while a run goes on.
      const live = deps.runs.executing(state.runId);
      deps.tree.setRun(live ?? state, live === undefined);
      deps.showInPanel(live ?? state, live !== undefined);
      await vscode.commands.executeCommand('taskPlanner.plan.focus');
    }),
    vscode.commands.registerCommand('taskPlanner.resumeRun', async (arg?: unknown): Promise<RunResult | undefined> => {
      const runId = runIdOf(arg);
      if (!runId) return undefined;
      const state = await deps.runs.stateOf(runId).catch(() => undefined);
      // Asked again from an older notice, its run resumed and ended since: said, where it did nothing silently (an editor trial).
      // One whose repair a stop cut off is not over: resuming it asks for the repair. One whose repair began went on there
      // (an old "interrupted" notice's Resume, after the repair ran, said the run failed: a trial).
      if (state !== undefined && awaitsRepair(state) && !(await deps.runs.awaitsItsRepair(state))) {
        const name = await runName(deps, runId);
        return void showInformation(
          vscode.l10n.t('Task Planner: run "{0}" went on in its repair run, which the Runs view lists: there is nothing to resume here.', name),
        );
      }
      if (state !== undefined && finalRunStatuses.has(state.status) && !awaitsRepair(state)) {
        return void showInformation(
          vscode.l10n.t(
            'Task Planner: run "{0}" has ended ({1}): there is nothing to resume.',
            await runName(deps, runId),
            runStatusLabel(state.status, Object.values(state.steps)),
          ),
        );
      }
      // Undo took back what steps of it did: its next steps would start from files that are no longer there.
      const changes = state?.plan ? await deps.runs.changes.undone(runId).catch(() => undefined) : undefined;
      const undone = state?.plan && changes ? undoneSteps(state.plan, changes) : [];
      if (undone.length > 0) {
        return void showWarning(
          vscode.l10n.t(
            'Task Planner: run "{0}" cannot go on: Undo took back the changes of {1}, and its next steps would start from files that are no longer there. Undo the rest of it and plan the task again.',
            await runName(deps, runId),
            undone.join(', '),
          ),
        );
      }
      deps.log.info(`Resuming run ${runId}`);
      const running = deps.runs.resume(runId);
      deps.runsTree.refresh();
      return running.catch((error: unknown) => {
        // A run going on (this one, resumed already, or another of its folder): said with what to do about it.
        if (!tellRunInProgress(error)) void showError(vscode.l10n.t('Task Planner: {0}', errorMessage(error)));
        return undefined;
      });
    }),
    vscode.commands.registerCommand('taskPlanner.deleteRun', async (arg?: unknown) => {
      const runId = runIdOf(arg);
      if (!runId) return;
      if (deps.runs.runningRuns().some((run) => run.state?.runId === runId)) {
        return void showWarning(vscode.l10n.t('Task Planner: cancel the run before deleting it.'));
      }
      // Named and confirmed: its journal goes, and with it its Undo and Resume (a dialog that cannot show deletes nothing).
      const [keep, remove] = [vscode.l10n.t('Keep it'), vscode.l10n.t('Delete run')];
      const choice = await showWarning(
        vscode.l10n.t('Delete the run "{0}"?', await runName(deps, runId)),
        {
          modal: true,
          detail: vscode.l10n.t('Its journal leaves the Runs view, and it can no longer be resumed or undone. The files it changed stay as they are.'),
        },
        keep,
        remove,
      ).then(undefined, () => undefined);
      if (choice !== remove) return;
      await deps.runs.delete(runId);
      deps.runsTree.refresh();
    }),
    vscode.commands.registerCommand('taskPlanner.undoRun', async (arg?: unknown) => {
      const runId = runIdOf(arg);
      if (!runId) return;
      // Its next steps would go on from files Undo put back (the panel and the Plan tree refuse it too).
      if (deps.runs.runningRuns().some((run) => run.state?.runId === runId)) {
        return void showWarning(vscode.l10n.t('Task Planner: cancel the run before undoing it.'));
      }
      const name = await runName(deps, runId);
      const undo = await deps.runs.changes.undoAsked(runId);
      if (!undo) return undefined;
      // Named: from the palette it is the run the Plan view shows, which may not be the one in mind.
      const message = vscode.l10n.t('Task Planner: run "{0}": {1}', name, undo.text);
      deps.log.info(`Run ${runId}: ${undo.text}`);
      tellUndo(message, undo.report, { runId });
      return undo;
    }),
  ];
}

/** A run as messages name it: its request, on one line and bounded, else its id. */
async function runName(deps: RunsCommandDeps, runId: string): Promise<string> {
  const state = await deps.runs.stateOf(runId).catch(() => undefined);
  return shownLine(state?.plan?.objective ?? runId, 80);
}
