import * as vscode from 'vscode';
import type { RunEvent } from '../core/engine/runEvents';
import type { ProviderChoice } from '../core/llm/selectProvider';

/** The steps of the "Get started" walkthrough that the work itself completes, as their context keys name them. */
const walkthroughSteps = ['planned', 'started', 'answered', 'undone'] as const;
type WalkthroughStep = (typeof walkthroughSteps)[number];

/** The walkthrough's id and, for each step the work completes, that step's id (package.json `contributes.walkthroughs`). */
const walkthroughId = 'gettingStarted';
const stepIds: Record<WalkthroughStep | 'model', string> = {
  model: 'setUpModel',
  planned: 'planTask',
  started: 'review',
  answered: 'approve',
  undone: 'undo',
};

const stateKey = 'taskPlanner.walkthroughDone';

/**
 * What the user did that the walkthrough's steps teach, kept in the user's global state and given to VS Code twice: as the
 * context keys `taskPlanner.walkthrough.<step>` (its `onContext:` completion events), and as the step ticked through VS
 * Code's `welcome.markStepComplete`. The context keys alone ticked nothing for a newcomer (2026-12, all five steps
 * unticked): VS Code's walkthrough service takes an `onContext` condition that already holds when it registers the
 * walkthrough (it registers it when first needed, often when the walkthrough is opened, after the work was done) as seen
 * this session without ticking the step, and never ticks it on that condition in that window; a command given from the
 * extension (a notification's button) fires no `onCommand:` event either.
 */
export class WalkthroughProgress {
  private readonly done: Set<WalkthroughStep>;
  private modelMarked = false;

  /** `extensionId`: this extension's (`publisher.name`), which VS Code puts before the walkthrough's and its steps' ids. */
  constructor(
    private readonly state: vscode.Memento,
    private readonly extensionId: string,
  ) {
    const stored = state.get<unknown>(stateKey);
    this.done = new Set(Array.isArray(stored) ? walkthroughSteps.filter((step) => stored.includes(step)) : []);
    for (const step of this.done) {
      void vscode.commands.executeCommand('setContext', `taskPlanner.walkthrough.${step}`, true);
      // Done in an earlier window, or before the walkthrough was ticked this way: ticked again, which changes nothing twice.
      this.tick(step);
    }
  }

  /** Marks `step` done, once. */
  mark(step: WalkthroughStep): void {
    if (this.done.has(step)) return;
    this.done.add(step);
    void vscode.commands.executeCommand('setContext', `taskPlanner.walkthrough.${step}`, true);
    void this.state.update(stateKey, [...this.done]);
    this.tick(step);
  }

  /** Marks what a run's `event` shows the user did: started a plan, answered a change's approval. */
  markRunEvent(event: RunEvent): void {
    if (event.type === 'run_started') this.mark('started');
    else if (event.type === 'request_answered' && event.kind === 'approval') this.mark('answered');
  }

  /** Ticks the model step once the active planner is a model (a VS Code chat model or an OpenAI-compatible server), once a window. */
  markPlanner(choice: ProviderChoice): void {
    if (choice === 'heuristic' || this.modelMarked) return;
    this.modelMarked = true;
    this.tick('model');
  }

  /** Ticks the walkthrough's step in VS Code itself; an editor without the command (or the walkthrough) keeps the context key. */
  private tick(step: WalkthroughStep | 'model'): void {
    const id = `${this.extensionId}#${walkthroughId}#${stepIds[step]}`;
    void Promise.resolve(vscode.commands.executeCommand('welcome.markStepComplete', id)).catch(() => undefined);
  }
}
