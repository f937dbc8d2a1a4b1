import type * as vscode from 'vscode';
import type { CritiqueIssue } from '../core/plan/critiquePlan';
import type { Plan } from '../core/plan/planSchema';
import { PlanPanel, type PlanPanelSetup } from './planPanel';

/** Owns the one plan panel: opens it on demand (or brings it to the front), every time with the same setup. */
export class PlanPanelController implements vscode.Disposable {
  private current: PlanPanel | undefined;

  constructor(private readonly setup: PlanPanelSetup) {}

  /** The open panel, if any. */
  panel(): PlanPanel | undefined {
    return this.current?.isDisposed ? undefined : this.current;
  }

  /** Opens the panel (or reveals it) showing `plan` for review (with the model critique's findings); without a plan it shows what it had. */
  show(plan?: Plan, modelFindings: readonly CritiqueIssue[] = []): PlanPanel {
    let panel = this.panel();
    if (!panel) {
      panel = PlanPanel.create(this.setup);
      const opened = panel;
      opened.onDidDispose(() => {
        if (this.current === opened) this.current = undefined;
      });
      this.current = panel;
    } else {
      panel.reveal();
    }
    if (plan) panel.showPlan(plan, modelFindings);
    return panel;
  }

  dispose(): void {
    this.current?.dispose();
  }
}
