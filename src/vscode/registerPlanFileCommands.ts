import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { loadRuntime } from './loadRuntime';
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
  /** The plan panel's plan and whether the panel is in front; `undefined` while no panel is open. */
  panel: () => { plan: Plan | undefined; active: boolean } | undefined;
  /** Starts the MCP servers (once, asking for a workspace's), so a plan file naming their tools is checked against them; never rejects. */
  prepareTools: () => Promise<void>;
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
    return {
      plan: () => (panel?.active ? panel.plan : undefined) ?? wiring.tree.currentPlan() ?? panel?.plan,
      run: (): RunState | undefined => wiring.runs.current(),
      tools: wiring.tools,
      trusted: () => vscode.workspace.isTrusted,
      showPlan: (plan) => {
        wiring.tree.setPlan(plan);
        void vscode.commands.executeCommand('taskPlanner.plan.focus');
      },
      start: (plan) => wiring.runs.start(plan, { folder }),
      review: wiring.review,
      log: wiring.log,
      ui: loadRuntime().vscodePlanFileUi,
    };
  };
  // A menu passes the clicked file's URI; the command palette passes nothing.
  const withDocument = <T>(uri: unknown, act: (document: PlanFileDocument, folder: vscode.WorkspaceFolder | undefined) => T): T | undefined => {
    const clicked = uri instanceof vscode.Uri ? uri : undefined;
    const document = loadRuntime().planFileDocument(clicked);
    const location = clicked ?? vscode.window.activeTextEditor?.document.uri;
    return document && act(document, location && vscode.workspace.getWorkspaceFolder(location));
  };
  return [
    vscode.commands.registerCommand('taskPlanner.savePlanAsFile', () => loadRuntime().savePlanAsFile(deps())),
    vscode.commands.registerCommand('taskPlanner.exportPlanMarkdown', () => loadRuntime().exportPlanMarkdown(deps())),
    // The document is read when the command is given; the MCP servers start before it is checked.
    vscode.commands.registerCommand('taskPlanner.runPlanFile', (uri: unknown) =>
      withDocument(uri, async (document, folder) => {
        await wiring.prepareTools();
        return loadRuntime().runPlanFile(document, deps(folder));
      }),
    ),
    vscode.commands.registerCommand('taskPlanner.reviewPlanFile', (uri: unknown) =>
      withDocument(uri, async (document, folder) => {
        await wiring.prepareTools();
        return loadRuntime().reviewPlanFile(document, deps(folder));
      }),
    ),
  ];
}
