import * as vscode from 'vscode';
import { planTask } from './vscode/planTaskCommand';
import { PlanTreeProvider } from './vscode/planTreeProvider';
import { builtinTools } from './core/tools/builtinTools';
import { createLocalPlanRunner } from './vscode/localPlanRunner';
import { PlanPanelController } from './vscode/planPanelController';
import { createPlanPanelProbe, type PlanPanelProbe } from './vscode/planPanelProbe';
import { showPlan } from './vscode/showPlanCommand';

/** What `activate` returns: a small API for the integration tests and other extensions. */
export interface TaskPlannerApi {
  /** Runs "Plan task" with `request` instead of asking for it. */
  planTask(request: string): Promise<void>;
  /** Labels of the Plan tree's top-level items, in order. */
  planTreeLabels(): string[];
  /** The plan panel: open it with a plan, exchange messages with it. */
  planPanel: PlanPanelProbe;
}

/** Composition root: wires the core to VS Code. Keep logic out of here. */
export function activate(context: vscode.ExtensionContext): TaskPlannerApi {
  const log = vscode.window.createOutputChannel('Task Planner', { log: true });
  const tree = new PlanTreeProvider();
  const panelTools = builtinTools();
  const panels = new PlanPanelController(context.extensionUri, panelTools.map((tool) => tool.name), log);
  panels.setCallbacks(createLocalPlanRunner(() => panels.panel(), panelTools, log));
  context.subscriptions.push(
    log,
    tree,
    vscode.window.registerTreeDataProvider('taskPlanner.plan', tree),
    vscode.commands.registerCommand('taskPlanner.planTask', () => planTask(tree, log)),
    panels,
    vscode.commands.registerCommand('taskPlanner.showPlan', () => showPlan(panels, () => tree.currentPlan(), log)),
  );
  return {
    planTask: async (request) => {
      await planTask(tree, log, request);
    },
    planTreeLabels: () => tree.topLevelNodes().map((node) => node.label),
    planPanel: createPlanPanelProbe(panels),
  };
}

export function deactivate(): void {}
