import * as vscode from 'vscode';
import type { PlanTreeNode } from '../core/view/planTreeModel';
import { capText } from '../core/text/capText';
import { visibleControls } from '../shared/visibleCharacters';

/**
 * A Runs view row `node` with the name of the workspace folder its run ran in (a window of several folders): first in
 * its label, which the sidebar shows whatever its width, and in its tooltip and what a screen reader says.
 */
export function runRowInFolder(node: PlanTreeNode, folder: string | undefined): PlanTreeNode {
  if (folder === undefined) return node;
  const shown = visibleControls(capText(folder, 80));
  return {
    ...node,
    // Not in the description: after a request of a few words the sidebar cut it off, and two folders' runs looked alike.
    label: `${shown} · ${node.label}`,
    accessibilityLabel: vscode.l10n.t('{0}, in the folder {1}', node.accessibilityLabel, shown),
    tooltip: `${node.tooltip}\n${vscode.l10n.t('Folder: {0}', shown)}`,
  };
}
