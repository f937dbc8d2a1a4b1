import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { loadRuntime } from './loadRuntime';
import { planFolderUri, takePlanOfFile } from './filePlanFolder';
import type { PlanFileDeps, PlanFileDocument } from './planFileCommands';
import type { PlanReview } from './planReview';
import type { PlanTreeProvider } from './planTreeProvider';
import type { RunController } from './runController';

/** What the plan-file commands are wired to (in `activate`). */
export interface PlanFileWiring {
  tree: PlanTreeProvider;
  runs: RunController;
  tools: () => readonly Tool[];
  review: () => PlanReview;
  log: vscode.LogOutputChannel;
  /** The plan panel's plan, the id of the run it shows (if any) and whether the panel is in front; `undefined` while no panel is open. */
  panel: () => { plan: Plan | undefined; runId: string | undefined; active: boolean } | undefined;
  /**
   * Starts the MCP servers (once, asking for a workspace's) and holds them until disposed, so a plan file naming their
   * tools is checked against the servers it then calls; never rejects.
   */
  holdTools: () => Promise<vscode.Disposable>;
}

/**
 * Registers "Save plan as file" and "Export plan as Markdown checklist" (Plan view and plan
 * panel title bars) and "Run plan file" and "Review plan file" (a `*.plan.json` editor's
 * title bar). The work is done in the runtime bundle, loaded on first use.
 */
export function registerPlanFileCommands(wiring: PlanFileWiring): vscode.Disposable[] {
  // `folder`: the workspace folder of the plan file a run starts from (it runs there).
  const deps = (folder?: vscode.WorkspaceFolder): PlanFileDeps => {
    const panel = wiring.panel();
    // The panel's plan when it is in front, else the Plan view's, else the panel's; the run shown with it is the same view's.
    const fromPanel = panel !== undefined && ((panel.active && panel.plan !== undefined) || wiring.tree.currentPlan() === undefined);
    return {
      plan: () => (fromPanel ? panel.plan : wiring.tree.currentPlan()),
      // Never the folder's latest run instead: a run opened from the Runs view while another goes on is the one shown.
      run: async (): Promise<RunState | undefined> => {
        if (!fromPanel) return wiring.tree.shownRun();
        return panel.runId === undefined ? undefined : wiring.runs.stateOf(panel.runId);
      },
      tools: wiring.tools,
      trusted: () => vscode.workspace.isTrusted,
      showPlan: (plan) => {
        takePlanOfFile(wiring.runs, plan, folder);
        wiring.tree.setPlan(plan);
        void vscode.commands.executeCommand('taskPlanner.plan.focus');
      },
      start: (plan) => wiring.runs.start(plan, { folder }),
      review: wiring.review,
      folderOf: (plan) => planFolderUri(wiring.runs, plan),
      log: wiring.log,
      ui: loadRuntime().vscodePlanFileUi,
    };
  };
  // A menu passes the clicked file's URI; the command palette passes nothing (the active editor's file is read then).
  const withDocument = async <T>(
    uri: unknown,
    act: (document: PlanFileDocument, folder: vscode.WorkspaceFolder | undefined) => Promise<T>,
  ): Promise<T | undefined> => {
    const document = await loadRuntime().planFileDocument(uri instanceof vscode.Uri ? uri : undefined);
    return document && act(document, vscode.workspace.getWorkspaceFolder(document.uri));
  };
  return [
    vscode.commands.registerCommand('taskPlanner.savePlanAsFile', () => loadRuntime().savePlanAsFile(deps())),
    vscode.commands.registerCommand('taskPlanner.exportPlanMarkdown', () => loadRuntime().exportPlanMarkdown(deps())),
    // The document is read when the command is given; the MCP servers start before it is checked.
    vscode.commands.registerCommand('taskPlanner.runPlanFile', (uri: unknown) =>
      withDocument(uri, (document, folder) => whileHeld(wiring, async () => loadRuntime().runPlanFile(document, deps(folder)))),
    ),
    vscode.commands.registerCommand('taskPlanner.reviewPlanFile', (uri: unknown) =>
      withDocument(uri, (document, folder) => whileHeld(wiring, () => loadRuntime().reviewPlanFile(document, deps(folder)))),
    ),
  ];
}

/**
 * Does `act` with the MCP servers held (`holdTools`) until it is done and the run it started, if any, has ended: the
 * servers a plan file was checked against are the ones its run calls, whatever changes their configuration meanwhile.
 */
async function whileHeld<T extends { run?: Promise<unknown> } | undefined>(wiring: PlanFileWiring, act: () => Promise<T>): Promise<T> {
  const held = await wiring.holdTools();
  const release = (): void => {
    held.dispose();
  };
  try {
    const outcome: T = await act();
    if (outcome?.run) void outcome.run.then(release, release);
    else release();
    return outcome;
  } catch (error) {
    release();
    throw error;
  }
}
