import * as vscode from 'vscode';
import type { PlanTreeNode } from '../core/view/planTreeModel';
import { shownLine, shownProse } from './shownText';

/** Most characters a row's label and description show, its tooltip, and its tooltip's lines (then cut, said). */
export const treeItemLimits = { line: 200, tooltip: 4_000, tooltipLines: 40 } as const;

/**
 * The tree row of `node` in the Plan and Runs views: expanded when it has children, its icon in its theme colour. Its
 * texts hold a model's titles, inputs and arguments, a tool's errors and a journal's objective, which the workbench shows
 * as they are: every control, direction control and invisible character is made visible, each line bounded, and the
 * tooltip's blank lines collapsed and its length bounded, so no row hides, reverses or buries what it says.
 */
export function planTreeItem(node: PlanTreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    shownLine(node.label, treeItemLimits.line),
    node.children.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
  );
  item.id = node.id;
  // The row puts the label and description side by side with a margin and no space between the
  // two texts: the space makes the row's text read as it looks, so its accessible name contains it.
  item.description = ` ${shownLine(node.description, treeItemLimits.line)}`;
  item.tooltip = shownProse(node.tooltip, { chars: treeItemLimits.tooltip, lines: treeItemLimits.tooltipLines });
  // without it, screen readers hear the tooltip instead of what the row shows
  item.accessibilityInformation = { label: shownLine(node.accessibilityLabel, treeItemLimits.line * 2) };
  item.iconPath = new vscode.ThemeIcon(node.icon, node.color ? new vscode.ThemeColor(node.color) : undefined);
  item.contextValue = node.contextValue;
  return item;
}
