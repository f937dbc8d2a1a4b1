import * as vscode from 'vscode';
import type { PlanTreeProvider } from './planTreeProvider';

/** The Plan view's own commands: flat / by-level layout toggle and the trace log. */
export function registerViewCommands(tree: PlanTreeProvider, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const setLayout = (layout: 'flat' | 'levels'): void => {
    tree.setLayout(layout);
    void vscode.commands.executeCommand('setContext', 'taskPlanner.treeLayout', layout);
  };
  void vscode.commands.executeCommand('setContext', 'taskPlanner.treeLayout', tree.currentLayout());
  return [
    vscode.commands.registerCommand('taskPlanner.showByLevels', () => setLayout('levels')),
    vscode.commands.registerCommand('taskPlanner.showFlat', () => setLayout('flat')),
    vscode.commands.registerCommand('taskPlanner.showLog', () => log.show(true)),
  ];
}
