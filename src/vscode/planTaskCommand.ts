import * as vscode from 'vscode';
import { critiquePlan } from '../core/plan/critiquePlan';
import { heuristicPlan } from '../core/planner/heuristicPlan';
import type { Plan } from '../core/plan/planSchema';
import type { PlanTreeProvider } from './planTreeProvider';

/** Longest request accepted from the input box, in characters. */
const maxRequestLength = 20_000;

/**
 * "Plan task": asks for the request (unless given), plans it, and shows the steps in the
 * Plan tree. Returns the plan, or `undefined` when the user cancelled.
 */
export async function planTask(tree: PlanTreeProvider, log: vscode.LogOutputChannel, request?: string): Promise<Plan | undefined> {
  const text =
    request ??
    (await vscode.window.showInputBox({
      title: 'Task Planner: Plan task',
      prompt: 'Describe what you want done. Separate steps with "then", or paste a list.',
      placeHolder: 'e.g. Read src/app.ts, then add input validation, then run `npm test`',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Describe the task to plan.' : value.length > maxRequestLength ? `Keep the request under ${maxRequestLength} characters.` : undefined),
    }));
  if (text === undefined || text.trim() === '') return undefined;
  const plan = heuristicPlan(text, { createdAt: new Date().toISOString() });
  const critique = critiquePlan(plan);
  log.info(`Planned ${plan.steps.length} step(s) for: ${plan.objective}`);
  log.info(critique.summary);
  tree.setPlan(plan);
  await vscode.commands.executeCommand('taskPlanner.plan.focus');
  // Not awaited: the notification stays until dismissed and must not block the command.
  void vscode.window.showInformationMessage(`Task Planner: planned ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}. Critic: ${critique.summary}`, 'Show log').then((choice) => {
    if (choice === 'Show log') log.show(true);
  });
  return plan;
}
