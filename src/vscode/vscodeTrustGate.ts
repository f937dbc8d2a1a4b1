import * as vscode from 'vscode';
import { restrictedModeReason, type WorkspaceTrustGate } from './workspaceTrustGate';

/**
 * Workspace trust as VS Code reports it (`vscode.workspace.isTrusted`, current at every
 * call: trusting the workspace applies without a reload). A refusal is logged, and the
 * first one of each run is shown in a warning with a "Manage Workspace Trust" button;
 * every refused step also carries the reason as its error in the Plan view.
 */
export function createVscodeTrustGate(log: vscode.LogOutputChannel): WorkspaceTrustGate {
  let lastNotifiedRun: string | undefined;
  return {
    isTrusted: () => vscode.workspace.isTrusted,
    onRefused(tool, ctx) {
      log.warn(`Step ${ctx.stepId} (${tool.name}) refused: ${restrictedModeReason}`);
      if (ctx.runId === lastNotifiedRun) return;
      lastNotifiedRun = ctx.runId;
      const manage = 'Manage Workspace Trust';
      void vscode.window
        .showWarningMessage(`Task Planner: step "${ctx.stepTitle}" (${tool.name}) was not run because ${restrictedModeReason}`, manage)
        .then((choice) => (choice === manage ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
    },
  };
}
