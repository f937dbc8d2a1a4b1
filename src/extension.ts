import * as vscode from 'vscode';
import { planTask } from './vscode/planTaskCommand';
import { PlanTreeProvider } from './vscode/planTreeProvider';

/** What `activate` returns: a small API for the integration tests and other extensions. */
export interface TaskPlannerApi {
  /** Runs "Plan task" with `request` instead of asking for it. */
  planTask(request: string): Promise<void>;
  /** Labels of the Plan tree's top-level items, in order. */
  planTreeLabels(): string[];
}

/** Composition root: wires the core to VS Code. Keep logic out of here. */
export function activate(context: vscode.ExtensionContext): TaskPlannerApi {
  const log = vscode.window.createOutputChannel('Task Planner', { log: true });
  const tree = new PlanTreeProvider();
  context.subscriptions.push(
    log,
    tree,
    vscode.window.registerTreeDataProvider('taskPlanner.plan', tree),
    vscode.commands.registerCommand('taskPlanner.planTask', () => planTask(tree, log)),
  );
  return {
    planTask: async (request) => {
      await planTask(tree, log, request);
    },
    planTreeLabels: () => tree.topLevelNodes().map((node) => node.label),
  };
}

export function deactivate(): void {}
