import * as vscode from 'vscode';
import type { PlanTreeNode } from '../core/view/planTreeModel';

/** The tree row of `node` in the Plan and Runs views: expanded when it has children, its icon in its theme colour. */
export function planTreeItem(node: PlanTreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.label, node.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  // The row puts the label and description side by side with a margin and no space between the
  // two texts: the space makes the row's text read as it looks, so its accessible name contains it.
  item.description = ` ${node.description}`;
  item.tooltip = node.tooltip;
  // without it, screen readers hear the tooltip instead of what the row shows
  item.accessibilityInformation = { label: node.accessibilityLabel };
  item.iconPath = new vscode.ThemeIcon(node.icon, node.color ? new vscode.ThemeColor(node.color) : undefined);
  item.contextValue = node.contextValue;
  return item;
}
