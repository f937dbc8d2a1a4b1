import * as vscode from 'vscode';
import type { PlanningQuestion } from '../core/planner/investigateRequest';

/** A QuickPick row: a suggestion, or what the user typed. */
interface AnswerItem extends vscode.QuickPickItem {
  answer: string;
}

/**
 * Asks the planner's question before the plan in a QuickPick: its suggestions to pick, or
 * any text typed (offered as the first row). Resolves to the answer, `undefined` when the
 * user closed it (the model then chooses and says so in the plan) or planning was cancelled.
 * The question and suggestions come bounded and on one line (`investigateRequest`).
 */
export function askPlanningQuestion(question: PlanningQuestion, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<AnswerItem>();
    const suggestions: AnswerItem[] = question.suggestions.map((suggestion) => ({ label: suggestion, answer: suggestion }));
    pick.title = vscode.l10n.t('Task Planner asks before planning');
    pick.placeholder = question.question;
    pick.ignoreFocusOut = true;
    pick.items = suggestions;
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
      pick.items = typed === '' ? suggestions : [{ label: typed, description: vscode.l10n.t('your answer'), answer: typed, alwaysShow: true }, ...suggestions];
    });
    pick.onDidAccept(() => finish(pick.selectedItems[0]?.answer ?? (pick.value.trim() || undefined)));
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
