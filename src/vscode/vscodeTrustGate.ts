import * as vscode from 'vscode';
import type { WorkspaceTrustGate } from '../core/editorPorts';
import { restrictedModeReason } from '../core/tools/workspaceTrustGate';
import { showWarning } from './notifications';

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
      const manage = vscode.l10n.t('Manage Workspace Trust');
      void showWarning(
          vscode.l10n.t('Task Planner: step "{0}" ({1}) was not run because {2}', refusal.stepTitle, refusal.tool, restrictedModeReason),
          manage,
        )
        .then((choice) => (choice === manage ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
    },
  };
}
