import * as vscode from 'vscode';
import type { RunState } from '../core/engine/runEvents';
import { describeStepProgress, stepProgress } from '../shared/stepProgress';
import type { PendingPrompt, PendingPrompts } from './pendingPrompts';

/** What the status bar says while a step waits for each kind of prompt, and what a click offers. */
const waitingLooks: Record<PendingPrompt['kind'], { what: string; icon: string; action: string }> = {
  approval: { what: 'Approval needed', icon: 'shield', action: 'answer' },
  clarification: { what: 'Answer needed', icon: 'comment-discussion', action: 'answer' },
  review: { what: 'Review needed', icon: 'comment-discussion', action: 'answer' },
  manual: { what: 'Your step', icon: 'person', action: 'mark it Done or Failed, or read its instructions' },
};

/**
 * The status bar item of the active run: `$(sync~spin) 2/5 steps`, or what the run waits
 * on (`$(shield) Approval needed`), which reopens the dismissed prompt when clicked. Its
 * accessible label starts with the visible text and says the progress or what waits.
 */
export class RunStatusBar implements vscode.Disposable {
  /** The item in the status bar (what it shows is what a test reads). */
  readonly item = vscode.window.createStatusBarItem('taskPlanner.run', vscode.StatusBarAlignment.Left, 50);
  private state: RunState | undefined;

  constructor(private readonly pending: PendingPrompts) {
    this.item.name = 'Task Planner run';
  }

  /** Shows `state` (hidden when there is none). */
  update(state: RunState | undefined): void {
    this.state = state;
    this.render();
  }

  render(): void {
    const state = this.state;
    const waiting = this.pending.list()[0];
    if (!state?.plan && !waiting) {
      this.item.hide();
      return;
    }
    const progress = stepProgress(Object.values(state?.steps ?? {}), state?.plan?.steps.length ?? 0);
    if (waiting) {
      const { what, icon, action } = waitingLooks[waiting.kind];
      this.item.text = `$(${icon}) Task Planner: ${what}`;
      this.item.tooltip = `Step ${waiting.stepId} waits for you. Click to ${action}.`;
      this.item.accessibilityInformation = { label: `Task Planner: ${what}, step ${waiting.stepId} waits for you. Press Enter to ${action}.`, role: 'button' };
      this.item.command = { command: 'taskPlanner.showPending', title: 'Answer', arguments: [waiting.stepId] };
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    } else {
      const icon = state?.status === 'running' ? 'sync~spin' : state?.status === 'completed' ? 'pass' : state?.status === 'waiting' ? 'debug-pause' : 'error';
      this.item.text = `$(${icon}) Task Planner ${progress.completed}/${progress.total}`;
      this.item.tooltip = `Run ${state?.runId}: ${state?.status}, ${describeStepProgress(progress)}. Click to show the plan.`;
      this.item.accessibilityInformation = {
        label: `Task Planner ${describeStepProgress(progress)}, run ${state?.status}. Press Enter to show the plan.`,
        role: 'button',
      };
      this.item.command = 'taskPlanner.plan.focus';
      this.item.backgroundColor = undefined;
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
