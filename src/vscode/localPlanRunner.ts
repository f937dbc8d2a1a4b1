import * as vscode from 'vscode';
import { runPlan } from '../core/engine/runPlan';
import type { RunHandle } from '../core/engine/runOptions';
import type { Plan } from '../core/plan/planSchema';
import { heuristicPlan } from '../core/planner/heuristicPlan';
import { createMemoryCheckpointStore } from '../core/tools/checkpointStore';
import type { Tool } from '../core/tools/tool';
import { undoRun } from '../core/tools/undoRun';
import { createNodeWorkspace } from '../node/nodeWorkspace';
import type { PlanPanel } from './planPanel';
import type { PlanPanelCallbacks } from './planPanelCallbacks';

/**
 * The plan panel's callbacks when no richer planning flow is plugged in: runs the plan on
 * the first workspace folder with the given tools (requests for approval or answers are
 * deferred, so the run ends `waiting` on them), regenerates with the heuristic planner
 * (the feedback joins the request), and undoes runs from their checkpoints.
 */
export function createLocalPlanRunner(panel: () => PlanPanel | undefined, tools: readonly Tool[], log: vscode.LogOutputChannel): PlanPanelCallbacks {
  const checkpoints = createMemoryCheckpointStore();
  let active: RunHandle | undefined;
  const root = (): string => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') throw new Error('Open a folder first: Task Planner runs plans against the workspace folder.');
    return folder.uri.fsPath;
  };
  return {
    onStart: (plan: Plan) => {
      const workspace = createNodeWorkspace(root());
      const handle = runPlan(plan, { tools, workspace, checkpoints, logger: log });
      active = handle;
      panel()?.attachRun(handle.runId);
      handle.events.subscribe((event) => panel()?.onRunEvent(event));
      log.info(`Plan panel: started run ${handle.runId} of plan ${plan.id} v${plan.version}`);
      void handle.result.then(async (result) => {
        if (active === handle) active = undefined;
        const changedFiles = [...new Set((await checkpoints.list(result.runId)).map((checkpoint) => checkpoint.path))];
        panel()?.setRunDetails({ changedFiles, ...(result.metadata.llmUsage ? { usage: result.metadata.llmUsage } : {}) });
        log.info(`Plan panel: run ${result.runId} ended ${result.status}`);
      });
    },
    onCancel: () => {
      if (active) active.cancel('Cancelled from the plan panel.');
      else panel()?.dispose();
    },
    onRegenerate: async (feedback: string, plan: Plan) => {
      const next = heuristicPlan(`${plan.objective}\n${feedback}`, { createdAt: new Date().toISOString() });
      return { ...next, id: plan.id, version: plan.version + 1, objective: plan.objective };
    },
    onOpenApproval: async (stepId: string) => {
      await vscode.window.showInformationMessage(`Step ${stepId} is waiting for an answer; this run defers requests, so answer them when the run is resumed.`);
    },
    onUndoRun: async (runId: string) => {
      const report = await undoRun(runId, { workspace: createNodeWorkspace(root()), checkpoints });
      const refused = report.refused.map((entry) => `${entry.path} (${entry.reason})`);
      return `Undo: restored ${report.restored.length} file${report.restored.length === 1 ? '' : 's'}${refused.length > 0 ? `; left alone: ${refused.join(', ')}` : ''}.`;
    },
  };
}
