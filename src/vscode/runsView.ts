import * as vscode from 'vscode';
import type { RunResult } from '../core/engine/runOptions';
import { runListModel } from '../core/view/runListModel';
import type { PlanTreeNode } from '../core/view/planTreeModel';
import { describeUndo } from '../core/tools/describeUndo';
import { tellUndo } from './undoAnyway';
import { planTreeItem } from './planTreeItem';
import type { PlanTreeProvider } from './planTreeProvider';
import type { RunController } from './runController';
import { errorMessage } from '../shared/errorMessage';
import { capText } from '../core/text/capText';
import { visibleControls } from '../core/text/visibleDirection';

/** The Runs view: past, paused, waiting and interrupted runs from the run store, newest first. */
export class RunsTreeProvider implements vscode.TreeDataProvider<PlanTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private shown: string | undefined;

  constructor(private readonly runs: RunController) {
    // A new run, or a run changing status, changes the list; step progress does not.
    this.subscription = runs.onDidChangeState((state) => {
      const key = state ? `${state.runId}:${state.status}` : undefined;
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
    item.command = { command: 'taskPlanner.openRun', title: vscode.l10n.t('Open run'), arguments: [node] };
    return item;
  }

  async getChildren(node?: PlanTreeNode): Promise<PlanTreeNode[]> {
    if (node) return [];
    const listed = await this.runs.listAll();
    const active = new Set(this.runs.runningRuns().map((run) => run.state?.runId));
    const several = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const loaded = await Promise.all(
      listed.slice(0, 50).map(async (run) => {
        const state = await this.runs.load(run.runId).catch(() => undefined);
        return state ? { state, updatedAt: run.updatedAt, active: active.has(run.runId), folder: run.folder } : undefined;
      }),
    );
    const shown = loaded.filter((run) => run !== undefined);
    const nodes = runListModel(shown, (ms) => new Date(ms).toLocaleString());
    // In a workspace of several folders each run says which folder it ran in; one folder's users see no change.
    return several ? nodes.map((node, index) => withFolder(node, shown[index]?.folder?.name)) : nodes;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** `node` with the name of the workspace folder its run ran in, first in its description and tooltip. */
function withFolder(node: PlanTreeNode, folder: string | undefined): PlanTreeNode {
  if (folder === undefined) return node;
  const shown = visibleControls(capText(folder, 80));
  return {
    ...node,
    description: `${shown} · ${node.description}`,
    accessibilityLabel: vscode.l10n.t('{0}, in the folder {1}', node.accessibilityLabel, shown),
    tooltip: `${node.tooltip}\n${vscode.l10n.t('Folder: {0}', shown)}`,
  };
}

/** What the Runs commands act on. */
export interface RunsCommandDeps {
  runs: RunController;
  runsTree: RunsTreeProvider;
  tree: PlanTreeProvider;
  log: vscode.LogOutputChannel;
}

/** Open, Resume, Delete and Undo run, and Refresh, for the Runs view's items. */
export function registerRunsCommands(deps: RunsCommandDeps): vscode.Disposable[] {
  const runIdOf = (arg: unknown): string | undefined =>
    typeof arg === 'string'
      ? arg
      : arg && typeof arg === 'object' && 'id' in arg
        ? String((arg as PlanTreeNode).id).replace(/^run:/, '')
        : deps.runs.current()?.runId;
  return [
    vscode.commands.registerCommand('taskPlanner.refreshRuns', () => deps.runsTree.refresh()),
    vscode.commands.registerCommand('taskPlanner.openRun', async (arg?: unknown) => {
      const runId = runIdOf(arg);
      const state = runId ? await deps.runs.open(runId) : undefined;
      if (!state) return void vscode.window.showWarningMessage(vscode.l10n.t('Task Planner: run {0} was not found.', runId ?? ''));
      deps.tree.setRun(state);
      await vscode.commands.executeCommand('taskPlanner.plan.focus');
    }),
    vscode.commands.registerCommand('taskPlanner.resumeRun', async (arg?: unknown): Promise<RunResult | undefined> => {
      const runId = runIdOf(arg);
      if (!runId) return undefined;
      deps.log.info(`Resuming run ${runId}`);
      const running = deps.runs.resume(runId);
      deps.runsTree.refresh();
      return running.catch((error: unknown) => {
        void vscode.window.showErrorMessage(vscode.l10n.t('Task Planner: {0}', errorMessage(error)));
        return undefined;
      });
    }),
    vscode.commands.registerCommand('taskPlanner.deleteRun', async (arg?: unknown) => {
      const runId = runIdOf(arg);
      if (!runId) return;
      if (deps.runs.runningRuns().some((run) => run.state?.runId === runId)) {
        return void vscode.window.showWarningMessage(vscode.l10n.t('Task Planner: cancel the run before deleting it.'));
      }
      await deps.runs.delete(runId);
      deps.runsTree.refresh();
    }),
    vscode.commands.registerCommand('taskPlanner.undoRun', async (arg?: unknown) => {
      const runId = runIdOf(arg);
      if (!runId) return;
      const report = await deps.runs.changes.undo(runId);
      const message = vscode.l10n.t('Task Planner: {0}', describeUndo(report));
      deps.log.info(`Run ${runId}: ${describeUndo(report)}`);
      tellUndo(message, report, { runId });
      return report;
    }),
  ];
}
