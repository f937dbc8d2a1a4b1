import * as vscode from 'vscode';

/** The context key the Plan view's "No plan yet" welcome waits for (package.json `viewsWelcome`). */
export const planViewWelcomeKey = 'taskPlanner.planViewRestored';
/**
 * The context key that says which empty state the Plan view shows (package.json `viewsWelcome`): `kept` (runs are kept:
 * open one from the Runs view) or `none` ("No plan yet"); neither is shown before it is known.
 */
export const planViewRunsKey = 'taskPlanner.planViewRuns';

/**
 * When the Plan view may show its "No plan yet" welcome: once the run a reload interrupted was looked for
 * (`restored`) and the view is empty then or later (`changed`). Set sooner, it showed for a moment over the run the view
 * was about to show, under that run's title (a newcomer's trial: three reloads out of three): VS Code draws the welcome
 * of an empty view before it has fetched the rows the tree just announced. Once set it stays set.
 * Which welcome (`planViewRunsKey`): with runs kept (`hasRuns`) the empty view points at the Runs view, since after a
 * reload it said "No plan yet" beside a Runs view listing six runs; asked each time the view is empty.
 */
export class PlanViewWelcome {
  private lookedFor = false;
  private shown = false;

  constructor(
    private readonly empty: () => boolean,
    private readonly hasRuns: () => Promise<boolean> = () => Promise.resolve(false),
  ) {}

  /** The run a reload interrupted was looked for (shown, or none found). */
  restored(): void {
    this.lookedFor = true;
    this.changed();
  }

  /** The view's rows changed. */
  changed(): void {
    if (!this.lookedFor || !this.empty()) return;
    void this.hasRuns().then(
      (kept) => vscode.commands.executeCommand('setContext', planViewRunsKey, kept ? 'kept' : 'none'),
      () => vscode.commands.executeCommand('setContext', planViewRunsKey, 'none'),
    );
    if (this.shown) return;
    this.shown = true;
    void vscode.commands.executeCommand('setContext', planViewWelcomeKey, true);
  }
}
