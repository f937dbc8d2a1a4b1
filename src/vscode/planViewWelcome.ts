import * as vscode from 'vscode';

/** The context key the Plan view's "No plan yet" welcome waits for (package.json `viewsWelcome`). */
export const planViewWelcomeKey = 'taskPlanner.planViewRestored';

/**
 * When the Plan view may show its "No plan yet" welcome: once the run a reload interrupted was looked for
 * (`restored`) and the view is empty then or later (`changed`). Set sooner, it showed for a moment over the run the view
 * was about to show, under that run's title (a newcomer's trial: three reloads out of three): VS Code draws the welcome
 * of an empty view before it has fetched the rows the tree just announced. Once set it stays set.
 */
export class PlanViewWelcome {
  private lookedFor = false;
  private shown = false;

  constructor(private readonly empty: () => boolean) {}

  /** The run a reload interrupted was looked for (shown, or none found). */
  restored(): void {
    this.lookedFor = true;
    this.changed();
  }

  /** The view's rows changed. */
  changed(): void {
    if (this.shown || !this.lookedFor || !this.empty()) return;
    this.shown = true;
    void vscode.commands.executeCommand('setContext', planViewWelcomeKey, true);
  }
}
