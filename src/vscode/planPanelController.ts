import * as vscode from 'vscode';
import type { Plan } from '../core/plan/planSchema';
import type { Tool } from '../core/tools/tool';
import { PlanPanel } from './planPanel';
import type { PlanPanelCallbacks } from './planPanelCallbacks';

/**
 * Owns the one plan panel: opens it on demand (or brings it to the front), and routes its
 * user actions to the callbacks of the planning and run flow, which can be replaced.
 */
export class PlanPanelController implements vscode.Disposable {
  private current: PlanPanel | undefined;
  private callbacks: PlanPanelCallbacks | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly tools: readonly Tool[],
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Routes the panel's actions (Start, Cancel, Regenerate, approvals, Undo) to `callbacks`. */
  setCallbacks(callbacks: PlanPanelCallbacks): void {
    this.callbacks = callbacks;
  }

  /** The open panel, if any. */
  panel(): PlanPanel | undefined {
    return this.current?.isDisposed ? undefined : this.current;
  }

  /** Opens the panel (or reveals it) showing `plan` for review; without a plan it shows what it had. */
  show(plan?: Plan): PlanPanel {
    let panel = this.panel();
    if (!panel) {
      panel = PlanPanel.create(this.extensionUri, this.forwarding(), { tools: this.tools, log: this.log });
      const opened = panel;
      opened.onDidDispose(() => {
        if (this.current === opened) this.current = undefined;
      });
      this.current = panel;
    } else {
      panel.reveal();
    }
    if (plan) panel.showPlan(plan);
    return panel;
  }

  dispose(): void {
    this.current?.dispose();
  }

  /** Callbacks that look up the current ones at call time, so they can be replaced while the panel is open. */
  private forwarding(): PlanPanelCallbacks {
    const target = (): PlanPanelCallbacks => {
      if (!this.callbacks) throw new Error('The plan panel has no planning flow attached.');
      return this.callbacks;
    };
    return {
      onStart: (plan) => target().onStart(plan),
      onCancel: () => target().onCancel(),
      onRegenerate: (feedback, plan) => target().onRegenerate(feedback, plan),
      onOpenApproval: (stepId) => target().onOpenApproval(stepId),
      onUndoRun: (runId) => target().onUndoRun(runId),
      onPlanEdited: (plan) => target().onPlanEdited?.(plan),
      regenerateBlockedReason: () => target().regenerateBlockedReason?.(),
    };
  }
}
