import * as vscode from 'vscode';
import { shownSuggestion, withoutIcons } from './shownText';

/** A QuickPick row: a model's suggestion (its `answer`, shown escaped), or the picker's own first row, which answers what is typed. */
interface AnswerItem extends vscode.QuickPickItem {
  answer: string | undefined;
}

/**
 * Asks a question in a QuickPick: any text typed, or one of `suggestions`. The first row is the picker's own and
 * answers what is typed when Enter is pressed, so Enter right after typing (before the rows follow the text, a round
 * trip to the extension host away) never picks a suggestion instead; Enter on it empty answers nothing. Resolves to
 * the answer, or `undefined` when the picker was closed, or hidden by `closeWhen` (given the function that hides it,
 * it returns what to dispose once the picker is gone).
 */
export function pickAnswer(
  question: { title: string; placeholder: string; suggestions: readonly string[] },
  closeWhen: (hide: () => void) => vscode.Disposable,
): Promise<string | undefined> {
  const suggestions: AnswerItem[] = [];
  for (const suggestion of question.suggestions) {
    const label = shownSuggestion(suggestion);
    if (suggestions.some((item) => item.label === label)) continue;
    suggestions.push({ label, description: vscode.l10n.t('suggested by the model'), answer: suggestion });
  }
  // A row's detail renders `$(icon)`, the placeholder does not: the question shown under a row has its icons as typed.
  const detail = withoutIcons(question.placeholder);
  const typeYours: AnswerItem = {
    label:
      suggestions.length > 0
        ? vscode.l10n.t('Type your answer, or choose one of the suggestions below')
        : vscode.l10n.t('Type your answer, then press Enter'),
    answer: undefined,
    alwaysShow: true,
    // The question under the row as well: the placeholder goes as soon as one types (a newcomer lost it mid-answer).
    detail,
  };
  const picker = vscode.window.createQuickPick<AnswerItem>();
  picker.title = question.title;
  picker.placeholder = question.placeholder;
  picker.ignoreFocusOut = true;
  picker.items = [typeYours, ...suggestions];
  picker.onDidChangeValue((value) => {
    const typed = value.trim();
    picker.items =
      typed === ''
        ? [typeYours, ...suggestions]
        : [
            {
              label: shownSuggestion(typed, 1_000),
              description: vscode.l10n.t('your answer'),
              detail,
              answer: undefined,
              alwaysShow: true,
            },
            ...suggestions,
          ];
  });
  const closing = closeWhen(() => picker.hide());
  return new Promise((done) => {
    let answer: string | undefined;
    picker.onDidAccept(() => {
      const picked = picker.selectedItems[0] ?? picker.activeItems[0];
      const given = picked?.answer ?? picker.value.trim();
      if (given === '') {
        // Enter on the empty row did nothing, in silence (a newcomer's trial).
        picker.items = [{ ...typeYours, label: vscode.l10n.t('Type an answer first, then press Enter (Escape closes without answering)') }, ...suggestions];
        return;
      }
      answer = given;
      picker.hide();
    });
    picker.onDidHide(() => {
      closing.dispose();
      picker.dispose();
      done(answer);
    });
    picker.show();
  });
}
