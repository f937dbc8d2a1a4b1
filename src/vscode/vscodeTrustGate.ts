import * as vscode from 'vscode';
import type { WorkspaceTrustGate } from '../core/ports';
import { restrictedModeReason } from '../core/tools/workspaceTrustGate';

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
    onRefused(refusal) {
      log.warn(`Step ${refusal.stepId} (${refusal.tool}) refused: ${restrictedModeReason}`);
      if (refusal.runId === lastNotifiedRun) return;
      lastNotifiedRun = refusal.runId;
      const manage = 'Manage Workspace Trust';
      void vscode.window
        .showWarningMessage(`Task Planner: step "${refusal.stepTitle}" (${refusal.tool}) was not run because ${restrictedModeReason}`, manage)
        .then((choice) => (choice === manage ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
    },
  };
}
