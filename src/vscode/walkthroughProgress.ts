import * as vscode from 'vscode';
import type { RunEvent } from '../core/engine/runEvents';

/** The steps of the "Get started" walkthrough that the work itself completes, as their context keys name them. */
const walkthroughSteps = ['planned', 'started', 'answered', 'undone'] as const;
type WalkthroughStep = (typeof walkthroughSteps)[number];

const stateKey = 'taskPlanner.walkthroughDone';

/**
 * What the user did that the walkthrough's steps teach, kept in the user's global state and given to VS Code as the context
 * keys `taskPlanner.walkthrough.<step>` (its `onContext:` completion events): a newcomer who planned, reviewed, approved and
 * undid before opening the walkthrough found every step unchecked, and a context key alone is gone after a reload.
 */
export class WalkthroughProgress {
  private readonly done: Set<WalkthroughStep>;

  constructor(private readonly state: vscode.Memento) {
    const stored = state.get<unknown>(stateKey);
    this.done = new Set(Array.isArray(stored) ? walkthroughSteps.filter((step) => stored.includes(step)) : []);
    for (const step of this.done) void vscode.commands.executeCommand('setContext', `taskPlanner.walkthrough.${step}`, true);
  }

  /** Marks `step` done, once. */
  mark(step: WalkthroughStep): void {
    if (this.done.has(step)) return;
    this.done.add(step);
    void vscode.commands.executeCommand('setContext', `taskPlanner.walkthrough.${step}`, true);
    void this.state.update(stateKey, [...this.done]);
  }

  /** Marks what a run's `event` shows the user did: started a plan, answered a change's approval. */
  markRunEvent(event: RunEvent): void {
    if (event.type === 'run_started') this.mark('started');
    else if (event.type === 'request_answered' && event.kind === 'approval') this.mark('answered');
  }
}
