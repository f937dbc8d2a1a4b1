import * as vscode from 'vscode';
import type { PlanningQuestion } from '../core/planner/investigateRequest';

/** A QuickPick row: a suggestion (its `answer`), or the picker's own first row, which answers what is typed. */
interface AnswerItem extends vscode.QuickPickItem {
  answer: string | undefined;
}

/**
 * Asks the planner's question before the plan in a QuickPick: its suggestions to pick, or
 * any text typed (the first row, the picker's own). Resolves to the answer, `undefined` when the
 * user closed it (the model then chooses and says so in the plan) or planning was cancelled.
 * The question and suggestions come bounded and on one line (`investigateRequest`).
 */
export function askPlanningQuestion(question: PlanningQuestion, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<AnswerItem>();
    const suggestions: AnswerItem[] = question.suggestions.map((suggestion) => ({ label: suggestion, answer: suggestion }));
    // The first row answers what is typed when Enter is pressed: typing then Enter before the rows follow the text (they
    // are the extension host's, a round trip away) took the first suggestion instead of what the user typed.
    const typeYours: AnswerItem = {
      label:
        suggestions.length > 0
          ? vscode.l10n.t('Type your answer, or choose one of the suggestions below')
          : vscode.l10n.t('Type your answer, then press Enter'),
      answer: undefined,
      alwaysShow: true,
    };
    pick.title = vscode.l10n.t('Task Planner asks before planning');
    pick.placeholder = question.question;
    pick.ignoreFocusOut = true;
    pick.items = [typeYours, ...suggestions];
    let settled = false;
    const finish = (answer: string | undefined): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', cancel);
      resolve(answer);
      pick.dispose();
    };
    const cancel = (): void => finish(undefined);
    signal.addEventListener('abort', cancel, { once: true });
    pick.onDidChangeValue((value) => {
      const typed = value.trim();
      pick.items =
        typed === ''
          ? [typeYours, ...suggestions]
          : [{ label: typed, description: vscode.l10n.t('your answer'), answer: undefined, alwaysShow: true }, ...suggestions];
    });
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0] ?? pick.activeItems[0];
      const answer = picked?.answer ?? pick.value.trim();
      // Enter on the empty first row answers nothing: the question stays until answered or closed.
      if (answer !== '') finish(answer);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
