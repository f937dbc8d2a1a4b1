// The cancellable notification planning runs behind, whose Cancel first means "plan now with what was read".
import * as vscode from 'vscode';
import { withProgress } from './notifications';

/** What `withPlanningProgress` gives the planning it shows. */
export interface PlanningProgress {
  signal: AbortSignal;
  report: (message: string) => void;
  stepsWritten: (count: number) => void;
  planNow: AbortSignal;
  investigating: (active: boolean) => void;
}

/**
 * Runs `work` behind a cancellable progress notification titled `title`: resolves to
 * `undefined` when the user cancelled it, rejects with what else failed. While the model
 * investigates, Cancel means "plan now with what was read": `planNow` aborts and a second
 * notification ("writing the plan from what was read") takes over, whose Cancel cancels planning.
 */
export async function withPlanningProgress<T>(title: string, work: (progress: PlanningProgress) => Promise<T>): Promise<T | undefined> {
  const abort = new AbortController();
  const planNow = new AbortController();
  let investigating = false;
  let report: (message: string) => void = () => undefined;
  const cancelled = (): void => abort.abort(new Error(vscode.l10n.t('{0}: cancelled.', title)));
  const planningNow = (): void => {
    planNow.abort();
    const writing = vscode.l10n.t('Task Planner: writing the plan from what was read');
    void withProgress({ location: vscode.ProgressLocation.Notification, title: writing, cancellable: true }, (progress, token) => {
      report = (message) => progress.report({ message });
      token.onCancellationRequested(cancelled);
      return Promise.resolve(finished).catch(() => undefined);
    });
  };
  const finished = withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    report = (message) => progress.report({ message });
    token.onCancellationRequested(() => (investigating && !planNow.signal.aborted ? planningNow() : cancelled()));
    try {
      return await work({
        signal: abort.signal,
        report: (message) => report(message),
        stepsWritten: (count) => report(vscode.l10n.t('step {0} written…', count)),
        planNow: planNow.signal,
        investigating: (active) => (investigating = active),
      });
    } catch (error) {
      if (abort.signal.aborted) return undefined;
      throw error;
    }
  });
  return finished;
}
