import * as vscode from 'vscode';
import { planTreeModel, type PlanTreeNode } from '../core/view/planTreeModel';
import type { Plan } from '../core/plan/planSchema';

/** The Plan view's data: renders the current plan's tree model; empty shows the welcome content. */
export class PlanTreeProvider implements vscode.TreeDataProvider<PlanTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<PlanTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private nodes: PlanTreeNode[] = [];
  private plan: Plan | undefined;

  /** Shows `plan` (or nothing) and refreshes the view. */
  setPlan(plan: Plan | undefined): void {
    this.plan = plan;
    this.nodes = plan ? planTreeModel(plan) : [];
    this.changed.fire(undefined);
  }

  currentPlan(): Plan | undefined {
    return this.plan;
  }

  /** The top-level nodes as shown, for the test API and the status bar. */
  topLevelNodes(): readonly PlanTreeNode[] {
    return this.nodes;
  }

  getTreeItem(node: PlanTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, node.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon);
    item.contextValue = node.contextValue;
    return item;
  }

  getChildren(node?: PlanTreeNode): PlanTreeNode[] {
    return node ? node.children : this.nodes;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
